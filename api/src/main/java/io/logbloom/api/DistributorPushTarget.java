package io.logbloom.api;

import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushGate;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.kafka.ClusterConfig;
import io.logbloom.kafka.KafkaUnavailableException;
import io.logbloom.kafka.PushProducer;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The distributor's push target: validation and the tenant's rate limit as in {@code target: all}
 * ({@link PushGate}), then the admitted streams go to Kafka ({@link PushProducer}); the route answers
 * 204 only after Kafka acknowledged every record, 503 while Kafka does not.
 *
 * <p><b>Limits across distributors.</b> As Loki's global ingestion-rate strategy, each distributor
 * enforces {@code limits.ingestion_rate_mb / kafka.distributors} (the burst stays per distributor),
 * so with pushes spread evenly over the distributors (any load balancer) a tenant's total rate is
 * the configured one. Stream-count limits and the out-of-order window need the stored streams and
 * are not enforced in the cluster roles.
 *
 * <p>Thread-safe (the gate and the producer are).
 */
final class DistributorPushTarget implements PushTarget, AutoCloseable {
    private final PushGate gate;
    private final PushProducer producer;
    private final Clock clock;

    DistributorPushTarget(LimitsConfig limits, Duration maxChunkAge, ClusterConfig kafka, PushProducer producer,
            Clock clock, PrometheusRegistry registry) {
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.producer = Objects.requireNonNull(producer, "producer is null");
        Counter rejected = Counter.builder().name("logbloom_distributor_rejected_lines_total")
                .help("Entries a distributor rejected, by reason").labelNames("reason").register(registry);
        this.gate = new PushGate(shareOf(limits, kafka.distributors()), maxChunkAge, clock,
                (reason, count) -> rejected.labelValues(reason).inc(count));
    }

    /** {@code limits} with the ingestion rate divided among {@code distributors}. */
    static LimitsConfig shareOf(LimitsConfig limits, int distributors) {
        return new LimitsConfig(limits.ingestionRateMb() / distributors, limits.ingestionBurstSizeMb(),
                limits.maxLineSizeBytes(), limits.maxLabelNamesPerSeries(), limits.maxLabelNameLength(),
                limits.maxLabelValueLength(), limits.rejectOldSamples(), limits.rejectOldSamplesMaxAge(),
                limits.creationGracePeriod(), limits.maxGlobalStreamsPerUser(), limits.maxNewSeriesPerHour(),
                limits.maxNewSeriesPerDay(), limits.unorderedWrites());
    }

    @Override
    public PushResult push(String tenant, List<PushStream> streams) {
        java.time.Instant now = clock.instant();
        PushGate.Admitted admitted = gate.admit(tenant, streams, now.getEpochSecond() * 1_000_000_000L + now.getNano());
        if (admitted.result().rateLimited() || admitted.streams().isEmpty()) {
            return admitted.result();
        }
        try {
            producer.send(tenant, admitted.streams());
        } catch (KafkaUnavailableException e) {
            throw new HttpException(503, "kafka_unavailable", e.getMessage());
        }
        return admitted.result();
    }

    @Override
    public void close() {
        producer.close();
    }
}
