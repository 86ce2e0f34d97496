package io.logbloom.querier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The querier's Prometheus metrics: chunks considered, skipped by blooms and fetched, damaged objects met, bloom
 * cache hits and misses, results cache hits, misses, evictions and bytes, and request latency per route.
 * Thread-safe (the Prometheus client is).
 */
public final class QuerierMetrics {
    private final Counter chunksTotal;
    private final Counter chunksSkipped;
    private final Counter chunksFetched;
    private final Histogram requestDuration;
    private final Counter corruptObjects;
    private final Counter columnarCounts;
    private final Counter columnarBlocks;
    private final Counter columnarPipelineRows;
    private final Counter bloomCacheRequests;
    private final Counter resultsCacheRequests;
    private final Counter resultsCacheEvictions;
    private final Gauge resultsCacheBytes;

    /** Registers the metrics on {@code registry}. */
    public QuerierMetrics(PrometheusRegistry registry) {
        chunksTotal = Counter.builder().name("logbloom_querier_chunks_total")
                .help("Chunk refs matched by the index for queries").register(registry);
        chunksSkipped = Counter.builder().name("logbloom_querier_chunks_skipped_total")
                .help("Chunks skipped because their series bloom proved no match").register(registry);
        chunksFetched = Counter.builder().name("logbloom_querier_chunks_fetched_total")
                .help("Chunks read from the object store or the chunk cache").register(registry);
        corruptObjects = Counter.builder().name("logbloom_querier_corrupt_objects_total")
                .help("Damaged objects met by queries, by kind: chunk_block (left out), chunk (left out), bloom (its"
                        + " chunks read without bloom skipping)").labelNames("kind").register(registry);
        columnarCounts = Counter.builder().name("logbloom_querier_columnar_counts_total")
                .help("Line-counting range aggregations by outcome: answered (counted from block columns) or declined"
                        + " (read entry by entry: overlapping blocks, unsorted rows, metadata labels, row chunks)")
                .labelNames("outcome").register(registry);
        columnarBlocks = Counter.builder().name("logbloom_querier_columnar_blocks_total")
                .help("Blocks of answered line-counting aggregations, by how: directory (its row count, never"
                        + " fetched) or scanned (timestamps and line bytes read)").labelNames("how").register(registry);
        columnarPipelineRows = Counter.builder().name("logbloom_querier_columnar_pipeline_rows_total")
                .help("Rows of columnar aggregations whose parsers, label filters or unwrap ran, by path: bytes (on"
                        + " the line bytes, no entry built), tokens (on a tokenized line column's tokens, no line rebuilt)"
                        + " or decoded (an escape or error case, run row at a time)")
                .labelNames("path").register(registry);
        bloomCacheRequests = Counter.builder().name("logbloom_querier_bloom_cache_requests_total")
                .help("Series bloom lookups of queries by outcome: hit (found in the bloom cache) or miss (read from the"
                        + " object store)").labelNames("outcome").register(registry);
        resultsCacheRequests = Counter.builder().name("logbloom_querier_results_cache_requests_total")
                .help("Cacheable metric range query splits by outcome: hit (answered from the results cache) or miss"
                        + " (evaluated: not cached, or its data changed since)").labelNames("outcome").register(registry);
        resultsCacheEvictions = Counter.builder().name("logbloom_querier_results_cache_evictions_total")
                .help("Split results dropped from the results cache to stay within its byte budget").register(registry);
        resultsCacheBytes = Gauge.builder().name("logbloom_querier_results_cache_bytes")
                .help("Estimated heap bytes of the split results held by the results cache").register(registry);
        requestDuration = Histogram.builder().name("logbloom_querier_request_duration_seconds")
                .help("Duration of query API requests").labelNames("route").register(registry);
    }

    /** Adds one query's chunk counts. */
    void record(QueryStatistics stats) {
        chunksTotal.inc(stats.totalChunksRef());
        chunksSkipped.inc(stats.chunksSkipped());
        chunksFetched.inc(stats.chunksFetched());
    }

