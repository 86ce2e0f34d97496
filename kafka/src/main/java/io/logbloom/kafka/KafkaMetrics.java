package io.logbloom.kafka;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Metrics of the Kafka write path: records produced and consumed, entries consumed per partition,
 * retries, skipped records, the flush-then-commit duration and strong reads that waited for partitions
 * between owners. Thread-safe (Prometheus metrics are).
 */
public final class KafkaMetrics {
    private final Counter produced;
    private final Counter produceFailures;
    private final Counter consumed;
    private final Counter consumedEntries;
    private final Counter retried;
    private final Counter skipped;
    private final Histogram commitSeconds;
    private final Counter strongReadWaits;
    private final Counter listingsDropped;

    /** Registers the metrics with {@code registry}. */
    public KafkaMetrics(PrometheusRegistry registry) {
        produced = Counter.builder().name("logbloom_kafka_produced_records_total")
                .help("Push records acknowledged by Kafka").register(registry);
        produceFailures = Counter.builder().name("logbloom_kafka_produce_failures_total")
                .help("Pushes answered 503 because Kafka did not acknowledge them in time").register(registry);
        consumed = Counter.builder().name("logbloom_kafka_consumed_records_total")
                .help("Push records stored by this ingester").labelNames("partition").register(registry);
        consumedEntries = Counter.builder().name("logbloom_kafka_consumed_entries_total")
                .help("Entries of the push records stored by this ingester").register(registry);
        retried = Counter.builder().name("logbloom_kafka_record_retries_total")
                .help("Times a record was retried because the ingester refused it for now").register(registry);
        skipped = Counter.builder().name("logbloom_kafka_skipped_records_total")
                .help("Records that could not be decoded and were skipped").register(registry);
        commitSeconds = Histogram.builder().name("logbloom_kafka_flush_commit_duration_seconds")
                .help("Time to flush everything to the object store and commit the offsets").register(registry);
        strongReadWaits = Counter.builder().name("logbloom_kafka_strong_read_waits_total")
                .help("Strong reads that found partitions without a live caught-up owner and waited: outcome covered "
                        + "(answered) or not_covered (503)").labelNames("outcome").register(registry);
        listingsDropped = Counter.builder().name("logbloom_querier_index_listings_dropped_total")
                .help("Queries after which a cluster querier dropped its kept index listings, by the first reason the"
                        + " ingesters' answers could not vouch for every new index file: unanswered (an announced"
                        + " ingester did not answer), files_unknown (one answered without naming its index files),"
                        + " committed_offsets (a strong read covered a partition by its committed offset),"
                        + " no_ingesters, consumers_changed (not the consumers of the previous query)")
                .labelNames("reason").register(registry);
    }

    void produced(int records) {
        produced.inc(records);
    }

    void produceFailed() {
        produceFailures.inc();
    }

    void recordConsumed(int partition, int entries) {
        consumed.labelValues(Integer.toString(partition)).inc();
        consumedEntries.inc(entries);
    }

    void recordRetried() {
        retried.inc();
    }

    void recordSkipped() {
        skipped.inc();
    }

    void listingsDropped(String reason) {
        listingsDropped.labelValues(reason).inc();
    }

    void strongReadWaited(boolean covered) {
        strongReadWaits.labelValues(covered ? "covered" : "not_covered").inc();
    }

    void committed(double seconds) {
        commitSeconds.observe(seconds);
    }
}
