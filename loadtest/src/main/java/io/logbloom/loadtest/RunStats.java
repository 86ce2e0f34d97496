package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Statistics of one run: an {@link OperationStats} per operation name and the timeline of per-tick
 * samples that the progress line and the HTML plots are drawn from.
 *
 * <p>Thread-safe: operations are created on demand in a concurrent sorted map; {@link #sample} is called
 * by the single ticker thread and guarded by this object's monitor, which protects the timeline.
 */
final class RunStats {
    private final Map<String, OperationStats> operations = new ConcurrentSkipListMap<>();
    private final List<TimelinePoint> timeline = new ArrayList<>();
    private long previousSampleNanos;
    private long startNanos;

    RunStats(long startNanos) {
        this.startNanos = startNanos;
        this.previousSampleNanos = startNanos;
    }

    /** Moves the run start to {@code nanos}, when the timed phase begins after preparation. */
    synchronized void restart(long nanos) {
        startNanos = nanos;
        previousSampleNanos = nanos;
    }

    /** Returns the statistics of an operation, creating them on first use. */
    OperationStats operation(String name) {
        return operations.computeIfAbsent(name, OperationStats::new);
    }

    /** Returns every operation seen so far, sorted by name. */
    List<OperationStats> operations() {
        return List.copyOf(operations.values());
    }

    /** Samples every operation at {@code nowNanos}, appends to the timeline and returns the new points. */
    synchronized List<TimelinePoint> sample(long nowNanos) {
        double seconds = Math.max(1e-9, (nowNanos - previousSampleNanos) / 1e9);
        double elapsed = (nowNanos - startNanos) / 1e9;
        previousSampleNanos = nowNanos;
        List<TimelinePoint> points = new ArrayList<>();
        for (OperationStats stats : operations.values()) {
            OperationStats.Interval interval = stats.sample();
            points.add(new TimelinePoint(Math.round(elapsed * 1000) / 1000.0, stats.name(), interval.requests(),
                    interval.failures(), interval.lines(), round(interval.requests() / seconds),
                    round(interval.lines() / seconds), round(interval.lineBytes() / seconds / 1e6),
                    interval.timedRequests() == 0 ? null : interval.p50Millis(),
                    interval.timedRequests() == 0 ? null : interval.p99Millis()));
        }
        timeline.addAll(points);
        return points;
    }

    /** Returns the whole timeline so far. */
    synchronized List<TimelinePoint> timeline() {
        return List.copyOf(timeline);
    }

    static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
