package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link LokiClient} against a raw loopback HTTP/1.1 server that counts connections and records requests. */
class LokiClientTest {
    private RawServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void push_sendsBodyAndHeaders_andReusesOneConnection() throws Exception {
        server = new RawServer(request -> "HTTP/1.1 204 No Content\r\n\r\n");
        LokiClient client = new LokiClient(server.uri(), "team-a", Duration.ofSeconds(5));
        byte[] body = "0123456789".repeat(10_000).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 20; i++) {
            HttpOutcome outcome = client.push(push(body, "snappy"));
            assertThat(outcome.status()).isEqualTo(204);
            assertThat(outcome.latencyNanos()).isPositive();
        }
        assertThat(server.requests).hasSize(20);
        Request first = server.requests.get(0);
        assertThat(first.line()).isEqualTo("POST /loki/api/v1/push HTTP/1.1");
        assertThat(first.headers()).containsEntry("content-type", "application/x-protobuf")
                .containsEntry("content-encoding", "snappy").containsEntry("x-scope-orgid", "team-a")
                .containsEntry("content-length", Integer.toString(body.length));
        assertThat(first.body()).isEqualTo(body);
        // keep-alive: one thread's requests share one connection
        assertThat(server.connections.get()).isEqualTo(1);
    }

    @Test
    void push_refused_keepsStatusBodyAndRetryAfter_andTheConnection() throws Exception {
        server = new RawServer(request -> response(429, "Retry-After: 3\r\n", "rate limit exceeded for tenant x"));
        LokiClient client = new LokiClient(server.uri(), null, Duration.ofSeconds(5));
        for (int i = 0; i < 3; i++) {
            HttpOutcome outcome = client.push(push(new byte[] {1, 2, 3}, null));
            assertThat(outcome.status()).isEqualTo(429);
            assertThat(outcome.detail()).isEqualTo("rate limit exceeded for tenant x");
            assertThat(outcome.retryAfter()).isEqualTo(Duration.ofSeconds(3));
        }
        assertThat(server.requests.get(0).headers()).doesNotContainKeys("x-scope-orgid", "content-encoding");
        assertThat(server.connections.get()).isEqualTo(1);
    }

    @Test
    void queryRange_getsWithEncodedParameters() throws Exception {
        server = new RawServer(request -> response(200, "", "{\"status\":\"success\"}"));
        LokiClient client = new LokiClient(server.uri(), null, Duration.ofSeconds(5));
        HttpOutcome outcome = client.queryRange("{job=\"a\"} |= \"x y\"", 10, 20, 5, Duration.ofMillis(1500));
        assertThat(outcome.status()).isEqualTo(200);
        assertThat(new String(outcome.body(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"success\"}");
        assertThat(server.requests.get(0).line()).isEqualTo("GET /loki/api/v1/query_range?query="
                + "%7Bjob%3D%22a%22%7D+%7C%3D+%22x+y%22&start=10&end=20&limit=5&direction=backward&step=1.5 HTTP/1.1");
    }

    @Test
    void push_serverNeverAnswers_timeoutOnceWithoutResending_thenANewConnectionWorks() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        server = new RawServer(request -> seen.incrementAndGet() == 1 ? null : "HTTP/1.1 204 No Content\r\n\r\n");
        LokiClient client = new LokiClient(server.uri(), null, Duration.ofMillis(300));
        HttpOutcome outcome = client.push(push(new byte[] {1}, null));
        assertThat(outcome.status()).isEqualTo(-1);
        assertThat(outcome.failure()).isEqualTo("timeout");
        assertThat(outcome.detail()).contains("no answer within");
        // the body was sent once: a push is not repeated behind the harness's back
        assertThat(server.requests).hasSize(1);
        assertThat(client.push(push(new byte[] {2}, null)).status()).isEqualTo(204);
        assertThat(server.connections.get()).isEqualTo(2);
    }

    @Test
    void push_nothingListening_connectionRefused() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        LokiClient client = new LokiClient(URI.create("http://127.0.0.1:" + port), null, Duration.ofSeconds(2));
        HttpOutcome outcome = client.push(push(new byte[] {1}, null));
        assertThat(outcome.failure()).isEqualTo("connection_refused");
        assertThat(outcome.errorKey()).isEqualTo("connection_refused");
    }

    private static EncodedPush push(byte[] body, String contentEncoding) {
        return new EncodedPush(body, "application/x-protobuf", contentEncoding, 1, body.length,
                new Needle(Map.of("job", "t"), "abc", "line", 1), 1, 1);
    }

    private static String response(int status, String extraHeaders, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "HTTP/1.1 " + status + " X\r\n" + extraHeaders + "Content-Type: text/plain\r\nContent-Length: "
                + bytes.length + "\r\n\r\n" + body;
    }

    private record Request(String line, Map<String, String> headers, byte[] body) {}

    /** Answers what {@code responder} returns for each request (null: read it and never answer). */
    private interface Responder {
        String respond(Request request);
    }

    /** A blocking HTTP/1.1 server on loopback: one thread per connection, keep-alive, Content-Length bodies. */
    private static final class RawServer implements AutoCloseable {
        final List<Request> requests = new CopyOnWriteArrayList<>();
        final AtomicInteger connections = new AtomicInteger();
        private final ServerSocket socket;
        private final Responder responder;
        private final List<Socket> open = new CopyOnWriteArrayList<>();

        RawServer(Responder responder) throws IOException {
            this.responder = responder;
            this.socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(this::accept, "raw-http-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    open.add(connection);
                    Thread serving = new Thread(() -> serve(connection), "raw-http-conn");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
                while (true) {
                    String line = readLine(in);
                    if (line == null) {
                        return;
                    }
                    Map<String, String> headers = new LinkedHashMap<>();
                    for (String h = readLine(in); h != null && !h.isEmpty(); h = readLine(in)) {
                        int colon = h.indexOf(':');
                        headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
                    }
                    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
                    Request request = new Request(line, headers, in.readNBytes(length));
                    requests.add(request);
                    String answer = responder.respond(request);
                    if (answer == null) {
                        continue; // never answered: the client times out and drops the connection
                    }
                    out.write(answer.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                // the client went away
            }
        }

        private static String readLine(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.ISO_8859_1);
                    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            socket.close();
            List<Socket> sockets = new ArrayList<>(open);
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
