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
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * The querier's strong-read-consistency step: the next offset of every partition of the push topic
 * (Kafka's {@code ListOffsets} with "latest", i.e. last produced offset + 1), read when a query
 * starts. A line whose push was answered 204 before that has a smaller offset.
 *
 * <p>Thread-safe (Kafka's admin client is).
 */
public final class ProducedOffsets implements AutoCloseable {
    private final ClusterConfig config;
    private final Admin admin;

    /** Connects lazily to {@code config.bootstrapServers()}. */
    public ProducedOffsets(ClusterConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.admin = Admin.create(p);
    }

    /**
     * Partition → next offset of the push topic, within {@code timeout}.
     *
     * @throws KafkaUnavailableException when Kafka does not answer in time
     */
    public Map<Integer, Long> latest(Duration timeout) throws KafkaUnavailableException {
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < partitions(timeout); p++) {
            ask.put(new TopicPartition(config.topic(), p), OffsetSpec.latest());
        }
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer = admin.listOffsets(ask,
                    new org.apache.kafka.clients.admin.ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, Long> out = new HashMap<>();
            answer.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
            return out;
        } catch (ExecutionException e) {
            throw unavailable(e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw unavailable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(e);
        }
    }

    private int partitions(Duration timeout) throws KafkaUnavailableException {
        try {
            return admin.describeTopics(List.of(config.topic())).allTopicNames().get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS).get(config.topic()).partitions().size();
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
        return new KafkaUnavailableException("strong read consistency: cannot read the last produced offsets of topic "
                + config.topic() + " within the query timeout: " + cause, cause);
    }

    /** Closes the admin client. */
    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
