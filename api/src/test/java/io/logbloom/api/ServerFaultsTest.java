package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults as an operator sees them, through the real server: the WAL volume running out of space
 * (a size-limited in-memory filesystem holds the WAL) and a slow object store (latency injected by
 * {@link SlowObjectStore}); every acknowledged line is accounted for.
 */
final class ServerFaultsTest {
    private static final String TENANT = "faults";

    @TempDir
    Path dataDir;

    @Test
    void walVolumeFull_pushes507_nothingAcknowledgedLost_acceptsAgainWhenSpaceReturns() throws Exception {
        Configuration quota = Configuration.unix().toBuilder().setBlockSize(4096).setMaxSize(512 * 1024).build();
        try (FileSystem fs = Jimfs.newFileSystem(quota)) {
            Path walDir = fs.getPath("/wal");
            Files.createDirectories(walDir);
            Path filler = fs.getPath("/filler");
            Files.write(filler, new byte[400 * 1024]);
            LogbloomConfig base = LogbloomConfig.parse("", Map.of()).withOverrides(0, "127.0.0.1", dataDir);
            LogbloomConfig config = new LogbloomConfig(base.server(), base.authEnabled(), base.storage(),
                    new LogbloomConfig.Wal(walDir, base.wal().fsync(), base.wal().fsyncInterval(),
                            base.wal().segmentSizeBytes()),
                    base.ingester(), base.limits(), base.bloom(), base.querier(), base.patternIngester(), base.operations());
            long ts = TestServer.nowNanos();
            List<String> acknowledged = new ArrayList<>();
            List<String> refused = new ArrayList<>();
            try (TestServer server = TestServer.start(config, UnaryOperator.identity())) {
                HttpResponse<String> full = null;
                for (int i = 0; i < 300 && full == null; i++) {
                    String line = "line-" + i + "-" + "x".repeat(2000);
                    HttpResponse<String> r = push(server, ts + i, line);
                    if (r.statusCode() == 204) {
                        acknowledged.add(line);
                    } else {
                        full = r;
                        refused.add(line);
                    }
                }
                assertThat(full).as("the WAL volume filled up").isNotNull();
                assertThat(full.statusCode()).isEqualTo(507);
                assertThat(full.body()).contains("write-ahead log volume is out of space");
                assertThat(acknowledged).isNotEmpty();
                String again = "refused-again-" + "y".repeat(4000);
                assertThat(push(server, ts + 1000, again).statusCode()).isEqualTo(507);
                refused.add(again);
                String metrics = server.get("/metrics").body();
                assertThat(metrics).contains("logbloom_ingest_wal_write_failures_total 2.0")
                        .contains("reason=\"wal_out_of_space\"");
                assertThat(server.get("/ready").statusCode()).isEqualTo(200);

                Files.delete(filler);
                String after = "after-space-returned";
                assertThat(push(server, ts + 2000, after).statusCode()).isEqualTo(204);
                acknowledged.add(after);
                assertExactlyOnce(server, ts, acknowledged, refused);
            }
            try (TestServer restarted = TestServer.start(config, UnaryOperator.identity())) {
                assertExactlyOnce(restarted, ts, acknowledged, refused);
            }
        }
    }

    @Test
    void slowObjectStore_queryTimesOut504WithLokiText_thenAnswersWhenFast() throws Exception {
        AtomicReference<SlowObjectStore> slow = new AtomicReference<>();
        LogbloomConfig config = LogbloomConfig.parse("limits: { query_timeout: 1s }", Map.of())
                .withOverrides(0, "127.0.0.1", dataDir);
        long ts = TestServer.nowNanos();
        try (TestServer server = TestServer.start(config, store -> {
            slow.set(new SlowObjectStore(store));
            return slow.get();
        })) {
            assertThat(push(server, ts, "stored before the store slowed down").statusCode()).isEqualTo(204);
            assertThat(server.flush().statusCode()).isEqualTo(204);
            slow.get().readLatencyMillis = 5_000;
            long started = System.nanoTime();
            HttpResponse<String> timedOut = query(server, ts);
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(timedOut.statusCode()).isEqualTo(504);
            assertThat(timedOut.body().strip()).isEqualTo(HttpErrors.DEADLINE_EXCEEDED);
            assertThat(elapsedMillis).as("answered at the deadline, not after the slow read").isLessThan(4_500);
            assertThat(server.get("/ready").statusCode()).isEqualTo(200);
            assertThat(server.get("/metrics").body()).contains("reason=\"timeout\"");

            slow.get().readLatencyMillis = 0;
            HttpResponse<String> fast = query(server, ts);
            assertThat(fast.statusCode()).isEqualTo(200);
            assertThat(fast.body()).contains("stored before the store slowed down");
        }
    }

    private static HttpResponse<String> push(TestServer server, long ts, String line) throws Exception {
        return server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"faults\"},\"values\":[[\"" + ts + "\",\"" + line
                + "\"]]}]}", TenantResolver.HEADER, TENANT);
    }

    private static HttpResponse<String> query(TestServer server, long ts) throws Exception {
        return server.send(server.request("/loki/api/v1/query_range?limit=5000&query="
                + URLEncoder.encode("{app=\"faults\"}", StandardCharsets.UTF_8) + "&start=" + (ts - 1) + "&end="
                + (ts + 1_000_000)).header(TenantResolver.HEADER, TENANT).GET());
    }

    private static void assertExactlyOnce(TestServer server, long ts, List<String> acknowledged, List<String> refused)
            throws Exception {
        HttpResponse<String> answer = query(server, ts);
        assertThat(answer.statusCode()).isEqualTo(200);
        String body = answer.body();
        for (String line : acknowledged) {
            assertThat(body.split("\"" + line + "\"", -1)).as("occurrences of %s", line.substring(0, 12)).hasSize(2);
        }
        for (String line : refused) {
            assertThat(body).doesNotContain(line);
        }
    }
}
