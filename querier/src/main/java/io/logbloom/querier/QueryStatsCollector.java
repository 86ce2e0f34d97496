package io.logbloom.querier;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Accumulates the counters of one query while fetch threads and the evaluating thread update them.
 * Thread-safe: every field is an atomic adder.
 */
final class QueryStatsCollector {
    final LongAdder totalChunksRef = new LongAdder();
    final LongAdder postFilterChunks = new LongAdder();
    final LongAdder chunksSkipped = new LongAdder();
    final LongAdder chunksFetched = new LongAdder();
    final LongAdder chunksFromCache = new LongAdder();
    final LongAdder chunksDownloadTimeNanos = new LongAdder();
    final LongAdder compressedBytes = new LongAdder();
    final LongAdder decompressedBytes = new LongAdder();
    final LongAdder decompressedLines = new LongAdder();
    final LongAdder headChunkBytes = new LongAdder();
    final LongAdder headChunkLines = new LongAdder();
    final LongAdder totalDuplicates = new LongAdder();
    final AtomicBoolean usedBloomFilters = new AtomicBoolean();
    final LongAdder bloomsLoaded = new LongAdder();
    final LongAdder bloomFilterTimeNanos = new LongAdder();
    final LongAdder indexTimeNanos = new LongAdder();
    final LongAdder headChunkStructuredMetadataBytes = new LongAdder();
    final LongAdder decompressedStructuredMetadataBytes = new LongAdder();
    final AtomicBoolean ingesterReached = new AtomicBoolean();
    final AtomicBoolean referencedStructuredMetadata = new AtomicBoolean();
    final LongAdder bytesSkipped = new LongAdder();
    final LongAdder chunksSkippedByTime = new LongAdder();
    final LongAdder bytesSkippedByTime = new LongAdder();

    /** A snapshot with the caller's result size and total time filled in. */
    QueryStatistics snapshot(long totalEntriesReturned, long execTimeNanos, long queueTimeNanos) {
        return new QueryStatistics(totalChunksRef.sum(), postFilterChunks.sum(), chunksSkipped.sum(),
                chunksFetched.sum(), chunksFromCache.sum(), chunksDownloadTimeNanos.sum(), compressedBytes.sum(),
                decompressedBytes.sum(), decompressedLines.sum(), headChunkBytes.sum(), headChunkLines.sum(),
                totalDuplicates.sum(), usedBloomFilters.get(), bloomsLoaded.sum(), bloomFilterTimeNanos.sum(),
                indexTimeNanos.sum(), totalEntriesReturned, execTimeNanos, headChunkStructuredMetadataBytes.sum(),
                decompressedStructuredMetadataBytes.sum(), ingesterReached.get() ? 1 : 0,
                referencedStructuredMetadata.get(), queueTimeNanos, bytesSkipped.sum(), chunksSkippedByTime.sum(),
                bytesSkippedByTime.sum());
    }
}
