package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Side-by-side table of two reports with the ratio B/A per figure, to compare two servers (for
 * example Logbloom and Loki) or two versions under the same load.
 *
 * <p>Thread-safe: stateless.
 */
final class ReportComparison {
    private ReportComparison() {}

    /** Returns the comparison table as text. */
    static String table(RunReport a, String nameA, RunReport b, String nameB) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"operation", "figure", nameA, nameB, "B/A"});
        Set<String> operations = new TreeSet<>(a.operations().keySet());
        operations.addAll(b.operations().keySet());
        for (String operation : operations) {
            RunReport.OperationReport left = a.operations().get(operation);
            RunReport.OperationReport right = b.operations().get(operation);
            row(rows, operation, "lines/s", left, right, RunReport.OperationReport::linesPerSecond);
            row(rows, operation, "MB/s", left, right, RunReport.OperationReport::megabytesPerSecond);
            row(rows, operation, "requests/s", left, right, RunReport.OperationReport::requestsPerSecond);
            row(rows, operation, "p50 ms", left, right, op -> op.latencyMillis().p50());
            row(rows, operation, "p90 ms", left, right, op -> op.latencyMillis().p90());
            row(rows, operation, "p99 ms", left, right, op -> op.latencyMillis().p99());
            row(rows, operation, "max ms", left, right, op -> op.latencyMillis().max());
            row(rows, operation, "failed", left, right, RunReport.OperationReport::failed);
        }
        rows.add(new String[] {"client", "cpu cores", number(a.client().cpuCoresUsed()), number(b.client().cpuCoresUsed()),
                ratio(a.client().cpuCoresUsed(), b.client().cpuCoresUsed())});
        int[] widths = new int[5];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            text.append(String.format(Locale.ROOT, "%-" + widths[0] + "s  %-" + widths[1] + "s  %" + widths[2] + "s  %"
                    + widths[3] + "s  %" + widths[4] + "s%n", (Object[]) row));
        }
        return text.toString();
    }

    private static void row(List<String[]> rows, String operation, String figure, RunReport.OperationReport left,
            RunReport.OperationReport right, ToDoubleFunction<RunReport.OperationReport> value) {
        String a = left == null ? "-" : number(value.applyAsDouble(left));
        String b = right == null ? "-" : number(value.applyAsDouble(right));
        String ratio = left == null || right == null ? "-" : ratio(value.applyAsDouble(left), value.applyAsDouble(right));
        rows.add(new String[] {operation, figure, a, b, ratio});
    }

    private static String ratio(double a, double b) {
        if (a == 0) {
            return b == 0 ? "1.00" : "inf";
        }
        return String.format(Locale.ROOT, "%.2f", b / a);
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? String.format(Locale.ROOT, "%,d", (long) value) : String.format(Locale.ROOT, "%,.2f", value);
    }
}
