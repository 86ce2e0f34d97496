package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query that read the ingester's local parts hands them back when it ends: once a flush merged them, their files
 * go within the merge loop's next rounds, not after the two minutes' grace kept for a reader that never does.
 */
final class ServerPartPinsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private List<Path> partFiles() throws Exception {
        Path parts = dir.resolve("data").resolve("wal").resolve("parts");
        if (!Files.isDirectory(parts)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(parts)) {
            return files.filter(f -> f.toString().endsWith(".lbp")).toList();
        }
    }

    private static boolean await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Test
    void queriedParts_mergedByAFlush_areDeletedOnceTheQueryEnded() throws Exception {
        LogbloomConfig config = LogbloomConfig.parse("""
                ingester:
                  seal_interval: 50ms
                  flush_check_period: 20ms
                """, Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        Clock clock = Clock.systemUTC();
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            long ts = clock.millis() * 1_000_000L - 60_000_000_000L;
            assertThat(s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[[\"" + ts
                    + "\",\"GET /a status=200\"],[\"" + (ts + 1) + "\",\"GET /b status=500\"]]}]}").statusCode())
                    .isEqualTo(204);
            assertThat(await(() -> {
                try {
                    return !partFiles().isEmpty();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            })).as("a part sealed").isTrue();
            List<Path> parts = partFiles();

            // the query reads the rows from the part (not flushed yet), then ends
            HttpResponse<String> r = s.send(s.request("/loki/api/v1/query_range?query="
                    + URLEncoder.encode("{app=\"web\"} |= \"status=500\"", StandardCharsets.UTF_8) + "&start="
                    + (ts - 1) + "&end=" + (ts + 10) + "&limit=100").header("X-Scope-OrgID", "fake").GET());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode result = JSON.readTree(r.body()).path("data").path("result");
            assertThat(result.toString()).contains("GET /b status=500").doesNotContain("GET /a");

            assertThat(s.flush().statusCode()).isEqualTo(204);
            assertThat(await(() -> parts.stream().noneMatch(Files::exists)))
                    .as("merged parts deleted once no query holds them").isTrue();
        }
    }
}
