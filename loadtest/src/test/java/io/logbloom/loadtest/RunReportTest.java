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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RunReportTest {
    private static RunReport report(double pushLatencyMillis, long lines) {
        RunStats stats = new RunStats(0);
        OperationStats push = stats.operation(PushRunner.OPERATION);
        for (int i = 1; i <= 100; i++) {
            push.recordSuccess((long) (pushLatencyMillis * 1e6 * i / 50), (int) (lines / 100), lines * 150 / 100, 20_000);
        }
        push.recordFailure("429", "ingestion rate limit exceeded", 1_000_000, 20_000);
        push.recordFailure("connection_refused", "cannot connect", -1, 0);
        stats.sample(1_000_000_000L);
        OperationStats needle = stats.operation(QueryMix.NEEDLE);
        needle.recordSuccess(3_000_000, 1, 200, 0);
        needle.recordCheck(QueryResponseCheck.FOUND);
        stats.sample(2_000_000_000L);
        return ReportBuilder.build("mixed", "r-1", "http://127.0.0.1:3100", "2026-01-01T00:00:00Z", 2.0,
                RunControl.COMPLETED, Map.of("seed", 42), stats, new RunReport.ClientReport(1.5, 0.75, 2, 1.0, 0.01));
    }

    @Test
    void json_hasThroughputLatencyErrorsBytesAndClientCpu() throws Exception {
        JsonNode root = new ObjectMapper().readTree(report(10, 100_000).toJson());
        assertThat(root.fieldNames()).toIterable().contains("tool", "command", "runId", "url", "startedAt",
                "durationSeconds", "stopReason", "settings", "operations", "client", "timeline");
        JsonNode push = root.path("operations").path("push");
        assertThat(push.path("requests").asLong()).isEqualTo(102);
        assertThat(push.path("succeeded").asLong()).isEqualTo(100);
        assertThat(push.path("errorsByStatus").path("429").asLong()).isEqualTo(1);
        assertThat(push.path("errorsByStatus").path("connection_refused").asLong()).isEqualTo(1);
        assertThat(push.path("lines").asLong()).isEqualTo(100_000);
        assertThat(push.path("linesPerSecond").asDouble()).isEqualTo(50_000);
        assertThat(push.path("megabytesPerSecond").asDouble()).isEqualTo(7.5);
        assertThat(push.path("bytesSent").asLong()).isEqualTo(101 * 20_000);
        JsonNode latency = push.path("latencyMillis");
        assertThat(latency.path("p50").asDouble()).isBetween(9.9, 10.1);
        assertThat(latency.path("p90").asDouble()).isBetween(17.9, 18.1);
        assertThat(latency.path("p99").asDouble()).isBetween(19.7, 19.9);
        assertThat(latency.path("max").asDouble()).isBetween(19.9, 20.1);
        assertThat(latency.path("count").asLong()).isEqualTo(101);
        assertThat(push.path("latencyHistogram").size()).isPositive();
        assertThat(root.path("operations").path("query_needle").path("checks").path("found").asLong()).isEqualTo(1);
        assertThat(root.path("client").path("cpuSeconds").asDouble()).isEqualTo(1.5);
        assertThat(root.path("timeline").size()).isEqualTo(3);
    }

    @Test
    void writeThenRead_roundTrips(@TempDir Path dir) {
        RunReport report = report(5, 1_000);
        report.write(dir.resolve("r.json"));
        assertThat(RunReport.read(dir.resolve("r.json"))).isEqualTo(report);
    }

    @Test
    void html_isSelfContainedAndEmbedsThePlotData() {
        RunReport report = report(10, 100_000);
        String html = HtmlReport.render(report);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg id=\"throughput\"", "<svg id=\"latency\"",
                "<svg id=\"histogram-push\"", "<polyline", "<rect", "id=\"report-data\"", "\"linesPerSecond\" : 100000.0");
        assertThat(html).doesNotContain("src=\"http", "href=\"http", "<script src");
        String embedded = html.substring(html.indexOf("id=\"report-data\">") + 17, html.lastIndexOf("</script>"));
        assertThat(embedded.replace("\\u003c", "<")).isEqualToIgnoringWhitespace(report.toJson());
    }

    @Test
    void compare_printsSideBySideRatios(@TempDir Path dir) {
        report(10, 100_000).write(dir.resolve("a.json"));
        report(20, 50_000).write(dir.resolve("b.json"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Environment environment = new Environment(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Clock.systemUTC(), false, false);
        int exit = Main.run(environment, "--compare", dir.resolve("a.json").toString(), dir.resolve("b.json").toString());
        assertThat(exit).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines.get(0)).contains("operation", "A a.json", "B b.json", "B/A");
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("push", "lines/s", "50,000", "25,000", "0.50"));
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("push", "p50 ms").endsWith("2.00"));
    }

    @Test
    void exitCode_flagsAbortsAndNeedleFailures() {
        assertThat(ReportOutput.exitCode(report(1, 100))).isEqualTo(ReportOutput.OK);
        RunStats stats = new RunStats(0);
        stats.operation(QueryMix.NEEDLE).recordFailure(QueryResponseCheck.MISSING, "no line", 1_000, 0);
        stats.sample(1);
        RunReport.ClientReport client = new RunReport.ClientReport(0, 0, 1, 0, 0);
        assertThat(ReportOutput.exitCode(ReportBuilder.build("query", "r", "u", "t", 1, RunControl.COMPLETED, Map.of(),
                stats, client))).isEqualTo(ReportOutput.CHECK_FAILED);
        assertThat(ReportOutput.exitCode(ReportBuilder.build("query", "r", "u", "t", 1, "server at u stopped answering",
                Map.of(), stats, client))).isEqualTo(ReportOutput.ABORTED);
    }

    @Test
    void progress_plainLinesWhenNotATerminal_overwriteOnATerminal() {
        RunStats stats = new RunStats(0);
        stats.operation(PushRunner.OPERATION).recordSuccess(2_000_000, 1_000, 100_000, 10_000);
        List<TimelinePoint> points = stats.sample(1_000_000_000L);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ProgressPrinter printer = new ProgressPrinter(new PrintStream(plain, true, StandardCharsets.UTF_8), false, 5);
        printer.update(1, 30, points, stats);
        printer.update(2, 30, points, stats);
        printer.update(6, 30, points, stats);
        assertThat(plain.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(2)
                .allSatisfy(line -> assertThat(line).doesNotContain("\r").contains("push 1,000 lines/s", "p99 2.0ms", "ETA"));
        ByteArrayOutputStream tty = new ByteArrayOutputStream();
        ProgressPrinter terminal = new ProgressPrinter(new PrintStream(tty, true, StandardCharsets.UTF_8), true, 5);
        terminal.update(1, 30, points, stats);
        terminal.update(2, 30, points, stats);
        terminal.finish();
        assertThat(tty.toString(StandardCharsets.UTF_8)).startsWith("\r[").contains("\u001B[K\r[").endsWith(System.lineSeparator());
    }

    @Test
    void htmlWrite_createsTheFile(@TempDir Path dir) throws Exception {
        HtmlReport.write(report(1, 100), dir.resolve("x.html"));
        assertThat(Files.readString(dir.resolve("x.html"))).contains("Logbloom load test: mixed run r-1");
    }
}
