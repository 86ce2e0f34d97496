package io.logbloom.kafka;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the scale-out roles (YAML section {@code kafka:}). Immutable.
 *
 * @param bootstrapServers Kafka's {@code bootstrap.servers}, comma-separated {@code host:port}
 * @param topic the push topic: one record per stream slice, keyed by tenant and stream labels
 * @param partitions partitions of the push topic when it is created (the most ingesters that share the load)
 * @param replicationFactor replication factor of the topics when they are created
 * @param membersTopic compacted topic where ingesters announce their address and partitions
 * @param consumerGroup the ingesters' consumer group
 * @param maxRecordBytes largest record value a distributor writes; a stream's entries are split above it
 * @param commitInterval how often an ingester flushes everything to the object store and then commits its offsets
 * @param produceTimeout how long a distributor waits for Kafka's acknowledgement before answering 503
 * @param announceInterval how often a member re-announces itself; it counts as gone after three intervals
 * @param sessionTimeout the ingesters' consumer session timeout: how soon a dead ingester's partitions move
 * @param advertiseAddress {@code host:port} queriers use to reach this ingester; empty = the listen address and port
 * @param distributors how many distributors share the per-tenant limits: each applies limit / distributors
 * @param readConsistency {@code strong} (default): a querier reads the partitions' last produced offsets and
 *     each ingester answers only once it consumed up to them, so a query sees every line acknowledged before
 *     it; {@code eventual}: ingesters answer at once with what they consumed so far (Mimir's and Loki's
 *     ingest-storage names)
 */
public record ClusterConfig(
        String bootstrapServers,
        String topic,
        int partitions,
        short replicationFactor,
        String membersTopic,
        String consumerGroup,
        int maxRecordBytes,
        Duration commitInterval,
        Duration produceTimeout,
        Duration announceInterval,
        Duration sessionTimeout,
        String advertiseAddress,
        int distributors,
        String readConsistency) {

    /** The {@code read_consistency} value that makes ingesters catch up before answering. */
    public static final String STRONG = "strong";
    /** The {@code read_consistency} value that answers with what was consumed so far. */
    public static final String EVENTUAL = "eventual";

    /**
     * Smallest record bound: it must hold one entry of the longest line Loki accepts by default
     * (256 KiB) plus its metadata and the record header.
     */
    public static final int MIN_RECORD_BYTES = 64 * 1024;

    /** Validates. */
    public ClusterConfig {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireName("kafka.topic", topic);
        requireName("kafka.members_topic", membersTopic);
        requireName("kafka.consumer_group", consumerGroup);
        Objects.requireNonNull(advertiseAddress, "advertiseAddress is null");
        if (partitions < 1) {
            throw new IllegalArgumentException("kafka.partitions must be at least 1: " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("kafka.replication_factor must be at least 1: " + replicationFactor);
        }
        if (maxRecordBytes < MIN_RECORD_BYTES) {
            throw new IllegalArgumentException("kafka.max_record_size must be at least " + MIN_RECORD_BYTES + " bytes: "
                    + maxRecordBytes);
        }
        if (distributors < 1) {
            throw new IllegalArgumentException("kafka.distributors must be at least 1: " + distributors);
        }
        if (!STRONG.equals(readConsistency) && !EVENTUAL.equals(readConsistency)) {
            throw new IllegalArgumentException("kafka.read_consistency must be strong or eventual: " + readConsistency);
        }
        requirePositive("kafka.commit_interval", commitInterval);
        requirePositive("kafka.produce_timeout", produceTimeout);
        requirePositive("kafka.announce_interval", announceInterval);
        requirePositive("kafka.session_timeout", sessionTimeout);
    }

    /** A configuration with strong read consistency. */
    public ClusterConfig(String bootstrapServers, String topic, int partitions, short replicationFactor,
            String membersTopic, String consumerGroup, int maxRecordBytes, Duration commitInterval,
            Duration produceTimeout, Duration announceInterval, Duration sessionTimeout, String advertiseAddress,
            int distributors) {
        this(bootstrapServers, topic, partitions, replicationFactor, membersTopic, consumerGroup, maxRecordBytes,
                commitInterval, produceTimeout, announceInterval, sessionTimeout, advertiseAddress, distributors, STRONG);
    }

    /** Whether queriers make ingesters catch up to the last produced offsets before answering. */
    public boolean strongReads() {
        return STRONG.equals(readConsistency);
    }

    /** The defaults: no brokers (the {@code all} target needs none), 16 partitions, 1 MiB records, 30 s commits. */
    public static ClusterConfig defaults() {
        return new ClusterConfig("", "logbloom-push", 16, (short) 1, "logbloom-members", "logbloom-ingesters",
                1 << 20, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofSeconds(15), "", 1);
    }

    /** A copy with other brokers. */
    public ClusterConfig withBootstrapServers(String servers) {
        return new ClusterConfig(servers, topic, partitions, replicationFactor, membersTopic, consumerGroup,
                maxRecordBytes, commitInterval, produceTimeout, announceInterval, sessionTimeout, advertiseAddress,
                distributors, readConsistency);
    }

    /** How long an announcement stays valid without a newer one. */
    public Duration memberTtl() {
        return announceInterval.multipliedBy(3);
    }

    private static void requireName(String key, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(key + " must not be empty");
        }
    }

    private static void requirePositive(String key, Duration value) {
        Objects.requireNonNull(value, key + " is null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive: " + value);
        }
    }
}
