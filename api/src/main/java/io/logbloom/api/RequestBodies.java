package io.logbloom.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reads request bodies with a hard size bound, before and after {@code Content-Encoding}
 * inflation: a body larger than the bound on the wire, or a small gzip body that inflates past it
 * (a gzip bomb), is refused with 413 after reading at most bound + 1 bytes, so memory use per
 * request is bounded whatever the client sends. Supports the identity and gzip encodings, as Loki's
 * push handler. Immutable and thread-safe.
 */
public final class RequestBodies {
    private final long maxBytes;

    /** Bodies (raw and inflated) up to {@code maxBytes} are accepted. */
    public RequestBodies(long maxBytes) {
        if (maxBytes <= 0 || maxBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("max body size must be in 1..2^31-9 bytes, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The whole body, inflated per {@code contentEncoding} (null or empty = identity). */
    public byte[] read(InputStream body, String contentEncoding, long declaredLength) throws IOException {
        if (declaredLength > maxBytes) {
            throw tooLarge("request body of " + declaredLength + " bytes");
        }
        String encoding = contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (encoding) {
            case "", "identity" -> readDeclared(body, declaredLength);
            case "gzip", "x-gzip" -> {
                byte[] compressed = readDeclared(body, declaredLength);
                try (InputStream inflated = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed), 8192)) {
                    yield readBounded(inflated, "gzip-decompressed request body");
                } catch (java.util.zip.ZipException | java.io.EOFException e) {
                    throw new HttpException(400, "bad_request", "malformed gzip request body: "
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
                }
            }
            default -> throw new HttpException(415, "unsupported_encoding", "unsupported Content-Encoding '"
                    + contentEncoding + "': expected gzip or none");
        };
    }

    /**
     * The body of a request that declared its length ({@code declaredLength} ≥ 0, already checked against the bound)
     * read into one array of that length, without the copies of a growing buffer; a body that ends early is returned
     * as far as it came, and bytes past the declared length (which the server does not deliver) are read bounded.
     */
    private byte[] readDeclared(InputStream in, long declaredLength) throws IOException {
        if (declaredLength < 0) {
            return readBounded(in, "request body");
        }
        byte[] body = new byte[(int) declaredLength];
        int n = in.readNBytes(body, 0, body.length);
        if (n < body.length) {
            return java.util.Arrays.copyOf(body, n);
        }
        int next = in.read();
        if (next < 0) {
            return body;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 8192);
        out.write(body, 0, body.length);
        out.write(next);
        byte[] rest = readBounded(in, "request body");
        if ((long) body.length + 1 + rest.length > maxBytes) {
            throw tooLarge("request body");
        }
        out.write(rest, 0, rest.length);
        return out.toByteArray();
    }

    private byte[] readBounded(InputStream in, String what) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        byte[] buffer = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            total += n;
            if (total > maxBytes) {
                throw tooLarge(what);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private HttpException tooLarge(String what) {
        return new HttpException(413, "too_large", what + " is larger than the limit of " + maxBytes
                + " bytes (server.max_recv_msg_size)");
    }
}
