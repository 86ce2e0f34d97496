package io.logbloom.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Lists a topic's partitions for a consumer that assigns them itself (no consumer group). Stateless. */
final class TopicPartitions {
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(5);

    private TopicPartitions() {
    }

    /** Every partition of {@code topic}, or an empty list while the topic is not visible to {@code consumer}. */
    static List<TopicPartition> visible(Consumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, LOOKUP_TIMEOUT);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return List.of();
        }
        if (infos == null) {
            return List.of();
        }
        List<TopicPartition> parts = new ArrayList<>(infos.size());
        for (PartitionInfo i : infos) {
            parts.add(new TopicPartition(i.topic(), i.partition()));
        }
        return parts;
    }
}
