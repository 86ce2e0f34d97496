package io.logbloom.querier;

/**
 * What the querier needs from one series bloom (one tenant, series and 24h period): which chunks it
 * covers, membership of a token hash scoped to a chunk or to a block of an object (asked of that
 * object's filter), and the tokenizer settings it was built with.
 * Implementations must be safe for concurrent reads.
 */
public interface SeriesBloomView {
    /** Whether every token of the chunk stored under {@code objectKey} was added to this bloom. */
    boolean covers(String objectKey);

    /** False only when {@code hash} was definitely never added for the object stored under {@code objectKey}. */
    boolean mightContain(String objectKey, long hash);

    /**
     * The membership test of the tokens of the object stored under {@code objectKey} (as {@link #mightContain}
     * with that key), looked up once for the many block probes of one object.
     */
    default java.util.function.LongPredicate tokensOf(String objectKey) {
        return hash -> mightContain(objectKey, hash);
    }

    /**
     * Keeps, in place and in order, the first {@code n} entries of {@code ids} whose {@code hashes} entry (same
     * index) might have been added for the object stored under {@code objectKey}; returns how many are kept. One call
     * for all the blocks of an object, so a needle's probes are a loop over the object's filter, not a call chain
     * per block.
     */
    default int retainMightContain(String objectKey, long[] hashes, int[] ids, int n) {
        java.util.function.LongPredicate tokens = tokensOf(objectKey);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (tokens.test(hashes[i])) {
                hashes[kept] = hashes[i];
                ids[kept++] = ids[i];
            }
        }
        return kept;
    }

    /** Whether line n-grams were indexed. */
    boolean ngramEnabled();

    /** The n-gram length used when {@link #ngramEnabled()}. */
    int ngramLength();

    /** The n-gram skip used when {@link #ngramEnabled()}. */
    int ngramSkip();

    /** Whether line word tokens were indexed. */
    boolean wordTokens();

    /** Approximate heap footprint, used to weigh the bloom cache. */
    long sizeBytes();
}
