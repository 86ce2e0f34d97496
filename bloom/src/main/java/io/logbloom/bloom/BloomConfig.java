package io.logbloom.bloom;

/**
 * Sizing policy of a {@link ScalableBloomFilter}: first capacity, compound error rate, growth and size limit.
 *
 * <p>The semantics follow Valkey's bloom module: {@code initialCapacity} items fit in the first
 * sub-filter; each further sub-filter holds {@code expansion} times more items at {@code
 * tightening} times the previous error rate; {@code maxSizeBytes} caps the bit storage of all
 * sub-filters together; {@code nonScaling} keeps a single sub-filter that refuses new items once
 * it holds {@code initialCapacity}. Immutable and thread-safe.
 *
 * @param initialCapacity items the first sub-filter is sized for, at least 1
 * @param errorRate compound false-positive target, in (0, 1)
 * @param expansion capacity growth factor between sub-filters, at least 1
 * @param tightening error-rate factor between sub-filters, in (0, 1)
 * @param maxSizeBytes limit on the bytes of bit storage over all sub-filters, at least 1
 * @param nonScaling whether the filter refuses new items past its capacity instead of growing
 */
public record BloomConfig(
        long initialCapacity,
        double errorRate,
        double expansion,
        double tightening,
        long maxSizeBytes,
        boolean nonScaling) {

    /** Default first capacity: large enough that a typical chunk's tokens fit without growing. */
    public static final long DEFAULT_INITIAL_CAPACITY = 1024;
    /** Default compound false-positive target, as Loki and Valkey. */
    public static final double DEFAULT_ERROR_RATE = 0.01;
    /** Default capacity growth factor, as Valkey. */
    public static final double DEFAULT_EXPANSION = 2.0;
    /** Default error-rate tightening, as Valkey (Loki uses 0.8). */
    public static final double DEFAULT_TIGHTENING = 0.5;
    /** Default size limit: 64 MiB of bits holds tens of millions of tokens, more than one series needs. */
    public static final long DEFAULT_MAX_SIZE_BYTES = 64L << 20;

    /** Validates every parameter; the message names the parameter and its value. */
    public BloomConfig {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initialCapacity must be at least 1, got " + initialCapacity);
        }
        if (!(errorRate > 0.0 && errorRate < 1.0)) {
            throw new IllegalArgumentException("errorRate must be in (0, 1), got " + errorRate);
        }
        if (!(expansion >= 1.0) || Double.isInfinite(expansion)) {
            throw new IllegalArgumentException("expansion must be a finite number of at least 1, got " + expansion);
        }
        if (!(tightening > 0.0 && tightening < 1.0)) {
            throw new IllegalArgumentException("tightening must be in (0, 1), got " + tightening);
        }
        if (maxSizeBytes < 1) {
            throw new IllegalArgumentException("maxSizeBytes must be at least 1, got " + maxSizeBytes);
        }
    }

    /** Returns the defaults: capacity 1024, error rate 0.01, expansion 2, tightening 0.5, 64 MiB, scaling. */
    public static BloomConfig defaults() {
        return new BloomConfig(
                DEFAULT_INITIAL_CAPACITY,
                DEFAULT_ERROR_RATE,
                DEFAULT_EXPANSION,
                DEFAULT_TIGHTENING,
                DEFAULT_MAX_SIZE_BYTES,
                false);
    }

    /** Returns a copy with another initial capacity. */
    public BloomConfig withInitialCapacity(long newInitialCapacity) {
        return new BloomConfig(newInitialCapacity, errorRate, expansion, tightening, maxSizeBytes, nonScaling);
    }

    /** Returns a copy with another compound error rate. */
    public BloomConfig withErrorRate(double newErrorRate) {
        return new BloomConfig(initialCapacity, newErrorRate, expansion, tightening, maxSizeBytes, nonScaling);
    }

    /** Returns a copy with another expansion factor. */
    public BloomConfig withExpansion(double newExpansion) {
        return new BloomConfig(initialCapacity, errorRate, newExpansion, tightening, maxSizeBytes, nonScaling);
    }

    /** Returns a copy with another tightening ratio. */
    public BloomConfig withTightening(double newTightening) {
        return new BloomConfig(initialCapacity, errorRate, expansion, newTightening, maxSizeBytes, nonScaling);
    }

    /** Returns a copy with another size limit. */
    public BloomConfig withMaxSizeBytes(long newMaxSizeBytes) {
        return new BloomConfig(initialCapacity, errorRate, expansion, tightening, newMaxSizeBytes, nonScaling);
    }

    /** Returns a copy that is non-scaling ({@code true}) or scaling ({@code false}). */
    public BloomConfig withNonScaling(boolean newNonScaling) {
        return new BloomConfig(initialCapacity, errorRate, expansion, tightening, maxSizeBytes, newNonScaling);
    }
}
