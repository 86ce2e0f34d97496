package io.logbloom.bench;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Deterministic, realistic log lines for chunk benchmarks: a service's mix of logfmt (40%), JSON
 * (35%) and plain access/stack-trace style text (25%), with 128-bit trace ids, span ids, durations,
 * HTTP paths and status codes, a line every ~1 ms; a third of the entries carry structured metadata
 * ({@code trace_id}, {@code pod}). Repeated keys and paths but random ids give compression ratios in
 * the range real logs show (ids are the incompressible part). Not thread-safe: one generator per
 * thread.
 */
public final class ChunkLogGenerator {
    private static final String[] LEVELS = {"info", "info", "info", "info", "debug", "warn", "error"};
    private static final String[] PATHS = {"/api/v1/push", "/api/v1/query_range", "/api/v1/labels", "/ready",
        "/api/v2/orders/{id}", "/api/v2/users/{id}/profile", "/metrics", "/loki/api/v1/tail"};
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
    private static final int[] STATUS = {200, 200, 200, 200, 201, 204, 400, 404, 429, 500, 503};
    private static final String[] MESSAGES = {"request completed", "cache miss, fetching from store",
        "flushing chunk", "connection reset by peer", "retrying after backoff", "user logged in",
        "payment authorised", "slow query detected", "ring member joined", "compaction finished"};
    private static final String[] PODS = {"api-7d9f8b-x2k4p", "api-7d9f8b-q9z1m", "worker-5c6d7-h8j2k",
        "worker-5c6d7-a1b2c", "gateway-66f-llm3n"};

    private final Random random;
    private long timestampNanos;

    /** A generator seeded with {@code seed}, starting at {@code startNanos}. */
    public ChunkLogGenerator(long seed, long startNanos) {
        this.random = new Random(seed);
        this.timestampNanos = startNanos;
    }

    /** {@code count} entries of one stream, in time order. */
    public static List<LogEntry> entries(long seed, int count) {
        ChunkLogGenerator generator = new ChunkLogGenerator(seed, 1_700_000_000_000_000_000L);
        List<LogEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(generator.next());
        }
        return entries;
    }

    /** The next entry. */
    public LogEntry next() {
        timestampNanos += 1 + random.nextInt(2_000_000);
        String traceId = hex(random.nextLong()) + hex(random.nextLong());
        String spanId = hex(random.nextLong());
        String level = pick(LEVELS);
        String method = pick(METHODS);
        String path = pick(PATHS).replace("{id}", Integer.toString(random.nextInt(100_000)));
        int status = STATUS[random.nextInt(STATUS.length)];
        double durationMs = Math.abs(random.nextGaussian() * 40 + 25);
        String message = pick(MESSAGES);
        int kind = random.nextInt(100);
        String line;
        if (kind < 40) {
            line = String.format(Locale.ROOT,
                    "ts=%d level=%s caller=handler.go:%d msg=\"%s\" method=%s path=%s status=%d duration=%.3fms"
                            + " trace_id=%s span_id=%s bytes=%d",
                    timestampNanos / 1_000_000, level, 40 + random.nextInt(400), message, method, path, status,
                    durationMs, traceId, spanId, random.nextInt(65_536));
        } else if (kind < 75) {
            line = String.format(Locale.ROOT,
                    "{\"ts\":%d,\"level\":\"%s\",\"logger\":\"com.example.%s\",\"msg\":\"%s\",\"http\":{\"method\":\"%s\","
                            + "\"path\":\"%s\",\"status\":%d},\"duration_ms\":%.2f,\"trace_id\":\"%s\",\"user_id\":%d}",
                    timestampNanos / 1_000_000, level, pick(new String[] {"OrderService", "UserService", "Gateway"}),
                    message, method, path, status, durationMs, traceId, random.nextInt(1_000_000));
        } else if (kind < 95) {
            line = String.format(Locale.ROOT, "10.%d.%d.%d - - [22/Nov/2026:00:%02d:%02d +0000] \"%s %s HTTP/1.1\" %d %d"
                            + " \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\" rt=%.3f trace=%s",
                    random.nextInt(256), random.nextInt(256), random.nextInt(256), random.nextInt(60),
                    random.nextInt(60), method, path, status, random.nextInt(20_000), durationMs / 1000, traceId);
        } else {
            line = "java.lang.IllegalStateException: " + message + " (trace " + traceId + ")\n"
                    + "\tat com.example.OrderService.place(OrderService.java:" + (100 + random.nextInt(50)) + ")\n"
                    + "\tat com.example.Gateway.handle(Gateway.java:" + (30 + random.nextInt(20)) + ")";
        }
        List<Label> metadata = random.nextInt(3) == 0
                ? List.of(new Label("trace_id", traceId), new Label("pod", pick(PODS)))
                : List.of();
        return new LogEntry(timestampNanos, line, metadata);
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String hex(long value) {
        String s = Long.toHexString(value);
        return "0".repeat(16 - s.length()) + s;
    }
}
