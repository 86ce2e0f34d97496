package io.logbloom.ingest;

import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ChunkRef;
import java.util.Objects;
import java.util.Set;

/**
 * The bloom of one series for one 24h UTC period: the filter, the object keys of the chunks whose
 * tokens were all added (only those may ever be skipped), and the tokenizer settings the tokens were
 * made with (a querier must build query tokens the same way). The filter is mutable and
 * thread-safe; the record itself is immutable (the covered set is copied).
 *
 * @param filter the scalable bloom holding plain and chunk-scoped tokens
 * @param coveredChunkKeys object keys of chunks fully represented in the filter
 * @param ngramEnabled whether line n-grams were added
 * @param ngramLength n-gram length in code points
 * @param ngramSkip n-gram skip
 * @param wordTokens whether line word tokens were added (a bloom without them must not be probed for words)
 */
public record SeriesBloom(ScalableBloomFilter filter, Set<String> coveredChunkKeys, boolean ngramEnabled,
        int ngramLength, int ngramSkip, boolean wordTokens) {
    public SeriesBloom {
        Objects.requireNonNull(filter, "filter is null");
        coveredChunkKeys = Set.copyOf(coveredChunkKeys);
        if (ngramLength < 1 || ngramSkip < 0) {
            throw new IllegalArgumentException("invalid n-gram settings: length " + ngramLength + ", skip " + ngramSkip);
        }
    }

    /** Whether every token of the chunk is in the filter, so a negative test may skip it. */
    public boolean covers(ChunkRef ref) {
        return coveredChunkKeys.contains(ref.objectKey());
    }

    /** The period number (days since the epoch, UTC) of a timestamp: {@code floor(nanos / 86_400e9)}. */
    public static long periodNumber(long timestampNanos) {
        return Math.floorDiv(timestampNanos, SeriesBloomStore.PERIOD_NANOS);
    }
}
