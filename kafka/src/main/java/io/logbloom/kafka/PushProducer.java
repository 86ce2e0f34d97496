package io.logbloom.kafka;

import io.logbloom.ingest.PushGate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The distributor's writer: each admitted stream of a push becomes one or more {@link PushRecord}s
 * (split at {@code kafka.max_record_size}) keyed by tenant and labels, so Kafka's partitioner puts a
 * stream on one partition, in order. The producer is idempotent with {@code acks=all}: {@link #send}
 * returns only once every record of the push is acknowledged by all in-sync replicas, and throws
 * {@link KafkaUnavailableException} when that does not happen within {@code kafka.produce_timeout}
 * (then the push must be answered 503: some of its records may still arrive, and the client's retry
 * is deduplicated).
 *
 * <p>Thread-safe (Kafka's producer is).
 */
public final class PushProducer implements AutoCloseable {
    private final ClusterConfig config;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaMetrics metrics;

    /** Connects lazily to {@code config.bootstrapServers()}. */
    public PushProducer(ClusterConfig config, KafkaMetrics metrics) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.producer = new KafkaProducer<>(properties(config), new StringSerializer(), new ByteArraySerializer());
    }

    static Map<String, Object> properties(ClusterConfig config) {
        long timeoutMs = config.produceTimeout().toMillis();
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        // a push waits for its acknowledgement: batch only what arrives within a few milliseconds
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // the record bound plus Kafka's batch overhead
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, config.maxRecordBytes() + 64 * 1024);
        // send() blocks for metadata at most this long while brokers are unreachable
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        long request = Math.max(1000, Math.min(timeoutMs, 30_000));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) request);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeoutMs, request + 5));
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return p;
    }

    /**
     * Writes the admitted streams of one push of {@code tenant} and waits for every acknowledgement.
     *
     * @return the number of records written
     * @throws KafkaUnavailableException when Kafka did not acknowledge everything within the produce timeout
     */
    public int send(String tenant, List<PushGate.Stream> streams) throws KafkaUnavailableException {
        long deadline = System.nanoTime() + config.produceTimeout().toNanos();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        try {
            for (PushGate.Stream s : streams) {
                String key = PushRecord.key(tenant, s.labels());
                for (byte[] value : PushRecordCodec.encodeSplit(tenant, s.labels(), s.entries(),
                        config.maxRecordBytes())) {
                    acks.add(producer.send(new ProducerRecord<>(config.topic(), key, value)));
                }
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            metrics.produced(acks.size());
            return acks.size();
        } catch (ExecutionException e) {
            throw unavailable(e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw unavailable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(e);
        }
    }

    private KafkaUnavailableException unavailable(Throwable cause) {
        metrics.produceFailed();
        return new KafkaUnavailableException("push not accepted: Kafka did not acknowledge it within "
                + config.produceTimeout().toMillis() + " ms (kafka.produce_timeout); the write path is unavailable, "
                + "retry later", cause);
    }

    /** Waits up to five seconds for records in flight, then closes. */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
