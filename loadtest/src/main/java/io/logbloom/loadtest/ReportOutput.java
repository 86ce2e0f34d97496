package io.logbloom.loadtest;

import java.util.Locale;
import java.util.Map;

/**
 * Emits a finished run's report: human summary on stderr, JSON on stdout, optional JSON and HTML
 * files, and the process exit code.
 *
 * <p>Thread-safe: stateless.
 */
final class ReportOutput {
    /** Exit code of a run that completed or was interrupted, whatever the server answered. */
    static final int OK = 0;
    /** Exit code when the run ended early because the server stopped answering or the harness failed. */
    static final int ABORTED = 1;
    /** Exit code of bad command-line input. */
    static final int USAGE = 2;
    /** Exit code when a needle query did not return exactly its line, or a count query not the push's tally. */
    static final int CHECK_FAILED = 3;

    private ReportOutput() {}

    /** Prints and writes the report; returns the exit code. */
    static int emit(Environment environment, CommonOptions options, RunReport report) {
        environment.err().print(summary(report));
        environment.out().println(report.toJson());
        if (options.report != null) {
            report.write(options.report);
            environment.err().println("report written to " + options.report);
        }
        if (options.html != null) {
            HtmlReport.write(report, options.html);
            environment.err().println("HTML report written to " + options.html);
        }
        return exitCode(report);
    }

    static int exitCode(RunReport report) {
        if (!report.stopReason().equals(RunControl.COMPLETED) && !report.stopReason().equals("interrupted")) {
            return ABORTED;
        }
        boolean checkFailed = report.operations().values().stream().anyMatch(op ->
                op.errorsByStatus().containsKey(QueryResponseCheck.MISSING)
                        || op.errorsByStatus().containsKey(QueryResponseCheck.WRONG)
                        || op.errorsByStatus().containsKey(QueryResponseCheck.COUNT_WRONG));
        return checkFailed ? CHECK_FAILED : OK;
    }

    static String summary(RunReport report) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%s run %s against %s: %.1f s, %s; client CPU %.1f s (%.2f cores)%n", report.command(), report.runId(),
                report.url(), report.durationSeconds(), report.stopReason(), report.client().cpuSeconds(),
                report.client().cpuCoresUsed()));
        for (Map.Entry<String, RunReport.OperationReport> entry : new java.util.TreeMap<>(report.operations()).entrySet()) {
            RunReport.OperationReport op = entry.getValue();
            RunReport.Latency latency = op.latencyMillis();
            String latencyText = latency.count() == 0 ? "no answered request"
                    : String.format(Locale.ROOT, "p50 %.1f p90 %.1f p99 %.1f max %.1f ms", latency.p50(), latency.p90(),
                            latency.p99(), latency.max());
            text.append(String.format(Locale.ROOT,
                    "  %-16s %8d req %8.1f req/s %,12.0f lines/s %8.2f MB/s  %s  failed %d %s%s%n",
                    entry.getKey(), op.requests(), op.requestsPerSecond(), op.linesPerSecond(), op.megabytesPerSecond(),
                    latencyText, op.failed(), op.errorsByStatus().isEmpty() ? "" : op.errorsByStatus(),
                    op.retries() == 0 ? "" : " retried " + op.retries()));
            op.errorExamples().forEach((key, detail) -> text.append("      last ").append(key).append(": ")
                    .append(detail).append(System.lineSeparator()));
        }
        return text.toString();
    }
}
