package io.logbloom.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the push topic ({@code kafka.partitions} partitions) and the compacted members topic when
 * they do not exist; every role calls it at start, so the first one creates them and the others find
 * them. An existing push topic keeps its partition count (raise it with Kafka's tools; streams then
 * move to other partitions, which is safe because offsets are committed only after upload).
 * Stateless.
 */
public final class TopicSetup {
    private TopicSetup() {}

    /** Ensures both topics exist, trying for up to {@code timeout}; throws when Kafka stays unreachable. */
    public static void ensure(ClusterConfig config, Duration timeout) throws KafkaUnavailableException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers(),
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000))) {
            while (System.nanoTime() < deadline) {
                try {
                    create(admin, new NewTopic(config.topic(), config.partitions(), config.replicationFactor()));
                    create(admin, new NewTopic(config.membersTopic(), 1, config.replicationFactor())
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                                    // compact often: the topic holds one live record per member
                                    TopicConfig.SEGMENT_MS_CONFIG, "600000")));
                    return;
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    last = e;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            last = e;
        }
        throw new KafkaUnavailableException("cannot create Kafka topics " + config.topic() + " and "
                + config.membersTopic() + " at " + config.bootstrapServers() + ": " + last, last);
    }

    private static void create(Admin admin, NewTopic topic)
            throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        try {
            admin.createTopics(List.of(topic)).all().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }
}
