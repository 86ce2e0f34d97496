package io.logbloom.ingest;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.DoubleSupplier;

/**
 * The ingester's Prometheus metrics (names fixed in the shared contracts), registered on the
 * injected registry. Gauges read live values through callbacks. Thread-safe (the library's metrics are).
 */
final class IngestMetrics {
    private final Counter lines;
    private final Counter bytes;
    private final Counter rejectedLines;
    private final Counter chunksFlushed;
    private final Histogram flushDuration;
    private final Counter memoryRefusals;
    private final Counter backlogRefusals;
    private final Counter mergeFailures;
    private final Counter mergesDeferred;

    /** Live values the gauges read. */
    interface Gauges {
        double activeStreams();

        double walBytes();

        /** Damaged WAL records or segment tails found by replay since start. */
        double walCorruptions();

        /** WAL writes refused (volume out of space or I/O error) since start. */
        double walWriteFailures();

        /** WAL segments written into a released segment's file instead of a new one since start. */
        double walSegmentsReused();

        /** Bloom totals as Valkey's INFO BF: memory bytes, objects, sub-filters, items, capacity. */
        double[] bloomTotals();

        /** Bytes the ingester holds for unflushed data, as the memory budget counts them. */
        double memoryBytes();

        /** Bytes waiting to be written to the object store (parts on local disk and buffered rows). */
        double unmergedBytes();

        /** 1 while a fatal failure of {@code reason} is recorded, else 0. */
        double fatal(FatalReason reason);
    }

    IngestMetrics(PrometheusRegistry registry, Gauges gauges) {
        lines = Counter.builder().name("logbloom_ingest_lines_total").help("Log lines accepted.").register(registry);
        bytes = Counter.builder().name("logbloom_ingest_bytes_total")
                .help("Bytes of accepted log lines and structured metadata.").register(registry);
        rejectedLines = Counter.builder().name("logbloom_ingest_rejected_lines_total")
                .help("Log lines rejected, by reason.").labelNames("reason").register(registry);
        chunksFlushed = Counter.builder().name("logbloom_ingest_chunks_flushed_total")
                .help("Chunks stored, indexed and bloomed, by flush reason.").labelNames("reason").register(registry);
        flushDuration = Histogram.builder().name("logbloom_ingest_flush_duration_seconds")
                .help("Duration of one chunk flush: put, index and bloom.").register(registry);
        gauge(registry, "logbloom_ingest_active_streams", "Streams with data in memory.", gauges::activeStreams);
        gauge(registry, "logbloom_ingest_wal_bytes", "Bytes of WAL segments up to their ends (not counting files kept for reuse).", gauges::walBytes);
        gauge(registry, "logbloom_ingest_memory_bytes",
                "Bytes held for unflushed data as counted against ingester.max_memory.", gauges::memoryBytes);
        GaugeWithCallback.builder().name("logbloom_ingest_fatal")
                .help("1 while the ingester refuses pushes because of a fatal failure, by reason.")
                .labelNames("reason").callback(cb -> {
                    for (FatalReason reason : FatalReason.values()) {
                        cb.call(gauges.fatal(reason), reason.label());
                    }
                }).register(registry);
        memoryRefusals = Counter.builder().name("logbloom_ingest_memory_limited_pushes_total")
                .help("Pushes refused with 429 because unflushed data was over ingester.max_memory.").register(registry);
        backlogRefusals = Counter.builder().name("logbloom_ingest_unmerged_limited_pushes_total")
                .help("Pushes refused with 429 because unmerged parts on disk were over ingester.max_unmerged_bytes.")
                .register(registry);
        mergeFailures = Counter.builder().name("logbloom_ingest_merge_failures_total")
                .help("Merges of local parts into the object store that failed and will be retried.").register(registry);
        mergesDeferred = Counter.builder().name("logbloom_ingest_merges_deferred_total")
                .help("Merges due by size that waited for a push burst to pass (checked every flush_check_period).")
                .register(registry);
        gauge(registry, "logbloom_ingest_unmerged_bytes",
                "Bytes waiting to be written to the object store: sealed parts on local disk and buffered rows.", gauges::unmergedBytes);
        counter(registry, "logbloom_ingest_wal_corruptions_total",
                "Damaged WAL records or segment tails skipped by replay (their entries are lost).", gauges::walCorruptions);
        counter(registry, "logbloom_ingest_wal_write_failures_total",
                "WAL writes refused (volume out of space or I/O error); their pushes were answered 507 or 503.",
                gauges::walWriteFailures);
        counter(registry, "logbloom_ingest_wal_segments_reused_total",
                "WAL segments written over a released segment's file instead of a new file.", gauges::walSegmentsReused);
        String[] names = {"memory_bytes", "objects", "subfilters", "items", "capacity"};
        String[] help = {"Bytes of bit storage of in-memory series blooms.", "Series blooms in memory.",
                "Sub-filters of in-memory series blooms.", "Items inserted into in-memory series blooms.",
                "Capacity of in-memory series blooms."};
        for (int i = 0; i < names.length; i++) {
            int index = i;
            gauge(registry, "logbloom_bloom_" + names[i], help[i], () -> gauges.bloomTotals()[index]);
        }
    }

    private static void gauge(PrometheusRegistry registry, String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(name).help(help).callback(cb -> cb.call(value.getAsDouble())).register(registry);
    }

    private static void counter(PrometheusRegistry registry, String name, String help, DoubleSupplier value) {
        CounterWithCallback.builder().name(name).help(help).callback(cb -> cb.call(value.getAsDouble())).register(registry);
    }

    void accepted(long lineCount, long byteCount) {
        lines.inc(lineCount);
        bytes.inc(byteCount);
    }

    void rejected(RejectReason reason, long count) {
        rejectedLines.labelValues(reason.label()).inc(count);
    }

    void memoryLimited() {
        memoryRefusals.inc();
    }

    void backlogLimited() {
        backlogRefusals.inc();
    }

    void mergeFailed() {
        mergeFailures.inc();
    }

    void mergeDeferred() {
        mergesDeferred.inc();
    }

    void flushed(FlushReason reason, double seconds) {
        chunksFlushed.labelValues(reason.label()).inc();
        flushDuration.observe(seconds);
    }
}
