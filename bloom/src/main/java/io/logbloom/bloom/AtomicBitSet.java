package io.logbloom.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed-size bit set over {@code long[]} whose bits many threads may set and read without locks.
 *
 * <p>As VictoriaMetrics' {@code lib/bloomfilter}: a set first reads the word and returns at once
 * when the bit is already there (the common case once a filter fills), otherwise it
 * compare-and-swaps {@code word | mask} and retries with the witnessed value when another thread
 * changed the word meanwhile, so concurrent sets of different bits in one word are never lost.
 * A test of a bit ({@link #get}) is a plain array load: a bit set by a thread is visible to another
 * thread once the two synchronise (as the owner of a filter does when it publishes a flushed chunk),
 * and a test racing with a set of the same bit may answer either way, which is all a filter promises
 * (see {@link PartitionedBloomFilter}). Bits are only ever added, so even a word read in halves holds
 * only bits that were set. A plain load also keeps a test cheap before the JIT compiles it: a
 * {@code VarHandle} access runs through several method-handle frames in the interpreter, and a needle
 * query's first runs test thousands of bits. Bits are never cleared. Thread-safe.
 */
final class AtomicBitSet {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] words;

    /** Creates an all-zero set of {@code wordCount * 64} bits. */
    AtomicBitSet(int wordCount) {
        this.words = new long[wordCount];
    }

    /** Wraps {@code words}, taking ownership of the array. */
    AtomicBitSet(long[] words) {
        this.words = words;
    }

    /** Returns whether bit {@code index} is set. */
    boolean get(long index) {
        return (words[(int) (index >>> 6)] & (1L << index)) != 0;
    }

    /** Sets bit {@code index}; returns whether it was clear before (this call changed it). */
    boolean set(long index) {
        int wordIndex = (int) (index >>> 6);
        long mask = 1L << index;
        long current = (long) WORDS.getOpaque(words, wordIndex);
        while ((current & mask) == 0) {
            long witness = (long) WORDS.compareAndExchange(words, wordIndex, current, current | mask);
            if (witness == current) {
                return true;
            }
            current = witness;
        }
        return false;
    }

    /** Returns the number of 64-bit words. */
    int wordCount() {
        return words.length;
    }

    /** Returns the number of set bits (a scan of all words). */
    long cardinality() {
        long count = 0;
        for (int i = 0; i < words.length; i++) {
            count += Long.bitCount((long) WORDS.getOpaque(words, i));
        }
        return count;
    }

    /** Returns word {@code index}, read atomically. */
    long word(int index) {
        return (long) WORDS.getOpaque(words, index);
    }
}
