package io.logbloom.bloom;

/**
 * Sizing of one partitioned bloom filter: how many partitions (probes) and how many bits each.
 *
 * <p>With k partitions of P bits and n items, each partition is a one-probe filter whose fill is
 * {@code f = 1 - (1 - 1/P)^n ≈ 1 - e^(-n/P)}, and an absent item is a false positive when all k
 * probes hit set bits: {@code fp = f^k} (Almeida et al., "Scalable Bloom Filters", 2007, §3).
 * The optimum sets half the bits ({@code f = 1/2}), hence {@code k = ceil(log2(1/fp))}. For that
 * integer k we solve {@code f = fp^(1/k)} for P: {@code P = -n / ln(1 - fp^(1/k))}. When
 * {@code log2(1/fp)} is an integer this is exactly the standard {@code m = -n ln(fp) / (ln 2)^2}
 * split into k partitions; otherwise it adds the few bits (0.1% at fp 0.01) that keep the expected
 * rate at the target despite rounding k up, where the standard formula would overshoot slightly.
 * P is rounded up to whole 64-bit words so that partitions are word-aligned.
 *
 * <p>Immutable and thread-safe.
 *
 * @param capacity items the filter is sized for
 * @param errorRate false-positive rate at capacity
 * @param hashes number of partitions k, one probe each
 * @param wordsPerPartition 64-bit words per partition
 */
record PartitionLayout(long capacity, double errorRate, int hashes, int wordsPerPartition) {

    /**
     * Most probes per item. 64 probes means an error rate of 2^-64, far below anything useful;
     * a scalable filter whose tightening would need more has reached its limit.
     */
    static final int MAX_HASHES = 64;

    /**
     * Most bits per partition: probe offsets come from a 32-bit value scaled to the partition
     * (Lemire's multiply-shift), and a product below 2^63 needs a partition below 2^31 bits.
     */
    static final long MAX_PARTITION_BITS = 1L << 31;

    /** Most words in all partitions together: the largest Java array. */
    static final long MAX_WORDS = Integer.MAX_VALUE - 8;

    PartitionLayout {
        String problem = problem(capacity, errorRate);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (hashes != hashesFor(errorRate)) {
            throw new IllegalArgumentException(
                    "hashes must be " + hashesFor(errorRate) + " for errorRate " + errorRate + ", got " + hashes);
        }
        if (wordsPerPartition < 1 || (long) hashes * wordsPerPartition > MAX_WORDS) {
            throw new IllegalArgumentException("wordsPerPartition out of range: " + wordsPerPartition);
        }
    }

    /** Returns the layout for {@code capacity} items at {@code errorRate}. */
    static PartitionLayout of(long capacity, double errorRate) {
        String problem = problem(capacity, errorRate);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new PartitionLayout(capacity, errorRate, hashesFor(errorRate), (int) wordsPerPartition(capacity, errorRate));
    }

    /** Returns why no layout exists for these parameters, or {@code null} when one does. */
    static String problem(long capacity, double errorRate) {
        if (capacity < 1) {
            return "capacity must be at least 1, got " + capacity;
        }
        if (!(errorRate > 0.0 && errorRate < 1.0)) {
            return "errorRate must be in (0, 1), got " + errorRate;
        }
        int hashes = hashesFor(errorRate);
        if (hashes > MAX_HASHES) {
            return "errorRate " + errorRate + " needs " + hashes + " hashes, more than the maximum " + MAX_HASHES;
        }
        double bits = partitionBits(capacity, errorRate, hashes);
        if (!(bits <= MAX_PARTITION_BITS) || hashes * Math.ceil(bits / 64) > MAX_WORDS) {
            return "capacity " + capacity + " at errorRate " + errorRate + " needs " + hashes + " partitions of "
                    + (long) Math.ceil(bits) + " bits, more than the maximum " + MAX_PARTITION_BITS + " bits each";
        }
        return null;
    }

    /** Returns the bytes of bit storage of this layout. */
    long sizeBytes() {
        return (long) hashes * wordsPerPartition * Long.BYTES;
    }

    /** Returns the bits of one partition. */
    long partitionBits() {
        return (long) wordsPerPartition * Long.SIZE;
    }

    /** Returns k = ceil(log2(1 / errorRate)), at least 1. */
    static int hashesFor(double errorRate) {
        double log2 = -Math.log(errorRate) / Math.log(2);
        // The epsilon keeps exact powers of two (0.5, 0.25, ...) from rounding up through float error.
        double k = Math.ceil(log2 - 1e-9);
        return (int) Math.max(1, Math.min(k, Integer.MAX_VALUE));
    }

    private static long wordsPerPartition(long capacity, double errorRate) {
        return Math.max(1, (long) Math.ceil(partitionBits(capacity, errorRate, hashesFor(errorRate)) / Long.SIZE));
    }

    private static double partitionBits(long capacity, double errorRate, int hashes) {
        double fill = Math.exp(Math.log(errorRate) / hashes);
        return Math.ceil(-capacity / Math.log1p(-fill));
    }
}
