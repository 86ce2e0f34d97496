package io.logbloom.bloom;

import java.util.concurrent.atomic.LongAdder;

/**
 * A partitioned bloom filter: m bits in k equal partitions, one probe per partition.
 *
 * <h2>Design</h2>
 * Splitting the bits into k partitions, each probed once, is the variant Loki uses as the layer of
 * its scalable filter ({@code pkg/storage/bloom/v1/filter/partitioned.go}) and Almeida et al.
 * analyse in "Scalable Bloom Filters" (2007): no two probes of one item can collide, and every
 * partition fills at the same rate, which makes the false-positive rate {@code f^k} exact enough
 * to size by (see {@link PartitionLayout}). The k probe offsets come from one 64-bit XXH3 hash by
 * Kirsch–Mitzenmacher double hashing ("Less Hashing, Same Performance", 2006), as Loki's {@code
 * hashKernel}: with {@code lower} and {@code upper} the two 32-bit halves, probe i uses {@code
 * g_i = lower + i * upper (mod 2^32)}, scaled onto the partition by Lemire's multiply-shift
 * ({@code g_i * P >>> 32}) instead of a division. One hash per item, no per-probe hashing.
 *
 * <p>The filter does not refuse items past its capacity: it keeps adding and its error rate rises
 * above the target. Capacity policy belongs to {@link ScalableBloomFilter}.
 *
 * <h2>Thread safety</h2>
 * Thread-safe and lock-free: bits live in an {@link AtomicBitSet} (compare-and-swap on long
 * words), and the count of inserted items is a {@link LongAdder}. A {@link #mightContain} that
 * runs concurrently with the {@link #add} of the same item may answer either way; once the add
 * returned and the threads synchronised, it answers {@code true}.
 */
public final class PartitionedBloomFilter {
    private final PartitionLayout layout;
    private final int hashes;
    private final int wordsPerPartition;
    private final long partitionBits;
    private final AtomicBitSet bits;
    private final LongAdder itemsInserted = new LongAdder();

    private PartitionedBloomFilter(PartitionLayout layout, AtomicBitSet bits, long itemsInserted) {
        this.layout = layout;
        this.hashes = layout.hashes();
        this.wordsPerPartition = layout.wordsPerPartition();
        this.partitionBits = layout.partitionBits();
        this.bits = bits;
        this.itemsInserted.add(itemsInserted);
    }

    /**
     * Creates an empty filter sized for {@code capacity} items at false-positive rate {@code errorRate}.
     *
     * @throws IllegalArgumentException naming the parameter and value when capacity is below 1,
     *     errorRate is not in (0, 1), or the filter would exceed the largest Java array
     */
    public static PartitionedBloomFilter create(long capacity, double errorRate) {
        PartitionLayout layout = PartitionLayout.of(capacity, errorRate);
        return new PartitionedBloomFilter(layout, new AtomicBitSet(layout.hashes() * layout.wordsPerPartition()), 0);
    }

    /** Rebuilds a filter from its layout, words and count, taking ownership of {@code words}. */
    static PartitionedBloomFilter restore(PartitionLayout layout, long[] words, long itemsInserted) {
        if (words.length != layout.hashes() * layout.wordsPerPartition()) {
            throw new IllegalArgumentException("expected " + layout.hashes() * layout.wordsPerPartition()
                    + " words for " + layout + ", got " + words.length);
        }
        if (itemsInserted < 0) {
            throw new IllegalArgumentException("itemsInserted must not be negative, got " + itemsInserted);
        }
        return new PartitionedBloomFilter(layout, new AtomicBitSet(words), itemsInserted);
    }

    /** Adds an item by its 64-bit {@link BloomHash}; returns {@link AddResult#ADDED} or {@link AddResult#ALREADY_PRESENT}. */
    public AddResult add(long hash) {
        long lower = hash & 0xFFFFFFFFL;
        long upper = hash >>> 32;
        boolean changed = false;
        long partitionStart = 0;
        for (int i = 0; i < hashes; i++) {
            long probe = (lower + i * upper) & 0xFFFFFFFFL;
            changed |= bits.set(partitionStart + ((probe * partitionBits) >>> 32));
            partitionStart += partitionBits;
        }
        if (changed) {
            itemsInserted.increment();
            return AddResult.ADDED;
        }
        return AddResult.ALREADY_PRESENT;
    }

    /** Adds a token, hashed with {@link BloomHash#hash(CharSequence)}. */
    public AddResult add(CharSequence token) {
        return add(BloomHash.hash(token));
    }

    /** Adds the bytes of a token, hashed with {@link BloomHash#hash(byte[])}. */
    public AddResult add(byte[] token) {
        return add(BloomHash.hash(token));
    }

    /** Returns {@code false} if the item with this hash was certainly never added, {@code true} if it may have been. */
    public boolean mightContain(long hash) {
        long lower = hash & 0xFFFFFFFFL;
        long upper = hash >>> 32;
        long partitionStart = 0;
        for (int i = 0; i < hashes; i++) {
            long probe = (lower + i * upper) & 0xFFFFFFFFL;
            if (!bits.get(partitionStart + ((probe * partitionBits) >>> 32))) {
                return false;
            }
            partitionStart += partitionBits;
        }
        return true;
    }

    /** Tests a token, hashed with {@link BloomHash#hash(CharSequence)}. */
    public boolean mightContain(CharSequence token) {
        return mightContain(BloomHash.hash(token));
    }

    /** Tests the bytes of a token, hashed with {@link BloomHash#hash(byte[])}. */
    public boolean mightContain(byte[] token) {
        return mightContain(BloomHash.hash(token));
    }

    /** Returns the number of items the filter is sized for. */
    public long capacity() {
        return layout.capacity();
    }

    /** Returns the false-positive rate the filter is sized for at capacity. */
    public double errorRate() {
        return layout.errorRate();
    }

    /** Returns the number of partitions, which is also the number of probes per item. */
    public int hashCount() {
        return hashes;
    }

    /** Returns the number of bits m over all partitions. */
    public long bitCount() {
        return (long) hashes * partitionBits;
    }

    /** Returns the bytes of bit storage. */
    public long sizeBytes() {
        return layout.sizeBytes();
    }

    /** Returns how many adds found the item new ({@link AddResult#ADDED}). */
    public long itemsInserted() {
        return itemsInserted.sum();
    }

    /** Returns the fraction of set bits, a scan of all words; about 0.5 at capacity. */
    public double fillRatio() {
        return (double) bits.cardinality() / bitCount();
    }

    /** Returns the sizing of this filter. */
    PartitionLayout layout() {
        return layout;
    }

    /** Returns the number of 64-bit words. */
    int wordCount() {
        return hashes * wordsPerPartition;
    }

    /** Returns word {@code index}, read atomically. */
    long word(int index) {
        return bits.word(index);
    }

    @Override
    public String toString() {
        return "PartitionedBloomFilter[capacity=" + capacity() + ", errorRate=" + errorRate() + ", hashes=" + hashes
                + ", bits=" + bitCount() + ", itemsInserted=" + itemsInserted() + "]";
    }
}
