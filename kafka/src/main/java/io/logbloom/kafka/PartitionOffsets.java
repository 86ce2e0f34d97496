package io.logbloom.kafka;

import java.time.Duration;
import java.util.Map;

/**
 * The two positions of each push-topic partition that strong read consistency compares: where
 * producers reached and where the ingesters' consumer group committed (everything before a commit is
 * in the bucket, since ingesters commit only after uploading).
 */
public interface PartitionOffsets {
    /**
     * Partition → next offset of the push topic (last produced offset + 1), within {@code timeout}.
     *
     * @throws KafkaUnavailableException when Kafka does not answer in time
     */
    Map<Integer, Long> produced(Duration timeout) throws KafkaUnavailableException;

    /**
     * Partition → offset the ingesters' consumer group committed on the push topic (partitions without
     * a commit are absent), within {@code timeout}.
     *
     * @throws KafkaUnavailableException when Kafka does not answer in time
     */
    Map<Integer, Long> committed(Duration timeout) throws KafkaUnavailableException;
}
