package io.logbloom.querier;

import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarDirectory;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What planning a query asks of every block of one columnar object, in flat arrays beside its cached directory:
 * time range, stored length and the hash of the block's bloom-token scope. A needle query tests each of the
 * thousands of blocks of its series; read from the directory's records that walk chases several pointers per
 * block and hashes each scope string anew, here it reads four arrays. Immutable and thread-safe.
 */
final class ColumnarBlockTable {
    private final long[] minTimeNanos;
    private final long[] maxTimeNanos;
    private final long[] lengths;
    private final long[] scopeHashes;

    private ColumnarBlockTable(long[] minTimeNanos, long[] maxTimeNanos, long[] lengths, long[] scopeHashes) {
        this.minTimeNanos = minTimeNanos;
        this.maxTimeNanos = maxTimeNanos;
        this.lengths = lengths;
        this.scopeHashes = scopeHashes;
    }

    /** The table of {@code directory}, the directory of {@code objectKey}, with scopes hashed by {@code scopeHash}. */
    static ColumnarBlockTable of(String objectKey, ColumnarDirectory directory, ToLongFunction<String> scopeHash) {
        List<ColumnarBlockInfo> blocks = directory.blocks();
        int n = blocks.size();
        long[] min = new long[n];
        long[] max = new long[n];
        long[] lengths = new long[n];
        long[] scopes = new long[n];
        for (int b = 0; b < n; b++) {
            ColumnarBlockInfo block = blocks.get(b);
            min[b] = block.minTimeNanos();
            max[b] = block.maxTimeNanos();
            lengths[b] = block.length();
            scopes[b] = scopeHash.applyAsLong(ColumnarDirectory.blockScope(objectKey, b));
        }
        return new ColumnarBlockTable(min, max, lengths, scopes);
    }

    /** Approximate heap footprint: four longs per block. */
    long sizeBytes() {
        return 32L * lengths.length + 64;
    }

    /** Whether block {@code block} may hold a row in [fromNanos, throughNanos). */
    boolean overlaps(int block, long fromNanos, long throughNanos) {
        return maxTimeNanos[block] >= fromNanos && minTimeNanos[block] < throughNanos;
    }

    /** Stored bytes of block {@code block}. */
    long length(int block) {
        return lengths[block];
    }

    /** The scope hashes of blocks {@code blocks[0, n)} into {@code out} (as {@link #scopeHash}, one call for all). */
    void scopeHashes(int[] blocks, int n, long[] out) {
        for (int i = 0; i < n; i++) {
            out[i] = scopeHashes[blocks[i]];
        }
    }

    /** The hash of block {@code block}'s bloom-token scope ({@link ColumnarDirectory#blockScope}). */
    long scopeHash(int block) {
        return scopeHashes[block];
    }
}
