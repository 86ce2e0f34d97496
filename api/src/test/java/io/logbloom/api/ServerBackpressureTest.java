package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.FlakyObjectStore;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backpressure and the fatal path through the real HTTP server: a push flood against a small memory
 * budget gets 429s with {@code Retry-After} (never a 5xx, never an OutOfMemoryError) and every line
 * answered 204 is queryable; a failing object store (past the retry budget) or WAL directory turns
 * {@code /ready} and pushes into 503s.
 */
final class ServerBackpressureTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void pushFlood_overSmallMemoryBudget_gets429WithRetryAfter_andEvery204LineIsQueryable() throws Exception {
        String yaml = """
                ingester: { max_memory: 1MB, flush_check_period: 200ms }
                limits: { ingestion_rate_mb: 1000, ingestion_burst_size_mb: 1000 }
                """;
        try (TestServer s = TestServer.start(dir, yaml)) {
            AtomicLong acknowledgedLines = new AtomicLong();
            AtomicLong refusals = new AtomicLong();
            Map<Integer, String> unexpected = new ConcurrentHashMap<>();
            long start = TestServer.nowNanos() - Duration.ofMinutes(1).toNanos();
            // until the budget refused a few pushes: seconds on a quiet machine, the deadline bounds a starved one
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    try {
                        for (int batch = 0; System.nanoTime() < deadline && refusals.get() < 5; batch++) {
                            List<String> lines = new ArrayList<>();
                            for (int i = 0; i < 1000; i++) {
                                lines.add("worker=" + worker + " batch=" + batch + " line=" + i + " msg=\"flooding\" "
                                        + "pad=" + "z".repeat(150));
                            }
                            long ts = start + ((long) batch * 1000) * 1000;
                            HttpResponse<String> r = s.pushProtobuf(PushProto.PushRequest.newBuilder()
                                    .addStreams(TestServer.protoStream("{app=\"flood\", worker=\"" + worker + "\"}", ts,
                                            lines, Map.of("trace_id", worker + "-" + batch)))
                                    .build());
                            if (r.statusCode() == 204) {
                                acknowledgedLines.addAndGet(lines.size());
                            } else if (r.statusCode() == 429) {
                                refusals.incrementAndGet();
                                assertThat(r.headers().firstValue("Retry-After")).hasValueSatisfying(
                                        v -> assertThat(Long.parseLong(v)).isPositive());
                                assertThat(r.body()).contains("ingester.max_memory");
                                Thread.sleep(20);
                            } else {
                                unexpected.put(r.statusCode(), r.body());
                            }
                        }
                    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
                        unexpected.put(-1, e.toString());
                    }
                });
                t.start();
                workers.add(t);
            }
            for (Thread t : workers) {
                t.join();
            }

            assertThat(unexpected).isEmpty();
            assertThat(refusals.get()).isPositive();
            assertThat(acknowledgedLines.get()).isPositive();
            assertThat(s.server.ingester().failure()).isEmpty();
            assertThat(s.get("/ready").statusCode()).isEqualTo(200);
            assertThat(s.flush().statusCode()).isEqualTo(204);
            assertThat(countFlood(s)).isEqualTo(acknowledgedLines.get());
        }
    }

    private static long countFlood(TestServer s) throws IOException, InterruptedException {
        String query = URLEncoder.encode("sum(count_over_time({app=\"flood\"}[1h]))", StandardCharsets.UTF_8);
        HttpResponse<String> r = s.get("/loki/api/v1/query?query=" + query + "&time=" + (TestServer.nowNanos()
                + Duration.ofMinutes(5).toNanos()));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode result = JSON.readTree(r.body()).path("data").path("result");
        return result.isEmpty() ? 0 : Long.parseLong(result.get(0).get("value").get(1).asText());
    }

    @Test
    void objectStoreDownPastRetryBudget_readyAndPush503_thenRecover() throws Exception {
        FlakyObjectStore store = new FlakyObjectStore(new FileSystemObjectStore(dir.resolve("store")));
        LogbloomConfig config = LogbloomConfig.parse("""
                ingester: { flush_check_period: 100ms, max_chunk_age: 1m, chunk_idle_period: 1s, flush_retry_budget: 1s }
                """, Map.of()).withOverrides(0, "127.0.0.1", dir);
        LogbloomServer server = new LogbloomServer(config, Clock.systemUTC(), store);
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            assertThat(pushOne(s, "before").statusCode()).isEqualTo(204);
            store.down = true;
            assertThat(pushOne(s, "while-within-budget").statusCode()).isEqualTo(204);

            HttpResponse<String> ready = awaitReady(s, 503);
            assertThat(ready.body()).contains("object_store").contains("ingester.flush_retry_budget");
            HttpResponse<String> refused = pushOne(s, "refused");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("ingester cannot persist data").contains("until it recovers");
            assertThat(s.get("/metrics").body()).contains("logbloom_ingest_fatal{reason=\"object_store\"} 1.0");

            store.down = false;
            awaitReady(s, 200);
            assertThat(pushOne(s, "after").statusCode()).isEqualTo(204);
            assertThat(s.flush().statusCode()).isEqualTo(204);
            assertThat(s.get("/metrics").body()).contains("logbloom_ingest_fatal{reason=\"object_store\"} 0.0");
            assertThat(TestServer.stored(server, "fake", io.logbloom.index.LabelMatcher.of(
                    io.logbloom.index.LabelMatcher.MatchType.EQUAL, "app", "fatal")).values().stream()
                    .flatMap(List::stream).map(io.logbloom.chunks.LogEntry::line).sorted().toList())
                    .containsExactly("after", "before", "while-within-budget");
        }
    }

    @Test
    void walDirectoryFailingWrites_pushAndReady503_untilRestart() throws Exception {
        Path wal = dir.resolve("wal");
        try (TestServer s = TestServer.start(dir, "wal: { segment_size: 64KB }")) {
            assertThat(pushOne(s, "before").statusCode()).isEqualTo(204);
            Files.move(wal, dir.resolve("wal-gone"));
            Files.writeString(wal, "a file where the WAL directory was");
            HttpResponse<String> big = s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"fatal\"},\"values\":[[\""
                    + TestServer.nowNanos() + "\",\"" + "w".repeat(100_000) + "\"]]}]}");
            assertThat(big.statusCode()).isEqualTo(503);
            assertThat(big.body()).contains("wal").contains("until restarted");
            assertThat(pushOne(s, "later").statusCode()).isEqualTo(503);
            HttpResponse<String> ready = s.get("/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("write-ahead log write").doesNotContain(dir.toString());
            assertThat(s.get("/metrics").body()).contains("logbloom_ingest_fatal{reason=\"wal\"} 1.0");
        }
    }

    private static HttpResponse<String> pushOne(TestServer s, String line) throws IOException, InterruptedException {
        return s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"fatal\"},\"values\":[[\"" + TestServer.nowNanos()
                + "\",\"" + line + "\"]]}]}");
    }

    private static HttpResponse<String> awaitReady(TestServer s, int status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        HttpResponse<String> r = s.get("/ready");
        while (r.statusCode() != status && System.nanoTime() < deadline) {
            Thread.sleep(50);
            r = s.get("/ready");
        }
        assertThat(r.statusCode()).as("/ready: %s", r.body()).isEqualTo(status);
        return r;
    }
}
