package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Keeps a uniform sample of the acknowledged needles (reservoir sampling, Vitter's algorithm R)
 * and the range of their timestamps, for the query phase and the manifest.
 *
 * <p>Thread-safe: every method is synchronized on this object, which guards all fields.
 */
final class NeedleReservoir {
    private final int capacity;
    private final SplittableRandom random;
    private final List<Needle> sample;
    private long seen;
    private long minTimestampNanos = Long.MAX_VALUE;
    private long maxTimestampNanos = Long.MIN_VALUE;
    private long linesAcknowledged;

    NeedleReservoir(int capacity, long seed) {
        if (capacity < 1) {
            throw new IllegalArgumentException("needle sample capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.random = new SplittableRandom(seed);
        this.sample = new ArrayList<>(capacity);
    }

    /** Records an acknowledged push: its needle, line count and timestamp range. */
    synchronized void acknowledged(Needle needle, int lines, long oldestNanos, long newestNanos) {
        linesAcknowledged += lines;
        minTimestampNanos = Math.min(minTimestampNanos, oldestNanos);
        maxTimestampNanos = Math.max(maxTimestampNanos, newestNanos);
        seen++;
        if (sample.size() < capacity) {
            sample.add(needle);
        } else {
            long slot = random.nextLong(seen);
            if (slot < capacity) {
                sample.set((int) slot, needle);
            }
        }
    }

    /** Returns a random needle of the sample, or {@code null} while none is acknowledged. */
    synchronized Needle pick(SplittableRandom picker) {
        return sample.isEmpty() ? null : sample.get(picker.nextInt(sample.size()));
    }

    /**
     * Returns the manifest of what was acknowledged so far, with the tallied lines ({@link LineTally#totals}), or
     * {@code null} if nothing was.
     */
    synchronized Manifest manifest(GeneratorConfig config, Map<String, Long> linesContaining) {
        if (seen == 0) {
            return null;
        }
        return new Manifest(config.runId(), config.seed(), config.streams(), minTimestampNanos, maxTimestampNanos,
                linesAcknowledged, sample, LogGenerator.RARE_PHRASES, linesContaining);
    }

    /** Returns a reservoir holding every needle of a manifest, for a query run after a push run. */
    static NeedleReservoir of(Manifest manifest) {
        if (manifest.needles().isEmpty()) {
            throw new IllegalArgumentException("manifest of run " + manifest.runId() + " holds no needles: "
                    + "the push run had no acknowledged request");
        }
        NeedleReservoir reservoir = new NeedleReservoir(manifest.needles().size(), manifest.seed());
        for (Needle needle : manifest.needles()) {
            reservoir.acknowledged(needle, 0, needle.timestampNanos(), needle.timestampNanos());
        }
        return reservoir;
    }
}
