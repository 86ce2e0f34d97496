package io.logbloom.patterns;

import java.util.Arrays;

/**
 * Line counts of one pattern in buckets of {@link #RESOLUTION_MILLIS} (Loki's pattern chunks keep
 * 10 s samples): parallel arrays of bucket start and count, sorted by time, appended in place for
 * in-order lines and inserted for late ones, so every mined line is counted exactly once. Not
 * thread-safe (owned by one {@link Drain}).
 */
final class PatternSamples {
    /** Sample resolution: Loki's {@code TimeResolution}. */
    static final long RESOLUTION_MILLIS = 10_000;

    private long[] times = new long[4];
    private long[] counts = new long[4];
    private int size;

    void add(long timestampMillis) {
        long bucket = Math.floorDiv(timestampMillis, RESOLUTION_MILLIS) * RESOLUTION_MILLIS;
        if (size > 0 && times[size - 1] == bucket) {
            counts[size - 1]++;
            return;
        }
        int at = size > 0 && times[size - 1] < bucket ? size : Arrays.binarySearch(times, 0, size, bucket);
        if (at >= 0 && at < size && times[at] == bucket) {
            counts[at]++;
            return;
        }
        int insert = at >= 0 ? at : -at - 1;
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
        }
        System.arraycopy(times, insert, times, insert + 1, size - insert);
        System.arraycopy(counts, insert, counts, insert + 1, size - insert);
        times[insert] = bucket;
        counts[insert] = 1;
        size++;
    }

    /** Drops buckets that start before {@code cutoffMillis}; returns whether any remain. */
    boolean pruneBefore(long cutoffMillis) {
        int keepFrom = 0;
        while (keepFrom < size && times[keepFrom] < cutoffMillis) {
            keepFrom++;
        }
        if (keepFrom > 0) {
            System.arraycopy(times, keepFrom, times, 0, size - keepFrom);
            System.arraycopy(counts, keepFrom, counts, 0, size - keepFrom);
            size -= keepFrom;
        }
        return size > 0;
    }

    /**
     * Adds the counts of the buckets overlapping [startMillis, endMillis) into {@code sink}, keyed by
     * step-aligned bucket start (a bucket is counted whole: its lines cannot be split further).
     */
    void addTo(long startMillis, long endMillis, long stepMillis, java.util.SortedMap<Long, Long> sink) {
        for (int i = 0; i < size; i++) {
            long t = times[i];
            if (t + RESOLUTION_MILLIS > startMillis && t < endMillis) {
                sink.merge(Math.floorDiv(t, stepMillis) * stepMillis, counts[i], Long::sum);
            }
        }
    }

    long total() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += counts[i];
        }
        return sum;
    }
}
