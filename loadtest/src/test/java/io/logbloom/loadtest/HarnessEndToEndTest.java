package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real commands for a few seconds against {@link LokiTestDouble} on loopback. */
final class HarnessEndToEndTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ObjectMapper json = new ObjectMapper();

    private int run(String... args) {
        out.reset();
        err.reset();
        Environment environment = new Environment(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC(), false, false);
        return Main.run(environment, args);
    }

    @Test
    void pushThenQuery_findsEveryNeedleAndWritesReports(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(0)) {
            Path manifest = dir.resolve("manifest.json");
            Path pushReport = dir.resolve("push.json");
            int pushExit = run("push", "--url", server.url(), "--duration", "2s", "--rate", "5000", "--batch-size", "250",
                    "--streams", "12", "--connections", "3", "--tenant", "team-a", "--run-id", "e2e-1",
                    "--manifest", manifest.toString(), "--report", pushReport.toString(), "--encoding", "json-gzip");
            assertThat(pushExit).as(err.toString()).isZero();
            JsonNode push = json.readTree(pushReport.toFile());
            assertThat(json.readTree(out.toString(StandardCharsets.UTF_8))).isEqualTo(push);
            JsonNode op = push.path("operations").path("push");
            assertThat(op.path("failed").asLong()).isZero();
            assertThat(op.path("lines").asLong()).isEqualTo(server.storedLines()).isBetween(4_000L, 16_000L);
            assertThat(server.tenants()).containsOnlyKeys("team-a");
            assertThat(Manifest.read(manifest).needles()).isNotEmpty();
            assertThat(Manifest.read(manifest).runId()).isEqualTo("e2e-1");

            Path queryReport = dir.resolve("query.json");
            Path html = dir.resolve("query.html");
            int queryExit = run("query", "--url", server.url(), "--duration", "2s", "--connections", "2",
                    "--tenant", "team-a", "--manifest", manifest.toString(), "--report", queryReport.toString(),
                    "--html", html.toString());
            assertThat(queryExit).as(err.toString()).isZero();
            JsonNode query = json.readTree(queryReport.toFile());
            JsonNode needle = query.path("operations").path(QueryMix.NEEDLE);
            assertThat(needle.path("checks").path("found").asLong()).isPositive()
                    .isEqualTo(needle.path("succeeded").asLong());
            assertThat(needle.path("errorsByStatus").size()).isZero();
            assertThat(query.path("operations").fieldNames()).toIterable()
                    .contains(QueryMix.NEEDLE, QueryMix.SUBSTRING, QueryMix.LABELS, QueryMix.RATE, QueryMix.QUANTILE);
            for (String kind : new String[] {QueryMix.RATE, QueryMix.QUANTILE, QueryMix.SUBSTRING, QueryMix.LABELS}) {
                assertThat(query.path("operations").path(kind).path("failed").asLong()).as(kind).isZero();
            }
            assertThat(Files.readString(html)).contains("<svg", "report-data", "\"query_needle\"");
        }
    }

    @Test
    void push_lines_stopsAfterExactlyThatManyLines(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(0)) {
            int exit = run("push", "--url", server.url(), "--duration", "30s", "--lines", "3000", "--batch-size", "250",
                    "--streams", "6", "--connections", "3", "--manifest", dir.resolve("m.json").toString());
            assertThat(exit).as(err.toString()).isZero();
            JsonNode op = json.readTree(out.toString(StandardCharsets.UTF_8)).path("operations").path("push");
            assertThat(op.path("lines").asLong()).isEqualTo(3000L);
            assertThat(server.storedLines()).isEqualTo(3000L);
        }
    }

    @Test
    void mixed_protobuf_pushesAndFindsFreshNeedles(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(0)) {
            int exit = run("mixed", "--url", server.url(), "--duration", "2s", "--rate", "4000", "--batch-size", "200",
                    "--streams", "8", "--connections", "2", "--query-connections", "1", "--manifest",
                    dir.resolve("m.json").toString());
            assertThat(exit).as(err.toString()).isZero();
            JsonNode report = json.readTree(out.toString(StandardCharsets.UTF_8));
            assertThat(report.path("command").asText()).isEqualTo("mixed");
            assertThat(report.path("operations").path("push").path("lines").asLong()).isPositive();
            assertThat(report.path("operations").path(QueryMix.NEEDLE).path("checks").path("found").asLong()).isPositive();
            assertThat(report.path("operations").path(QueryMix.NEEDLE).path("failed").asLong()).isZero();
        }
    }

    @Test
    void push_serverRefusingSomeRequests_countsStatusesAndKeepsGoing(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(4)) {
            int exit = run("push", "--url", server.url(), "--duration", "1500ms", "--rate", "4000", "--batch-size", "100",
                    "--streams", "4", "--connections", "2", "--manifest", dir.resolve("m.json").toString());
            assertThat(exit).isZero();
            JsonNode op = json.readTree(out.toString(StandardCharsets.UTF_8)).path("operations").path("push");
            assertThat(op.path("errorsByStatus").path("429").asLong()).isPositive();
            assertThat(op.path("succeeded").asLong()).isPositive();
            assertThat(op.path("errorExamples").path("429").asText()).contains("rate limit");
            assertThat(err.toString()).contains("{429=");
        }
    }

    @Test
    void push_retry429_serverAnswers429Then204_everyLineStoredAndRetriesCounted(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(4)) {
            // Retry-After: 1 is capped by --max-backoff, so the run stays short
            int exit = run("push", "--url", server.url(), "--duration", "30s", "--lines", "2000", "--batch-size", "100",
                    "--streams", "4", "--connections", "2", "--retry-429", "--min-backoff", "10ms", "--max-backoff", "50ms", "--manifest",
                    dir.resolve("m.json").toString());
            assertThat(exit).as(err.toString()).isZero();
            JsonNode op = json.readTree(out.toString(StandardCharsets.UTF_8)).path("operations").path("push");
            assertThat(op.path("failed").asLong()).isZero();
            assertThat(op.path("succeeded").asLong()).isEqualTo(20);
            assertThat(op.path("retries").asLong()).isEqualTo(server.refusedPushes()).isPositive();
            assertThat(op.path("lines").asLong()).isEqualTo(2000L);
            assertThat(server.storedLines()).isEqualTo(2000);
            assertThat(err.toString()).contains("retried ");
        }
    }

    @Test
    void push_serverGone_endsWithClearMessage(@TempDir Path dir) throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        long start = System.nanoTime();
        int exit = run("push", "--url", "http://127.0.0.1:" + port, "--duration", "30s", "--give-up-after", "1s",
                "--batch-size", "50", "--streams", "2", "--connections", "1", "--manifest", dir.resolve("m.json").toString());
        assertThat(exit).isEqualTo(ReportOutput.ABORTED);
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(15);
        JsonNode report = json.readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(report.path("stopReason").asText()).startsWith("server at http://127.0.0.1:" + port + " stopped answering")
                .contains("connection_refused");
        assertThat(report.path("operations").path("push").path("errorsByStatus").path("connection_refused").asLong()).isPositive();
        assertThat(err.toString()).contains("manifest").contains("not written");
    }

    @Test
    void query_withoutManifest_explainsWhatToDo(@TempDir Path dir) {
        int exit = run("query", "--manifest", dir.resolve("missing.json").toString());
        assertThat(exit).isEqualTo(ReportOutput.USAGE);
        assertThat(err.toString()).contains("missing.json does not exist: run 'push' first");
    }

    @Test
    void help_listsSubcommandsAndOptions() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("push", "query", "mixed", "--compare");
        assertThat(run("push", "--help")).isZero();
        assertThat(out.toString()).contains("--url", "--tenant", "--duration", "--rate", "--connections", "--batch-size",
                "--streams", "--encoding", "--seed", "--report", "--html", "--run-id");
        assertThat(run("query", "--help")).isZero();
        assertThat(run("mixed", "--help")).isZero();
        assertThat(out.toString()).contains("--query-rate");
    }

    @Test
    void push_pregenerate_sendsExactlyTheLinesGeneratedBeforeTheTimedPhase(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(0)) {
            int exit = run("push", "--url", server.url(), "--duration", "30s", "--lines", "3000", "--batch-size", "250",
                    "--streams", "6", "--connections", "3", "--pregenerate", "--line-length", "85", "--manifest",
                    dir.resolve("m.json").toString());
            assertThat(exit).as(err.toString()).isZero();
            JsonNode report = json.readTree(out.toString(StandardCharsets.UTF_8));
            JsonNode op = report.path("operations").path("push");
            assertThat(op.path("lines").asLong()).isEqualTo(3000L);
            assertThat(server.storedLines()).isEqualTo(3000L);
            assertThat(report.path("settings").path("pregenerate").asBoolean()).isTrue();
            // the shape: a median of 85 gives ~143 bytes a line
            assertThat(op.path("bytes").asDouble() / 3000).isBetween(120.0, 170.0);
        }
    }

    @Test
    void push_pregenerate_sameSeedPushesTheSameLinesEveryRun(@TempDir Path dir) throws Exception {
        // 10 batches over 3 lanes (4 + 3 + 3): lanes racing for a shared bound would store a different 10 each run
        List<List<String>> runs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            try (LokiTestDouble server = new LokiTestDouble(0)) {
                int exit = run("push", "--url", server.url(), "--duration", "30s", "--lines", "2500", "--batch-size",
                        "250", "--streams", "6", "--connections", "3", "--producers", "3", "--pregenerate",
                        "--run-id", "same", "--manifest", dir.resolve("m" + run + ".json").toString());
                assertThat(exit).as(err.toString()).isZero();
                assertThat(server.storedLines()).isEqualTo(2500);
                runs.add(server.stored().stream()
                        .map(s -> s.labels() + " " + s.entry().line() + " " + s.entry().structuredMetadata())
                        .sorted().toList());
            }
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
        assertThat(runs.get(2)).isEqualTo(runs.get(0));
    }

    @Test
    void push_countLinesContaining_manifestHoldsTheAcknowledgedLinesWithEachText(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(4)) { // every 4th push refused with 429: not counted
            Path manifest = dir.resolve("m.json");
            int exit = run("push", "--url", server.url(), "--duration", "30s", "--lines", "3000", "--batch-size", "100",
                    "--streams", "6", "--connections", "2", "--count-lines-containing", "status=200",
                    "--count-lines-containing", "retrying", "--count-lines-containing", "no line has this",
                    "--manifest", manifest.toString());
            assertThat(exit).as(err.toString()).isZero();
            assertThat(server.refusedPushes()).isPositive();
            List<String> lines = server.stored().stream().map(s -> s.entry().line()).toList();
            long status200 = lines.stream().filter(l -> l.contains("status=200")).count();
            long retrying = lines.stream().filter(l -> l.contains("retrying")).count();
            assertThat(status200).isPositive();
            assertThat(retrying).isPositive();
            assertThat(Manifest.read(manifest).linesContaining()).containsExactly(Map.entry("status=200", status200),
                    Map.entry("retrying", retrying), Map.entry("no line has this", 0L));
            JsonNode settings = json.readTree(out.toString(StandardCharsets.UTF_8)).path("settings");
            assertThat(settings.path("countLinesContaining").size()).isEqualTo(3);

            out.reset();
            assertThat(run("query", "--url", server.url(), "--duration", "1s", "--connections", "1", "--query-kinds",
                    "count", "--manifest", manifest.toString())).as(err.toString()).isZero();
            JsonNode count = json.readTree(out.toString(StandardCharsets.UTF_8)).path("operations").path(QueryMix.COUNT);
            assertThat(count.path("checks").path(QueryResponseCheck.COUNT_RIGHT).asLong()).as(count.toString())
                    .isPositive().isEqualTo(count.path("requests").asLong());

            server.forgetFirstLineContaining("status=200"); // the server loses a line: its text's counts must fail the run
            out.reset();
            assertThat(run("query", "--url", server.url(), "--duration", "1s", "--connections", "1", "--query-kinds",
                    "count", "--manifest", manifest.toString())).isEqualTo(ReportOutput.CHECK_FAILED);
            count = json.readTree(out.toString(StandardCharsets.UTF_8)).path("operations").path(QueryMix.COUNT);
            assertThat(count.path("checks").path(QueryResponseCheck.COUNT_WRONG).asLong()).as(count.toString()).isPositive();
        }
    }

    @Test
    void query_countWithAManifestWithoutTallies_refused(@TempDir Path dir) throws Exception {
        try (LokiTestDouble server = new LokiTestDouble(0)) {
            Path manifest = dir.resolve("m.json");
            assertThat(run("push", "--url", server.url(), "--duration", "30s", "--lines", "200", "--batch-size", "100",
                    "--manifest", manifest.toString())).as(err.toString()).isZero();
            assertThat(run("query", "--url", server.url(), "--duration", "1s", "--query-kinds", "needle,count",
                    "--manifest", manifest.toString())).isEqualTo(ReportOutput.USAGE);
            assertThat(err.toString()).contains("--count-lines-containing");
        }
    }

    @Test
    void push_countLinesContainingEmptyText_refused() {
        assertThat(run("push", "--count-lines-containing", "")).isNotZero();
        assertThat(err.toString()).contains("--count-lines-containing");
    }

    @Test
    void push_pregenerateWithoutLines_refusedNamingWhatIsMissing() {
        assertThat(run("push", "--pregenerate")).isNotZero();
        assertThat(err.toString()).contains("pregenerate").contains("--lines");
    }

    @Test
    void badOption_rejectedNamingTheValue() {
        assertThat(run("push", "--duration", "soon")).isEqualTo(ReportOutput.USAGE);
        assertThat(err.toString()).contains("'soon'");
        assertThat(run("push", "--encoding", "xml")).isEqualTo(ReportOutput.USAGE);
        assertThat(err.toString()).contains("'xml'");
    }
}
