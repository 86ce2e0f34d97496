package io.logbloom.api;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A bare HTTP/1.1 client over one keep-alive socket to 127.0.0.1, for requests that
 * {@link java.net.http.HttpClient} refuses to send: header values with NUL or control characters,
 * raw bytes in the request target, any method. It writes the request bytes exactly as given and reads
 * one response (status, headers, a Content-Length or chunked body), reconnecting when the server closed
 * the connection. Not thread-safe: one per thread.
 */
final class RawHttpConnection implements AutoCloseable {
    /** Socket read timeout: a response slower than this is reported as a failure, not waited for. */
    private static final int READ_TIMEOUT_MILLIS = 30_000;
    /** Bound on one response header line, so a broken response cannot make the reader allocate without end. */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    /** One response: status code and body text. */
    record Response(int status, String body) {}

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    RawHttpConnection(int port) {
        this.port = port;
    }

    /**
     * Sends one request; {@code target} is written verbatim after the method, each header as
     * {@code name: value} with the value's bytes as given (ISO-8859-1, so any byte 0-255 can be sent).
     */
    Response send(String method, String target, List<String[]> headers, byte[] body) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream(256 + body.length);
        request.writeBytes((method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        for (String[] header : headers) {
            request.writeBytes((header[0] + ": " + header[1] + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        request.writeBytes(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(body);
        byte[] bytes = request.toByteArray();
        if (socket == null) {
            connect();
        }
        try {
            out.write(bytes);
            out.flush();
            return readResponse(method);
        } catch (IOException staleConnection) {
            // the server may have closed the kept-alive connection after the previous response: retry once, fresh
            close();
            connect();
            out.write(bytes);
            out.flush();
            return readResponse(method);
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
    }

    private Response readResponse(String method) throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP status line: " + statusLine);
        }
        int status = Integer.parseInt(parts[1]);
        long contentLength = -1;
        boolean chunked = false;
        boolean close = parts[0].equals("HTTP/1.0");
        String line;
        while ((line = readLine()) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        byte[] body;
        if (method.equals("HEAD") || status == 204 || status == 304 || (status >= 100 && status < 200)) {
            body = new byte[0];
        } else if (chunked) {
            body = readChunked();
        } else if (contentLength >= 0) {
            body = in.readNBytes((int) contentLength);
        } else {
            body = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(status, new String(body, StandardCharsets.UTF_8));
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            if (sizeLine == null) {
                throw new IOException("connection closed inside a chunked body");
            }
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                String trailer;
                while ((trailer = readLine()) != null && !trailer.isEmpty()) {
                    // trailers are ignored
                }
                return body.toByteArray();
            }
            body.writeBytes(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(80);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE_BYTES) {
                throw new IOException("response header line longer than " + MAX_LINE_BYTES + " bytes");
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a socket we no longer use; nothing to recover
            }
            socket = null;
        }
    }
}
