package io.logbloom.compactor;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The compactor's Prometheus metrics: passes by result, index files merged away, refs dropped by
 * retention, objects and bytes deleted by kind, delete requests processed with the objects rewritten and
 * lines removed for them, small objects merged and the objects written for them, and the time of the last successful pass. Thread-safe.
 */
public final class CompactorMetrics {
    private final Counter runs;
    private final Counter indexFilesRemoved;
    private final Counter refsExpired;
    private final Counter objectsDeleted;
    private final Counter bytesDeleted;
    private final Counter requestsProcessed;
    private final Counter objectsRewritten;
    private final Counter linesDeleted;
    private final Counter objectsMerged;
    private final Counter mergedObjectsWritten;
    private final Gauge lastSuccess;

    /** Registers the metrics in {@code registry}. */
    public CompactorMetrics(PrometheusRegistry registry) {
        runs = Counter.builder().name("logbloom_compactor_runs_total")
                .help("Compaction passes by result (success, failure, skipped: another compactor held the lease)")
                .labelNames("result").register(registry);
        indexFilesRemoved = Counter.builder().name("logbloom_compactor_index_files_removed_total")
                .help("Index files replaced by merged ones or emptied by retention").register(registry);
        refsExpired = Counter.builder().name("logbloom_compactor_expired_refs_total")
                .help("Chunk refs dropped from the index because their stream's retention expired").register(registry);
        objectsDeleted = Counter.builder().name("logbloom_compactor_deleted_objects_total")
                .help("Objects deleted by retention, by kind (chunk, columnar, bloom)").labelNames("kind").register(registry);
        bytesDeleted = Counter.builder().name("logbloom_compactor_deleted_bytes_total")
                .help("Bytes of objects deleted by retention, by kind (chunk, columnar, bloom)").labelNames("kind")
                .register(registry);
        requestsProcessed = Counter.builder().name("logbloom_compactor_delete_requests_processed_total")
                .help("Delete requests whose lines were physically removed (status processed)").register(registry);
        objectsRewritten = Counter.builder().name("logbloom_compactor_rewritten_objects_total")
                .help("Stored objects rewritten without the lines of delete requests").register(registry);
        linesDeleted = Counter.builder().name("logbloom_compactor_deleted_lines_total")
                .help("Lines physically removed from stored objects by delete requests").register(registry);
        objectsMerged = Counter.builder().name("logbloom_compactor_merged_objects_total")
                .help("Small stored objects replaced by merged ones (compactor.small_object_size)").register(registry);
        mergedObjectsWritten = Counter.builder().name("logbloom_compactor_merge_written_objects_total")
                .help("Objects written by small-object merges").register(registry);
        lastSuccess = Gauge.builder().name("logbloom_compactor_last_successful_run_timestamp_seconds")
                .help("Unix time of the last successful compaction pass").register(registry);
    }

    void run(String result) {
        runs.labelValues(result).inc();
    }

    void indexFilesRemoved(long n) {
        indexFilesRemoved.inc(n);
    }

    void refsExpired(long n) {
        refsExpired.inc(n);
    }

    void deleted(String kind, long bytes) {
        objectsDeleted.labelValues(kind).inc();
        bytesDeleted.labelValues(kind).inc(bytes);
    }

    void deletesApplied(long requests, long objects, long lines) {
        requestsProcessed.inc(requests);
        objectsRewritten.inc(objects);
        linesDeleted.inc(lines);
    }

    void merged(long objects, long written) {
        objectsMerged.inc(objects);
        mergedObjectsWritten.inc(written);
    }

    void succeeded(long epochMillis) {
        lastSuccess.set(epochMillis / 1000.0);
    }
}
