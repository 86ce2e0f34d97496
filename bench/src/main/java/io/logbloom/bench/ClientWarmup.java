package io.logbloom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warms the measuring JVM's own HTTP path before a report times a server's answers: serves a Loki-shaped query answer
 * from a stub HTTP responder inside this JVM (loopback, a free port) and GETs it {@code requests} times exactly as the
 * timed requests do ({@link BlockingHttp}, then Jackson over the body). The server being measured sees none of it.
 *
 * <p>Why: a report JVM that has not sent a GET before interprets its HTTP client and JSON parser for its first timed
 * queries and compiles them meanwhile, on the same two cores as the server. Needles 1-15 right after a load measured
 * 4.3-4.6 ms from the client's request to its last byte beyond the server's own handler time with a cold client
 * against 1.4-2.0 ms after 300 stub requests (four runs of the needle proxy, 2026-11-28); and in a report over two
 * servers the second one was measured by a client the first had warmed.
 *
 * <p>Not thread-safe: one warm-up at a time.
 */
final class ClientWarmup {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Requests whose latency is the client's floor ({@link Result#floorP50Millis}). */
    static final int FLOOR_REQUESTS = 15;

    private ClientWarmup() {}

    /**
     * What the warm-up measured.
     *
     * @param served         requests the stub answered
     * @param floorP50Millis p50 of the last {@link #FLOOR_REQUESTS} round trips to the stub: what the client and
     *                       loopback add to every timed request at least
     */
    record Result(long served, double floorP50Millis) {}

    /** GETs a stub's canned answer {@code requests} times, then {@link #FLOOR_REQUESTS} more timed. */
    static Result run(int requests) throws IOException {
        if (requests < 0) {
            throw new IllegalArgumentException("requests must be >= 0, got " + requests);
        }
        byte[] answer = JSON.writeValueAsBytes(cannedAnswer());
        try (Stub stub = new Stub(answer)) {
            String url = "http://127.0.0.1:" + stub.port()
                    + "/loki/api/v1/query_range?query=%7Brun%3D%22warmup%22%7D&start=1&end=2&limit=100";
            for (int i = 0; i < requests; i++) {
                get(url);
            }
            List<Double> floor = new ArrayList<>(FLOOR_REQUESTS);
            for (int i = 0; i < FLOOR_REQUESTS; i++) {
                long t0 = System.nanoTime();
                get(url);
                floor.add((System.nanoTime() - t0) / 1e6);
            }
            floor.sort(null);
            return new Result(stub.served(), floor.get(floor.size() / 2));
        }
    }

    /**
     * A loopback HTTP/1.1 responder answering every GET on its connections with one canned 200, head and body in one
     * write. Written out rather than the JDK's {@code HttpServer}, which writes the head and the body apart: Nagle's
     * algorithm then holds the body until the client's delayed ACK of the head, 40 ms on Linux, per request.
     */
    private static final class Stub implements AutoCloseable {
        private final ServerSocket socket;
        private final byte[] response;
        private final AtomicLong served = new AtomicLong();
        private final Thread acceptor;

        Stub(byte[] body) throws IOException {
            byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            response = new byte[head.length + body.length];
            System.arraycopy(head, 0, response, 0, head.length);
            System.arraycopy(body, 0, response, head.length, body.length);
            socket = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
            acceptor = new Thread(this::accept, "client-warmup-stub");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        long served() {
            return served.get();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try (Socket connection = socket.accept()) {
                    connection.setTcpNoDelay(true);
                    serve(connection);
                } catch (IOException e) {
                    // closed by close(), or the client dropped the connection: accept the next one
                }
            }
        }

        /** Answers requests on one connection until the client closes it. */
        private void serve(Socket connection) throws IOException {
            InputStream in = new BufferedInputStream(connection.getInputStream());
            OutputStream out = connection.getOutputStream();
            int matched = 0; // of the CR LF CR LF ending a request head
            for (int b; (b = in.read()) >= 0; ) {
                matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
                if (matched == 4) {
                    served.incrementAndGet(); // before the answer leaves: the client may count it at once
                    out.write(response);
                    out.flush();
                    matched = 0;
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static void get(String url) throws IOException {
        BlockingHttp.Response response = BlockingHttp.get(url, Duration.ofSeconds(30));
        if (response.status() != 200) {
            throw new IOException("warm-up stub answered " + response.status());
        }
        JsonNode parsed = JSON.readTree(response.body());
        if (!parsed.path("data").path("result").isArray()) {
            throw new IOException("warm-up stub answered without data.result: " + response.body());
        }
    }

    /** One stream with one line and a stats block, as Loki answers a needle. */
    static ObjectNode cannedAnswer() {
        ObjectNode root = JSON.createObjectNode().put("status", "success");
        ObjectNode data = root.putObject("data").put("resultType", "streams");
        ObjectNode stream = data.putArray("result").addObject();
        stream.putObject("stream").put("run", "warmup").put("service_name", "api").put("level", "info");
        stream.putArray("values").addArray().add("1700000000000000000")
                .add("level=info msg=\"GET /api/v1/users/42 completed\" status=200 duration_ms=12 bytes=5120");
        ObjectNode stats = data.putObject("stats");
        ObjectNode summary = stats.putObject("summary");
        for (String field : List.of("bytesProcessedPerSecond", "linesProcessedPerSecond", "totalBytesProcessed",
                "totalLinesProcessed", "execTime", "queueTime", "subqueries", "totalEntriesReturned", "splits", "shards")) {
            summary.put(field, 12345);
        }
        for (String part : List.of("querier", "ingester")) {
            ObjectNode store = stats.putObject(part).putObject("store");
            for (String field : List.of("totalChunksRef", "totalChunksDownloaded", "chunksDownloadTime",
                    "chunkRefsFetchTime", "congestionControlLatency")) {
                store.put(field, 678);
            }
            ObjectNode chunk = store.putObject("chunk");
            for (String field : List.of("headChunkBytes", "headChunkLines", "decompressedBytes", "decompressedLines",
                    "compressedBytes", "totalDuplicates", "postFilterLines")) {
                chunk.put(field, 9);
            }
        }
        return root;
    }
}