    /** Counts {@code count} damaged objects of {@code kind} met by a query. */
    void corruptObjects(String kind, long count) {
        corruptObjects.labelValues(kind).inc(count);
    }

    /** Counts one line-counting aggregation answered from columns ({@code answered}) or declined. */
    void columnarCount(boolean answered) {
        columnarCounts.labelValues(answered ? "answered" : "declined").inc();
    }

    /** Counts the blocks of an answered line-counting aggregation: from the directory alone, or scanned. */
    void columnarBlocks(long fromDirectory, long scanned) {
        columnarBlocks.labelValues("directory").inc(fromDirectory);
        columnarBlocks.labelValues("scanned").inc(scanned);
    }

    /** Counts rows a columnar pipeline answered on their bytes and rows it decoded to run row at a time. */
    void columnarPipelineRows(long onBytes, long onTokens, long decoded) {
        columnarPipelineRows.labelValues("bytes").inc(onBytes);
        columnarPipelineRows.labelValues("tokens").inc(onTokens);
        columnarPipelineRows.labelValues("decoded").inc(decoded);
    }

    /** Rows a columnar pipeline answered on their line bytes so far (for tests and reports). */
    public long columnarPipelineRowsOnBytes() {
        return (long) columnarPipelineRows.labelValues("bytes").get();
    }

    /** Rows a columnar pipeline answered on a tokenized line column's tokens so far (for tests and reports). */
    public long columnarPipelineRowsOnTokens() {
        return (long) columnarPipelineRows.labelValues("tokens").get();
    }

    /** Answered line-counting aggregations so far (for tests and reports). */
    public long columnarCountsAnswered() {
        return (long) columnarCounts.labelValues("answered").get();
    }

    /** Declined line-counting aggregations so far (for tests and reports). */
    public long columnarCountsDeclined() {
        return (long) columnarCounts.labelValues("declined").get();
    }

    /** Blocks of answered line-counting aggregations counted from their directory row count alone, so far. */
    public long columnarBlocksFromDirectory() {
        return (long) columnarBlocks.labelValues("directory").get();
    }

    /** Counts one series bloom lookup answered by the bloom cache ({@code hit}) or read from the store. */
    void bloomCacheRequest(boolean hit) {
        bloomCacheRequests.labelValues(hit ? "hit" : "miss").inc();
    }

    /** Series bloom lookups the bloom cache answered so far (for tests and reports). */
    public long bloomCacheHits() {
        return (long) bloomCacheRequests.labelValues("hit").get();
    }

    /** Series bloom lookups read from the store so far (for tests and reports). */
    public long bloomCacheMisses() {
        return (long) bloomCacheRequests.labelValues("miss").get();
    }

    /** Counts one cacheable split answered from the results cache ({@code hit}) or evaluated. */
    void resultsCacheRequest(boolean hit) {
        resultsCacheRequests.labelValues(hit ? "hit" : "miss").inc();
    }

    /** Counts one split result evicted from the results cache. */
    void resultsCacheEviction() {
        resultsCacheEvictions.inc();
    }

    /** Sets the bytes the results cache holds. */
    void resultsCacheBytes(long bytes) {
        resultsCacheBytes.set(bytes);
    }

    /** Cacheable splits answered from the results cache so far. */
    public long resultsCacheHits() {
        return (long) resultsCacheRequests.labelValues("hit").get();
    }

    /** Cacheable splits evaluated because the results cache had no valid entry, so far. */
    public long resultsCacheMisses() {
        return (long) resultsCacheRequests.labelValues("miss").get();
    }

    /** Split results evicted from the results cache so far. */
    public long resultsCacheEvictions() {
        return (long) resultsCacheEvictions.get();
    }

    /** Estimated heap bytes the results cache holds now. */
    public long resultsCacheBytes() {
        return (long) resultsCacheBytes.get();
    }

    /** Observes the duration of one request on {@code route}. */
    public void observeRequest(String route, double seconds) {
        requestDuration.labelValues(route).observe(seconds);
    }
}
