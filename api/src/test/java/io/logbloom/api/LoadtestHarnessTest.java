package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load-test harness, run as users run it (its own JVM, {@code io.logbloom.loadtest.Main}),
 * against the real server: a few seconds of {@code push}, a flush, then {@code query}; every needle
 * must come back as exactly its line, every count as the push's tally, and no query kind may fail.
 */
final class LoadtestHarnessTest {
    private static final String CONFIG =
            "limits: { ingestion_rate_mb: 1000, ingestion_burst_size_mb: 2000, max_global_streams_per_user: 100000 }\n"
                    + "ingester: { chunk_target_size: 64KB, chunk_block_size: 16KB }\n";
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void pushFlushQuery_againstRealServer_everyNeedleFound(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.start(dir.resolve("data"), CONFIG)) {
            String url = server.base.toString().replaceAll("/$", "");
            Path manifest = dir.resolve("manifest.json");
            Path pushReport = dir.resolve("push.json");
            Path pushLog = dir.resolve("push.log");
            int pushExit = harness(pushLog, "push", "--url", url, "--duration", "3s", "--rate", "6000",
                    "--streams", "20", "--connections", "2", "--batch-size", "500", "--tenant", "harness",
                    "--count-lines-containing", "status=500", "--count-lines-containing", "retrying",
                    "--manifest", manifest.toString(), "--report", pushReport.toString());
            assertThat(pushExit).as(Files.readString(pushLog)).isZero();
            JsonNode push = json.readTree(pushReport.toFile()).path("operations").path("push");
            assertThat(push.path("failed").asLong()).as(push.toString()).isZero();
            assertThat(push.path("lines").asLong()).isPositive();
            assertThat(server.flush().statusCode()).isEqualTo(204);

            Path queryReport = dir.resolve("query.json");
            Path queryLog = dir.resolve("query.log");
            int queryExit = harness(queryLog, "query", "--url", url, "--duration", "3s", "--connections", "2",
                    "--tenant", "harness", "--timeout", "30s", "--manifest", manifest.toString(),
                    "--query-kinds", "needle,substring,labels,rate,quantile,count", "--report", queryReport.toString());
            assertThat(queryExit).as(Files.readString(queryLog)).isZero();
            JsonNode operations = json.readTree(queryReport.toFile()).path("operations");
            JsonNode needle = operations.path("query_needle");
            assertThat(needle.path("checks").path("found").asLong()).as(needle.toString()).isPositive()
                    .isEqualTo(needle.path("succeeded").asLong());
            JsonNode count = operations.path("query_count");
            assertThat(count.path("checks").path("count_right").asLong()).as(count.toString()).isPositive()
                    .isEqualTo(count.path("succeeded").asLong());
            operations.fields().forEachRemaining(op ->
                    assertThat(op.getValue().path("failed").asLong()).as(op.getKey() + ": " + op.getValue()).isZero());
        }
    }

    @Test
    void jsonGzipPush_againstRealServer_accepted(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.start(dir.resolve("data"), CONFIG)) {
            String url = server.base.toString().replaceAll("/$", "");
            Path report = dir.resolve("push.json");
            Path log = dir.resolve("push.log");
            int exit = harness(log, "push", "--url", url, "--duration", "2s", "--rate", "3000", "--streams", "5",
                    "--connections", "1", "--batch-size", "200", "--encoding", "json-gzip",
                    "--manifest", dir.resolve("m.json").toString(), "--report", report.toString());
            assertThat(exit).as(Files.readString(log)).isZero();
            JsonNode push = json.readTree(report.toFile()).path("operations").path("push");
            assertThat(push.path("failed").asLong()).isZero();
            assertThat(server.get("/metrics").body()).contains("logbloom_ingest_lines_total");
        }
    }

    /** Runs the harness in a child JVM on this test's classpath; returns its exit code. */
    private static int harness(Path log, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "io.logbloom.loadtest.Main"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("harness did not finish in 120 s:\n" + Files.readString(log));
        }
        return process.exitValue();
    }
}
