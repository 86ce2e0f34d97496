package io.logbloom.bloom;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scalable bloom filter: a list of {@link PartitionedBloomFilter}s that grows as items arrive.
 *
 * <h2>Design</h2>
 * After Almeida et al., "Scalable Bloom Filters" (2007), as Loki's {@code
 * pkg/storage/bloom/v1/filter/scalable.go} and Valkey's bloom module: the first sub-filter is
 * sized from {@link BloomConfig#initialCapacity()}; when the newest sub-filter holds as many new
 * items as its capacity, a sub-filter with {@code expansion} times the capacity and {@code
 * tightening} times the error rate is appended. Adds go to the newest sub-filter; a test asks all
 * of them. The error rates form a geometric series, and we start it at {@code errorRate × (1 −
 * tightening)} so that the compound rate stays below the configured target however far the filter
 * grows: {@code 1 − Π(1 − p_i) ≤ Σ p_i = errorRate × (1 − r)(1 + r + r² + …) = errorRate}. (Valkey
 * starts at {@code errorRate} itself and so may reach up to {@code errorRate / (1 − r)}.)
 *
 * <p>An add first tests the older sub-filters, so an item is counted once (Valkey's semantics for
 * "items inserted"); the capacity check counts only adds that set a bit. That count is exact for
 * distinct items, so at capacity the newest sub-filter's fill ratio is the designed one (about a
 * half, see {@link PartitionLayout}); Loki instead estimates the fill ratio every so many adds
 * because its count includes repeats, which our test-before-add excludes. Growth stops when the next
 * sub-filter would take the bit storage over {@link BloomConfig#maxSizeBytes()}, need more than
 * {@value PartitionLayout#MAX_HASHES} probes, or exceed {@value #MAX_SUB_FILTERS} sub-filters;
 * the filter is then full and an add of a new item returns {@link AddResult#FULL} without
 * touching any bit: the item is not represented, and the caller must start a new filter or stop
 * skipping. A non-scaling filter is full once its single sub-filter reaches capacity. Items added
 * before stay testable: a full filter never gives a false negative.
 *
 * <h2>Thread safety</h2>
 * Thread-safe. {@link #add} and {@link #mightContain} take no lock: they read the volatile
 * sub-filter array and set bits by compare-and-swap. Growth takes {@code growthLock}, which
 * guards publishing a longer copy of the sub-filter array and setting {@code full}; an add that
 * races with a growth retries on the new array. Concurrent adds may overshoot a sub-filter's
 * capacity by at most one item per thread, which raises its error rate negligibly.
 */
public final class ScalableBloomFilter {
    /**
     * Most sub-filters: every test probes each of them, so beyond about a thousand a test costs
     * more than the chunk fetch it is meant to avoid; reaching it means the capacity hint was far
     * too small or the expansion too close to 1.
     */
    static final int MAX_SUB_FILTERS = 1024;

    private final BloomConfig config;
    private final long maxScaledCapacity;
    private final ReentrantLock growthLock = new ReentrantLock();
    private volatile PartitionedBloomFilter[] filters;
    private volatile boolean full;

    private ScalableBloomFilter(BloomConfig config, PartitionedBloomFilter[] filters, boolean full) {
        this.config = config;
        this.maxScaledCapacity = maxScaledCapacity(config);
        this.filters = filters;
        this.full = full;
    }

    /**
     * Creates an empty filter with one sub-filter sized by {@code config}.
     *
     * @throws IllegalArgumentException when the first sub-filter alone exceeds {@link BloomConfig#maxSizeBytes()}
     *     or cannot be represented
     */
    public static ScalableBloomFilter create(BloomConfig config) {
        Objects.requireNonNull(config, "config is null");
        PartitionLayout first = firstLayout(config);
        if (first.sizeBytes() > config.maxSizeBytes()) {
            throw new IllegalArgumentException("maxSizeBytes " + config.maxSizeBytes() + " is smaller than the "
                    + first.sizeBytes() + " bytes of the first sub-filter (initialCapacity "
                    + config.initialCapacity() + ", errorRate " + first.errorRate() + ")");
        }
        PartitionedBloomFilter filter = PartitionedBloomFilter.create(first.capacity(), first.errorRate());
        return new ScalableBloomFilter(config, new PartitionedBloomFilter[] {filter}, false);
    }

    /** Rebuilds a filter from deserialized sub-filters. */
    static ScalableBloomFilter restore(BloomConfig config, PartitionedBloomFilter[] filters) {
        ScalableBloomFilter restored = new ScalableBloomFilter(config, filters.clone(), false);
        PartitionedBloomFilter top = filters[filters.length - 1];
        if (top.itemsInserted() >= top.capacity() && nextLayout(config, filters) == null) {
            restored.full = true;
        }
        return restored;
    }

    /**
     * Adds the item with this 64-bit {@link BloomHash}.
     *
     * @return {@link AddResult#ADDED} when the item is new, {@link AddResult#ALREADY_PRESENT} when a
     *     sub-filter already answers yes for it, {@link AddResult#FULL} when it is new but the filter
     *     cannot take it (the caller must handle this: the item is not represented)
     */
    public AddResult add(long hash) {
        while (true) {
            PartitionedBloomFilter[] current = filters;
            int newest = current.length - 1;
            for (int i = 0; i < newest; i++) {
                if (current[i].mightContain(hash)) {
                    return AddResult.ALREADY_PRESENT;
                }
            }
            PartitionedBloomFilter top = current[newest];
            if (top.itemsInserted() < top.capacity()) {
                return top.add(hash);
            }
            if (top.mightContain(hash)) {
                return AddResult.ALREADY_PRESENT;
            }
            if (!grow(current)) {
                return AddResult.FULL;
            }
        }
    }

    /** Adds a token, hashed with {@link BloomHash#hash(CharSequence)}; see {@link #add(long)}. */
    public AddResult add(CharSequence token) {
        return add(BloomHash.hash(token));
    }

    /** Adds the bytes of a token, hashed with {@link BloomHash#hash(byte[])}; see {@link #add(long)}. */
    public AddResult add(byte[] token) {
        return add(BloomHash.hash(token));
    }

    /** Adds the remaining bytes of a buffer, hashed with {@link BloomHash#hash(ByteBuffer)}; see {@link #add(long)}. */
    public AddResult add(ByteBuffer token) {
        return add(BloomHash.hash(token));
    }

    /** Returns {@code false} if the item with this hash was certainly never added, {@code true} if it may have been. */
    public boolean mightContain(long hash) {
        PartitionedBloomFilter[] current = filters;
        // Newest first: it is the largest and holds most of the items.
        for (int i = current.length - 1; i >= 0; i--) {
            if (current[i].mightContain(hash)) {
                return true;
            }
        }
        return false;
    }

    /** Tests a token, hashed with {@link BloomHash#hash(CharSequence)}. */
    public boolean mightContain(CharSequence token) {
        return mightContain(BloomHash.hash(token));
    }

    /** Tests the bytes of a token, hashed with {@link BloomHash#hash(byte[])}. */
    public boolean mightContain(byte[] token) {
        return mightContain(BloomHash.hash(token));
    }

    /** Tests the remaining bytes of a buffer, hashed with {@link BloomHash#hash(ByteBuffer)}. */
    public boolean mightContain(ByteBuffer token) {
        return mightContain(BloomHash.hash(token));
    }

    /** Returns whether the filter refuses new items (it reached its capacity or size limit). */
    public boolean isFull() {
        return full;
    }

    /** Returns the configuration the filter was created with. */
    public BloomConfig config() {
        return config;
    }

    /** Returns a snapshot of the filter's properties, like Valkey's {@code BF.INFO}. */
    public BloomStats stats() {
        PartitionedBloomFilter[] current = filters;
        long capacity = 0;
        long sizeBytes = 0;
        long items = 0;
        for (PartitionedBloomFilter filter : current) {
            capacity += filter.capacity();
            sizeBytes += filter.sizeBytes();
            items += filter.itemsInserted();
        }
        return new BloomStats(
                capacity,
                sizeBytes,
                current.length,
                items,
                config.errorRate(),
                config.expansion(),
                config.tightening(),
                maxScaledCapacity);
    }

    /** Returns the sub-filters, oldest first (a snapshot of the array). */
    PartitionedBloomFilter[] subFilters() {
        return filters.clone();
    }

    /** Serializes the filter into the versioned, CRC32C-checksummed format of {@link BloomCodec}. */
    public byte[] serialize() {
        return BloomCodec.encode(config, filters);
    }

    /**
     * Reads a filter written by {@link #serialize()}.
     *
     * @throws BloomFormatException naming the problem: bad magic, unsupported version, checksum
     *     mismatch, truncation or trailing bytes with their offset, or invalid parameters
     */
    public static ScalableBloomFilter deserialize(byte[] bytes) throws BloomFormatException {
        return BloomCodec.decode(bytes);
    }

    @Override
    public String toString() {
        return "ScalableBloomFilter[" + stats() + ", full=" + full + "]";
    }

    private boolean grow(PartitionedBloomFilter[] expected) {
        if (full) {
            return false;
        }
        growthLock.lock();
        try {
            if (filters != expected) {
                return true;
            }
            if (full) {
                return false;
            }
            PartitionLayout next = nextLayout(config, expected);
            if (next == null) {
                full = true;
                return false;
            }
            PartitionedBloomFilter[] grown = Arrays.copyOf(expected, expected.length + 1);
            grown[expected.length] = PartitionedBloomFilter.create(next.capacity(), next.errorRate());
            filters = grown;
            return true;
        } finally {
            growthLock.unlock();
        }
    }

    /** Returns the layout of the first sub-filter: the whole error budget when non-scaling, else its first share. */
    static PartitionLayout firstLayout(BloomConfig config) {
        double errorRate = config.nonScaling() ? config.errorRate() : config.errorRate() * (1 - config.tightening());
        return PartitionLayout.of(config.initialCapacity(), errorRate);
    }

    /** Returns the layout of the sub-filter after {@code current}, or {@code null} when the filter cannot grow. */
    static PartitionLayout nextLayout(BloomConfig config, PartitionedBloomFilter[] current) {
        if (config.nonScaling() || current.length >= MAX_SUB_FILTERS) {
            return null;
        }
        long sizeBytes = 0;
        for (PartitionedBloomFilter filter : current) {
            sizeBytes += filter.sizeBytes();
        }
        PartitionedBloomFilter top = current[current.length - 1];
        return grownLayout(config, top.capacity(), top.errorRate(), sizeBytes);
    }

    private static PartitionLayout grownLayout(BloomConfig config, long capacity, double errorRate, long sizeBytes) {
        double nextCapacity = Math.ceil(capacity * config.expansion());
        if (!(nextCapacity < Long.MAX_VALUE)) {
            return null;
        }
        double nextErrorRate = errorRate * config.tightening();
        if (PartitionLayout.problem((long) nextCapacity, nextErrorRate) != null) {
            return null;
        }
        PartitionLayout next = PartitionLayout.of((long) nextCapacity, nextErrorRate);
        if (next.sizeBytes() > config.maxSizeBytes() - sizeBytes) {
            return null;
        }
        return next;
    }

    /** Returns the total capacity reachable by growing from the first sub-filter within the limits. */
    static long maxScaledCapacity(BloomConfig config) {
        PartitionLayout layout = firstLayout(config);
        long capacity = layout.capacity();
        long sizeBytes = layout.sizeBytes();
        for (int count = 1; count < MAX_SUB_FILTERS && !config.nonScaling(); count++) {
            layout = grownLayout(config, layout.capacity(), layout.errorRate(), sizeBytes);
            if (layout == null) {
                break;
            }
            capacity = saturatedAdd(capacity, layout.capacity());
            sizeBytes += layout.sizeBytes();
        }
        return capacity;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }
}
