package io.logbloom.querier;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The querier's Prometheus metrics: chunks considered, skipped by blooms and fetched, and request
 * latency per route. Thread-safe (the Prometheus client is).
 */
public final class QuerierMetrics {
    private final Counter chunksTotal;
    private final Counter chunksSkipped;
    private final Counter chunksFetched;
    private final Histogram requestDuration;

    /** Registers the metrics on {@code registry}. */
    public QuerierMetrics(PrometheusRegistry registry) {
        chunksTotal = Counter.builder().name("logbloom_querier_chunks_total")
                .help("Chunk refs matched by the index for queries").register(registry);
        chunksSkipped = Counter.builder().name("logbloom_querier_chunks_skipped_total")
                .help("Chunks skipped because their series bloom proved no match").register(registry);
        chunksFetched = Counter.builder().name("logbloom_querier_chunks_fetched_total")
                .help("Chunks read from the object store or the chunk cache").register(registry);
        requestDuration = Histogram.builder().name("logbloom_querier_request_duration_seconds")
                .help("Duration of query API requests").labelNames("route").register(registry);
    }

    /** Adds one query's chunk counts. */
    void record(QueryStatistics stats) {
        chunksTotal.inc(stats.totalChunksRef());
        chunksSkipped.inc(stats.chunksSkipped());
        chunksFetched.inc(stats.chunksFetched());
    }

    /** Observes the duration of one request on {@code route}. */
    public void observeRequest(String route, double seconds) {
        requestDuration.labelValues(route).observe(seconds);
    }
}
