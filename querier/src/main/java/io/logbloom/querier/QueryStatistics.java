package io.logbloom.querier;

/**
 * Statistics of one query, the numbers behind Loki's {@code data.stats} (summary, querier.store,
 * ingester, index) plus the bloom-specific ones. Times are nanoseconds. Immutable.
 *
 * @param totalChunksRef chunk refs the index matched in the range
 * @param postFilterChunks chunks left after bloom testing (the fetch candidates)
 * @param chunksSkipped chunks the blooms proved free of matches
 * @param chunksFetched chunks actually read (store or cache); fewer than postFilterChunks when a limit stopped early
 * @param chunksFromCache of chunksFetched, those served by the chunk cache
 * @param chunksDownloadTimeNanos wall time spent waiting for chunk bytes
 * @param compressedBytes encoded bytes of fetched chunks
 * @param decompressedBytes line bytes decoded from fetched chunks (structured metadata not included)
 * @param decompressedLines entries decoded from fetched chunks
 * @param headChunkBytes line bytes read from the ingester's unflushed data (structured metadata not included)
 * @param headChunkLines entries read from the ingester's unflushed data
 * @param totalDuplicates identical entries dropped while merging
 * @param usedBloomFilters whether bloom testing ran for this query
 * @param bloomsLoaded distinct series blooms consulted
 * @param bloomFilterTimeNanos wall time spent loading and testing blooms
 * @param indexTimeNanos wall time spent in the index lookup
 * @param totalEntriesReturned entries (log query) or samples (metric query) in the response
 * @param execTimeNanos wall time of the whole query
 * @param headChunkStructuredMetadataBytes structured metadata bytes (names and values) read from unflushed data
 * @param decompressedStructuredMetadataBytes structured metadata bytes decoded from fetched chunks
 * @param ingestersReached ingesters whose unflushed data the query read: 1 when this process's buffer was
 *     consulted, 0 when only the store was (Loki's ingester.totalReached)
 * @param referencedStructuredMetadata whether the query's pipeline looked up a label that structured metadata
 *     answered (Loki's queryReferencedStructuredMetadata)
 * @param queueTimeNanos time the query waited before it started to execute (Loki's queueTime)
 * @param bytesSkipped encoded bytes of the chunks (blocks) the blooms proved free of matches
 * @param chunksSkippedByTime blocks of matched columnar objects left unread because their directory time range lies
 *     outside the query's
 * @param bytesSkippedByTime encoded bytes of those blocks
 */
public record QueryStatistics(
        long totalChunksRef,
        long postFilterChunks,
        long chunksSkipped,
        long chunksFetched,
        long chunksFromCache,
        long chunksDownloadTimeNanos,
        long compressedBytes,
        long decompressedBytes,
        long decompressedLines,
        long headChunkBytes,
        long headChunkLines,
        long totalDuplicates,
        boolean usedBloomFilters,
        long bloomsLoaded,
        long bloomFilterTimeNanos,
        long indexTimeNanos,
        long totalEntriesReturned,
        long execTimeNanos,
        long headChunkStructuredMetadataBytes,
        long decompressedStructuredMetadataBytes,
        int ingestersReached,
        boolean referencedStructuredMetadata,
        long queueTimeNanos,
        long bytesSkipped,
        long chunksSkippedByTime,
        long bytesSkippedByTime) {

    /** Bytes processed: decoded chunk bytes plus in-memory bytes. */
    public long totalBytesProcessed() {
        return decompressedBytes + headChunkBytes;
    }

    /** Lines processed: decoded chunk lines plus in-memory lines. */
    public long totalLinesProcessed() {
        return decompressedLines + headChunkLines;
    }

    /** Structured metadata bytes processed: decoded plus in-memory (Loki's totalStructuredMetadataBytesProcessed). */
    public long totalStructuredMetadataBytesProcessed() {
        return decompressedStructuredMetadataBytes + headChunkStructuredMetadataBytes;
    }

    /** Statistics of a query that read nothing. */
    public static QueryStatistics empty() {
        return new QueryStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0);
    }
}
