package io.logbloom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warms the measuring JVM's own HTTP path before a report times a server's answers: serves a Loki-shaped query answer
 * from a stub HTTP server inside this JVM (loopback, a free port) and GETs it {@code requests} times exactly as the
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
        AtomicLong served = new AtomicLong();
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                exchange.getResponseBody().write(answer);
                served.incrementAndGet();
            }
        });
        stub.start();
        try {
            String url = "http://127.0.0.1:" + stub.getAddress().getPort()
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
            return new Result(served.get(), floor.get(floor.size() / 2));
        } finally {
            stub.stop(0);
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
