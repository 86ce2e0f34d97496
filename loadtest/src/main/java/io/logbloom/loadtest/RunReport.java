package io.logbloom.loadtest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The JSON report of one run.
 *
 * <p>Immutable and thread-safe.
 *
 * @param tool always {@code logbloom-loadtest}
 * @param command {@code push}, {@code query} or {@code mixed}
 * @param runId the run's {@code run} label value
 * @param url the server the run talked to
 * @param startedAt ISO-8601 start time
 * @param durationSeconds measured length of the timed phase
 * @param stopReason {@code completed}, {@code interrupted} or why the run gave up
 * @param settings the options of the run, for reproducing it
 * @param operations per operation: throughput, latency, errors by status
 * @param client the harness's own resource use
 * @param timeline per-second samples for plots
 */
public record RunReport(String tool, String command, String runId, String url, String startedAt,
        double durationSeconds, String stopReason, Map<String, Object> settings,
        Map<String, OperationReport> operations, ClientReport client, List<TimelinePoint> timeline) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Copies the collections. */
    public RunReport {
        settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
        operations = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(operations));
        timeline = List.copyOf(timeline);
    }

    /**
     * Totals and latency of one operation.
     *
     * @param requests requests completed
     * @param succeeded requests answered 2xx with a correct body
     * @param failed requests that failed
     * @param errorsByStatus failures by HTTP status or kind ({@code timeout}, {@code connection_refused},
     *     {@code io_error}, {@code needle_missing}, {@code needle_wrong}, {@code bad_response})
     * @param retries attempts refused and sent again (push with {@code --retry-429}); not requests of their own
     * @param errorExamples the last message seen per error key
     * @param checks needle check outcomes ({@code found}, {@code needle_missing}, {@code needle_wrong})
     * @param lines lines pushed (push) or returned (queries)
     * @param bytes line payload bytes pushed (push) or response bytes received (queries)
     * @param bytesSent request body bytes on the wire
     * @param requestsPerSecond requests per second over the run
     * @param linesPerSecond lines per second over the run
     * @param megabytesPerSecond payload MB/s (10^6 bytes) over the run
     * @param latencyMillis latency percentiles of answered requests
     * @param latencyHistogram counts per latency bucket, for plots
     */
    public record OperationReport(long requests, long succeeded, long failed, Map<String, Long> errorsByStatus,
            long retries, Map<String, String> errorExamples, Map<String, Long> checks, long lines, long bytes, long bytesSent,
            double requestsPerSecond, double linesPerSecond, double megabytesPerSecond, Latency latencyMillis,
            List<HistogramBucket> latencyHistogram) {
        /** Copies the collections. */
        public OperationReport {
            errorsByStatus = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(errorsByStatus));
            errorExamples = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(errorExamples));
            checks = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(checks));
            latencyHistogram = List.copyOf(latencyHistogram);
        }
    }

    /**
     * Latency percentiles in milliseconds.
     *
     * @param p50 median
     * @param p90 90th percentile
     * @param p99 99th percentile
     * @param max maximum
     * @param mean mean
     * @param count answered requests measured
     */
    public record Latency(double p50, double p90, double p99, double max, double mean, long count) {}

    /**
     * One bar of the latency histogram.
     *
     * @param upToMillis upper bound of the bucket in ms
     * @param count requests in the bucket
     */
    public record HistogramBucket(double upToMillis, long count) {}

    /**
     * The harness's own resource use, to show it was not the bottleneck.
     *
     * @param cpuSeconds process CPU time during the timed phase
     * @param cpuCoresUsed CPU seconds per wall second (1.0 = one core busy)
     * @param availableProcessors cores the JVM sees
     * @param encodeCpuSeconds CPU time of the generator/encoder threads
     * @param producerWaitSeconds time senders waited for an encoded body (near 0: client not the bottleneck)
     */
    public record ClientReport(double cpuSeconds, double cpuCoresUsed, int availableProcessors, double encodeCpuSeconds,
            double producerWaitSeconds) {}

    /** Returns the report as pretty-printed JSON. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot render report as JSON: " + e.getMessage(), e);
        }
    }

    /** Writes the report as JSON to {@code file}. */
    public void write(Path file) {
        try {
            JSON.writeValue(file.toFile(), this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a report written by {@link #write}. */
    public static RunReport read(Path file) {
        try {
            return JSON.readValue(file.toFile(), RunReport.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read report " + file + ": " + e.getMessage(), e);
        }
    }
}
