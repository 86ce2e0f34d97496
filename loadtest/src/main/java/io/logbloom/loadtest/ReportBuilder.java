package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Turns a run's statistics into a {@link RunReport}.
 *
 * <p>Thread-safe: stateless.
 */
final class ReportBuilder {
    // Histogram buckets grow by this factor from 100 µs: 20 buckets reach beyond 50 s.
    private static final double BUCKET_GROWTH = 2.0;
    private static final long FIRST_BUCKET_MICROS = 100;

    private ReportBuilder() {}

    static RunReport build(String command, String runId, String url, String startedAt, double durationSeconds,
            String stopReason, Map<String, Object> settings, RunStats stats, RunReport.ClientReport client) {
        Map<String, RunReport.OperationReport> operations = new TreeMap<>();
        double seconds = Math.max(durationSeconds, 1e-9);
        for (OperationStats operation : stats.operations()) {
            Histogram histogram = operation.total();
            RunReport.Latency latency = new RunReport.Latency(
                    OperationStats.millis(histogram.getValueAtPercentile(50)),
                    OperationStats.millis(histogram.getValueAtPercentile(90)),
                    OperationStats.millis(histogram.getValueAtPercentile(99)),
                    OperationStats.millis(histogram.getMaxValue()),
                    RunStats.round(histogram.getMean() / 1000.0),
                    histogram.getTotalCount());
            List<RunReport.HistogramBucket> buckets = new ArrayList<>();
            if (histogram.getTotalCount() > 0) {
                for (HistogramIterationValue value : histogram.logarithmicBucketValues(FIRST_BUCKET_MICROS, BUCKET_GROWTH)) {
                    buckets.add(new RunReport.HistogramBucket(OperationStats.millis(value.getValueIteratedTo()),
                            value.getCountAddedInThisIterationStep()));
                }
            }
            long requests = operation.requests();
            operations.put(operation.name(), new RunReport.OperationReport(requests, requests - operation.failures(),
                    operation.failures(), operation.errorsByStatus(), operation.retries(), operation.errorExamples(), operation.checks(),
                    operation.lines(), operation.lineBytes(), operation.bytesSent(),
                    RunStats.round(requests / seconds), RunStats.round(operation.lines() / seconds),
                    RunStats.round(operation.lineBytes() / seconds / 1e6), latency, buckets));
        }
        return new RunReport("logbloom-loadtest", command, runId, url, startedAt, RunStats.round(durationSeconds),
                stopReason, settings, operations, client, stats.timeline());
    }
}
