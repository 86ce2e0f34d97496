package io.logbloom.querier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The querier's Prometheus metrics: chunks considered, skipped by blooms and fetched, damaged objects
 * met, and request latency per route. Thread-safe (the Prometheus client is).
 */
public final class QuerierMetrics {
    private final Counter chunksTotal;
    private final Counter chunksSkipped;
    private final Counter chunksFetched;
    private final Histogram requestDuration;
    private final Counter corruptObjects;
    private final Counter columnarCounts;
    private final Counter columnarBlocks;

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

    /** Observes the duration of one request on {@code route}. */
    public void observeRequest(String route, double seconds) {
        requestDuration.labelValues(route).observe(seconds);
    }
}
