package io.logbloom.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * {@link PartitionOffsets} read with Kafka's admin client: {@code ListOffsets} with "latest" (read
 * committed) for what was produced, {@code OffsetFetch} of {@code kafka.consumer_group} for what the
 * ingesters committed.
 *
 * <p>Thread-safe (Kafka's admin client is).
 */
public final class KafkaPartitionOffsets implements PartitionOffsets, AutoCloseable {
    private final ClusterConfig config;
    private final Admin admin;

    /** Connects lazily to {@code config.bootstrapServers()}. */
    public KafkaPartitionOffsets(ClusterConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.admin = Admin.create(p);
    }

    @Override
    public Map<Integer, Long> produced(Duration timeout) throws KafkaUnavailableException {
        int partitions = await(admin.describeTopics(List.of(config.topic())).allTopicNames(), timeout, "last produced")
                .get(config.topic()).partitions().size();
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            ask.put(new TopicPartition(config.topic(), p), OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer = await(admin.listOffsets(ask,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(), timeout, "last produced");
        Map<Integer, Long> out = new HashMap<>();
        answer.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    @Override
    public Map<Integer, Long> committed(Duration timeout) throws KafkaUnavailableException {
        Map<TopicPartition, OffsetAndMetadata> answer = await(admin.listConsumerGroupOffsets(config.consumerGroup())
                .partitionsToOffsetAndMetadata(), timeout, "committed");
        Map<Integer, Long> out = new HashMap<>();
        answer.forEach((tp, offset) -> {
            if (offset != null && tp.topic().equals(config.topic())) {
                out.put(tp.partition(), offset.offset());
            }
        });
        return out;
    }

    private <T> T await(KafkaFuture<T> future, Duration timeout, String which) throws KafkaUnavailableException {
        try {
            return future.get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw unavailable(which, e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw unavailable(which, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(which, e);
        }
    }

    private KafkaUnavailableException unavailable(String which, Throwable cause) {
        return new KafkaUnavailableException("strong read consistency: cannot read the " + which + " offsets of topic "
                + config.topic() + " within the query timeout: " + cause, cause);
    }

    /** Closes the admin client. */
    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
