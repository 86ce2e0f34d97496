package io.logbloom.loadtest;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency histogram of one operation (push, or one kind of query).
 *
 * <p>Latencies of answered requests (any HTTP status) are recorded in microseconds into an
 * HdrHistogram {@link Recorder} with three significant digits, so recording is wait-free for the
 * sender threads; {@link #sample()} swaps out the interval histogram once per tick and folds it
 * into the run total. Transport failures (refused, timeout) have no meaningful latency and are only
 * counted by kind.
 *
 * <p>Thread-safe: recording from any thread; {@link #sample()} and {@link #total()} are guarded by
 * this object's monitor, which protects {@code total}, {@code intervalHistogram} and the previous
 * counter values.
 */
final class OperationStats {
    // One hour in microseconds: a request slower than that is reported as one hour.
    private static final long HIGHEST_TRACKABLE_MICROS = TimeUnit.HOURS.toMicros(1);

    private final String name;
    private final Recorder recorder = new Recorder(HIGHEST_TRACKABLE_MICROS, 3);
    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder lines = new LongAdder();
    private final LongAdder lineBytes = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final Map<String, LongAdder> errorsByStatus = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> checks = new ConcurrentHashMap<>();
    private final Map<String, String> errorExamples = new ConcurrentHashMap<>();
    private final Histogram total = new Histogram(HIGHEST_TRACKABLE_MICROS, 3);
    private Histogram intervalHistogram;
    private long previousRequests;
    private long previousFailures;
    private long previousLines;
    private long previousLineBytes;

    OperationStats(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /** Records a successful request with its latency and payload. */
    void recordSuccess(long latencyNanos, int lineCount, long payloadBytes, long bodyBytes) {
        recordLatency(latencyNanos);
        requests.increment();
        lines.add(lineCount);
        lineBytes.add(payloadBytes);
        bytesSent.add(bodyBytes);
    }

    /** Records a failed request; {@code latencyNanos < 0} means there was no answer to time. */
    void recordFailure(String kind, String detail, long latencyNanos, long bodyBytes) {
        errorExamples.put(kind, detail);
        if (latencyNanos >= 0) {
            recordLatency(latencyNanos);
        }
        requests.increment();
        failures.increment();
        bytesSent.add(bodyBytes);
        errorsByStatus.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Records a refused attempt that is sent again (it is not a request of its own, nor a failure). */
    void recordRetry(String kind, String detail) {
        errorExamples.put(kind, detail);
        retries.increment();
    }

    /** Counts the outcome of a content check (for example a needle found, missing or wrong). */
    void recordCheck(String outcome) {
        checks.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    }

    private void recordLatency(long latencyNanos) {
        recorder.recordValue(Math.min(HIGHEST_TRACKABLE_MICROS, Math.max(1, latencyNanos / 1_000)));
    }

    /** Takes the interval since the previous sample and folds it into the run total. */
    synchronized Interval sample() {
        intervalHistogram = recorder.getIntervalHistogram(intervalHistogram);
        total.add(intervalHistogram);
        long nowRequests = requests.sum();
        long nowFailures = failures.sum();
        long nowLines = lines.sum();
        long nowLineBytes = lineBytes.sum();
        Interval interval = new Interval(nowRequests - previousRequests, nowFailures - previousFailures,
                nowLines - previousLines, nowLineBytes - previousLineBytes,
                millis(intervalHistogram.getValueAtPercentile(50)), millis(intervalHistogram.getValueAtPercentile(99)),
                intervalHistogram.getTotalCount());
        previousRequests = nowRequests;
        previousFailures = nowFailures;
        previousLines = nowLines;
        previousLineBytes = nowLineBytes;
        return interval;
    }

    /** Returns a copy of the run-total histogram (call {@link #sample()} first to include the latest). */
    synchronized Histogram total() {
        return total.copy();
    }

    long requests() {
        return requests.sum();
    }

    long failures() {
        return failures.sum();
    }

    long retries() {
        return retries.sum();
    }

    long lines() {
        return lines.sum();
    }

    long lineBytes() {
        return lineBytes.sum();
    }

    long bytesSent() {
        return bytesSent.sum();
    }

    Map<String, Long> errorsByStatus() {
        return snapshot(errorsByStatus);
    }

    Map<String, String> errorExamples() {
        return new TreeMap<>(errorExamples);
    }

    Map<String, Long> checks() {
        return snapshot(checks);
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> copy = new TreeMap<>();
        counters.forEach((key, value) -> copy.put(key, value.sum()));
        return copy;
    }

    static double millis(long micros) {
        return micros / 1_000.0;
    }

    /** Counts and latency percentiles of one sampling interval. */
    record Interval(long requests, long failures, long lines, long lineBytes, double p50Millis, double p99Millis,
            long timedRequests) {}
}
