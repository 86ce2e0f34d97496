package io.logbloom.loadtest;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link RunReport} as one self-contained HTML page: summary table, throughput and
 * latency over time, and a latency histogram per operation, drawn as inline SVG at render time so
 * the page needs neither network nor JavaScript. The full report JSON is embedded in a
 * {@code <script type="application/json" id="report-data">} element for anyone who wants to re-plot.
 *
 * <p>Thread-safe: stateless.
 */
final class HtmlReport {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
    private static final int WIDTH = 880;
    private static final int HEIGHT = 260;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 40;

    private HtmlReport() {}

    /** Writes the page for {@code report} to {@code file}. */
    static void write(RunReport report, Path file) {
        try {
            Files.writeString(file, render(report), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write HTML report " + file + ": " + e.getMessage(), e);
        }
    }

    /** Returns the HTML page of a report. */
    static String render(RunReport report) {
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Logbloom load test ")
                .append(escape(report.runId())).append("</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}"
                + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                + "th{background:#f4f4f4}td:first-child{text-align:left}svg{display:block;margin:12px 0}"
                + ".axis{stroke:#888}.grid{stroke:#eee}text{font-size:11px}</style></head><body>\n");
        html.append("<h1>Logbloom load test: ").append(escape(report.command())).append(" run ")
                .append(escape(report.runId())).append("</h1>\n<p>Server ").append(escape(report.url()))
                .append(", started ").append(escape(report.startedAt())).append(", ")
                .append(String.format(Locale.ROOT, "%.1f", report.durationSeconds())).append(" s, stop reason: ")
                .append(escape(report.stopReason())).append(". Client CPU ")
                .append(String.format(Locale.ROOT, "%.2f", report.client().cpuSeconds())).append(" s (")
                .append(String.format(Locale.ROOT, "%.2f", report.client().cpuCoresUsed())).append(" cores of ")
                .append(report.client().availableProcessors()).append(").</p>\n");
        summary(html, report);
        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        for (TimelinePoint point : report.timeline()) {
            boolean push = point.operation().equals(PushRunner.OPERATION);
            throughput.computeIfAbsent(point.operation() + (push ? " lines/s" : " req/s"), k -> new ArrayList<>())
                    .add(new double[] {point.elapsedSeconds(), push ? point.linesPerSecond() : point.requestsPerSecond()});
            if (point.p50Millis() != null) {
                latency.computeIfAbsent(point.operation() + " p50", k -> new ArrayList<>())
                        .add(new double[] {point.elapsedSeconds(), point.p50Millis()});
                latency.computeIfAbsent(point.operation() + " p99", k -> new ArrayList<>())
                        .add(new double[] {point.elapsedSeconds(), point.p99Millis()});
            }
        }
        html.append("<h2>Throughput over time</h2>\n").append(lineChart("throughput", "per second", throughput));
        html.append("<h2>Latency over time</h2>\n").append(lineChart("latency", "ms", latency));
        html.append("<h2>Latency histograms</h2>\n");
        report.operations().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            if (!entry.getValue().latencyHistogram().isEmpty()) {
                html.append("<h3>").append(escape(entry.getKey())).append("</h3>\n")
                        .append(barChart("histogram-" + entry.getKey(), entry.getValue().latencyHistogram()));
            }
        });
        html.append("<script type=\"application/json\" id=\"report-data\">\n")
                .append(report.toJson().replace("<", "\\u003c")).append("\n</script>\n</body></html>\n");
        return html.toString();
    }

    private static void summary(StringBuilder html, RunReport report) {
        html.append("<table><tr><th>operation</th><th>requests</th><th>failed</th><th>lines/s</th><th>MB/s</th>"
                + "<th>req/s</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>errors by status</th></tr>\n");
        report.operations().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            RunReport.OperationReport op = entry.getValue();
            html.append("<tr><td>").append(escape(entry.getKey())).append("</td><td>").append(op.requests())
                    .append("</td><td>").append(op.failed()).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%,.0f", op.linesPerSecond())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.2f", op.megabytesPerSecond())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f", op.requestsPerSecond())).append("</td><td>")
                    .append(op.latencyMillis().p50()).append("</td><td>").append(op.latencyMillis().p90())
                    .append("</td><td>").append(op.latencyMillis().p99()).append("</td><td>")
                    .append(op.latencyMillis().max()).append("</td><td>").append(escape(op.errorsByStatus().toString()))
                    .append("</td></tr>\n");
        });
        html.append("</table>\n");
    }

    private static String lineChart(String id, String unit, Map<String, List<double[]>> series) {
        double maxX = 1;
        double maxY = 0;
        for (List<double[]> points : series.values()) {
            for (double[] point : points) {
                maxX = Math.max(maxX, point[0]);
                maxY = Math.max(maxY, point[1]);
            }
        }
        maxY = niceCeiling(maxY);
        StringBuilder svg = open(id);
        axes(svg, maxX, maxY, unit, "seconds");
        int color = 0;
        int legendY = TOP;
        for (Map.Entry<String, List<double[]>> entry : series.entrySet()) {
            String stroke = COLORS[color++ % COLORS.length];
            svg.append("<polyline fill=\"none\" stroke=\"").append(stroke).append("\" stroke-width=\"1.5\" points=\"");
            for (double[] point : entry.getValue()) {
                svg.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(point[0], maxX), y(point[1], maxY)));
            }
            svg.append("\"/>\n<text x=\"").append(WIDTH - RIGHT - 180).append("\" y=\"").append(legendY)
                    .append("\" fill=\"").append(stroke).append("\">").append(escape(entry.getKey())).append("</text>\n");
            legendY += 14;
        }
        return svg.append("</svg>\n").toString();
    }

    private static String barChart(String id, List<RunReport.HistogramBucket> allBuckets) {
        // Leading empty buckets (faster than any request) only squeeze the bars that matter.
        int first = 0;
        while (first < allBuckets.size() - 1 && allBuckets.get(first).count() == 0) {
            first++;
        }
        List<RunReport.HistogramBucket> buckets = allBuckets.subList(Math.max(0, first - 1), allBuckets.size());
        long maxCount = buckets.stream().mapToLong(RunReport.HistogramBucket::count).max().orElse(1);
        double maxY = niceCeiling(maxCount);
        StringBuilder svg = open(id);
        axes(svg, buckets.size(), maxY, "requests", "latency bucket (ms, upper bound)");
        double barWidth = (WIDTH - LEFT - RIGHT) / (double) buckets.size();
        for (int i = 0; i < buckets.size(); i++) {
            RunReport.HistogramBucket bucket = buckets.get(i);
            double top = y(bucket.count(), maxY);
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>&le; %s ms: %d</title></rect>\n",
                    LEFT + i * barWidth + 1, top, Math.max(1, barWidth - 2), HEIGHT - BOTTOM - top, COLORS[0],
                    bucket.upToMillis(), bucket.count()));
            if (buckets.size() <= 24 || i % 2 == 0) {
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                        LEFT + (i + 0.5) * barWidth, HEIGHT - BOTTOM + 14, shortNumber(bucket.upToMillis())));
            }
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder open(String id) {
        return new StringBuilder().append("<svg id=\"").append(escape(id)).append("\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH).append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\">\n");
    }

    private static void axes(StringBuilder svg, double maxX, double maxY, String yUnit, String xUnit) {
        for (int tick = 0; tick <= 4; tick++) {
            double value = maxY * tick / 4;
            double py = y(value, maxY);
            svg.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    LEFT, WIDTH - RIGHT, py, py, LEFT - 6, py + 4, shortNumber(value)));
        }
        svg.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
                + "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n"
                + "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, HEIGHT - BOTTOM, LEFT, LEFT, TOP, HEIGHT - BOTTOM,
                4, TOP - 12, escape(yUnit), WIDTH - RIGHT, HEIGHT - 6, escape(xUnit)));
        if (!xUnit.startsWith("latency")) {
            for (int tick = 0; tick <= 5; tick++) {
                double value = maxX * tick / 5;
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                        x(value, maxX), HEIGHT - BOTTOM + 14, shortNumber(value)));
            }
        }
    }

    private static double x(double value, double maxX) {
        return LEFT + value / maxX * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double value, double maxY) {
        return HEIGHT - BOTTOM - (maxY <= 0 ? 0 : value / maxY) * (HEIGHT - TOP - BOTTOM);
    }

    private static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String shortNumber(double value) {
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", value / 1e6);
        }
        if (value >= 1e4) {
            double thousands = value / 1e3;
            return String.format(Locale.ROOT, thousands == Math.rint(thousands) ? "%.0fk" : "%.1fk", thousands);
        }
        if (value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        return String.format(Locale.ROOT, value < 1 ? "%.2f" : "%.1f", value);
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
