package io.logbloom.loadtest;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Live progress of a run: one self-overwriting status line on a terminal, or a plain line every
 * few seconds when the output is not a terminal (CI logs, pipes, files).
 *
 * <p>Thread-safe: only the run's ticker thread calls {@link #update}; {@link #finish} is called
 * after the ticker stopped; both are synchronized on this object, which guards {@code lastPlainPrint}.
 */
final class ProgressPrinter {
    private final PrintStream out;
    private final boolean interactive;
    private final double plainIntervalSeconds;
    private double lastPlainPrint = Double.NEGATIVE_INFINITY;
    private boolean printedInteractive;

    ProgressPrinter(PrintStream out, boolean interactive, double plainIntervalSeconds) {
        this.out = out;
        this.interactive = interactive;
        this.plainIntervalSeconds = plainIntervalSeconds;
    }

    /** Prints the progress after a tick. */
    synchronized void update(double elapsedSeconds, double plannedSeconds, List<TimelinePoint> points, RunStats stats) {
        String line = format(elapsedSeconds, plannedSeconds, points, stats);
        if (interactive) {
            out.print("\r" + line + "\u001B[K");
            out.flush();
            printedInteractive = true;
        } else if (elapsedSeconds - lastPlainPrint >= plainIntervalSeconds) {
            out.println(line);
            lastPlainPrint = elapsedSeconds;
        }
    }

    /** Ends the status line so later output starts on a fresh line. */
    synchronized void finish() {
        if (interactive && printedInteractive) {
            out.println();
        }
    }

    static String format(double elapsedSeconds, double plannedSeconds, List<TimelinePoint> points, RunStats stats) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%5.1fs/%.0fs ETA %3.0fs]",
                elapsedSeconds, plannedSeconds, Math.max(0, plannedSeconds - elapsedSeconds)));
        double queryRate = 0;
        Double queryP50 = null;
        Double queryP99 = null;
        long queryErrors = 0;
        boolean queries = false;
        for (TimelinePoint point : points) {
            long errors = stats.operation(point.operation()).failures();
            if (point.operation().equals(PushRunner.OPERATION)) {
                line.append(String.format(Locale.ROOT, " push %,.0f lines/s %.2f MB/s p50 %s p99 %s err %d",
                        point.linesPerSecond(), point.megabytesPerSecond(), millis(point.p50Millis()),
                        millis(point.p99Millis()), errors));
            } else {
                queries = true;
                queryRate += point.requestsPerSecond();
                queryErrors += errors;
                queryP50 = max(queryP50, point.p50Millis());
                queryP99 = max(queryP99, point.p99Millis());
            }
        }
        if (points.isEmpty()) {
            line.append(" waiting for the first responses");
        }
        if (queries) {
            line.append(String.format(Locale.ROOT, " | queries %.1f/s p50 %s p99 %s err %d",
                    queryRate, millis(queryP50), millis(queryP99), queryErrors));
        }
        return line.toString();
    }

    private static Double max(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }

    private static String millis(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.1fms", value);
    }
}
