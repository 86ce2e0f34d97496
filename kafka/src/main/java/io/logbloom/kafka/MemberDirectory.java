package io.logbloom.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queriers' view of who owns which partitions, without a coordination service of our own: a
 * thread reads the compacted members topic from its beginning (no consumer group: every reader sees
 * every announcement) and keeps the newest announcement per member; a tombstone removes a member, and
 * one not re-announced within {@link ClusterConfig#memberTtl()} is left out (a killed ingester sends
 * no tombstone).
 *
 * <p>Thread-safe: the reader thread writes a concurrent map that {@link #live} reads.
 */
public final class MemberDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemberDirectory.class);

    private final ClusterConfig config;
    private final Clock clock;
    private final Map<String, Announcement> members = new ConcurrentHashMap<>();
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread reader;
    private volatile boolean running = true;

    /** Starts reading the members topic. */
    public MemberDirectory(ClusterConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        this.reader = new Thread(this::run, "logbloom-member-directory");
        reader.setDaemon(true);
        reader.start();
    }

    private void run() {
        try {
            while (running && !assign()) {
                Thread.sleep(500);
            }
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.key() == null) {
                        continue;
                    }
                    if (r.value() == null) {
                        members.remove(r.key());
                        continue;
                    }
                    try {
                        members.put(r.key(), Announcement.fromJson(r.value()));
                    } catch (RecordFormatException e) {
                        LOG.warn("ignoring record {} of topic {}: {}", r.key(), config.membersTopic(), e.getMessage());
                    }
                }
            }
        } catch (WakeupException | InterruptedException stopping) {
            // closed
        } catch (RuntimeException e) {
            LOG.error("member directory stopped reading {}: {}", config.membersTopic(), e.toString(), e);
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    /** Assigns every partition of the members topic from its start; false while the topic is not visible yet. */
    private boolean assign() {
        List<TopicPartition> parts = TopicPartitions.visible(consumer, config.membersTopic());
        if (parts.isEmpty()) {
            return false;
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        return true;
    }

    /** Members of {@code role} announced within the TTL, sorted by id. */
    public List<Announcement> live(String role) {
        long oldest = clock.millis() - config.memberTtl().toMillis();
        List<Announcement> out = new ArrayList<>();
        for (Announcement a : members.values()) {
            if (a.role().equals(role) && a.atMillis() >= oldest) {
                out.add(a);
            }
        }
        out.sort(java.util.Comparator.comparing(Announcement::id));
        return out;
    }

    /** Stops the reader thread. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
