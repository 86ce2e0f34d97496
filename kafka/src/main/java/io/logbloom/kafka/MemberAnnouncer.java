package io.logbloom.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes this member's {@link Announcement} on the compacted members topic every
 * {@code kafka.announce_interval} and at once when its partitions change; {@link #close} writes a
 * tombstone so readers drop the member without waiting for the TTL. Sending is fire-and-forget: a
 * lost announcement is repeated at the next interval.
 *
 * <p>Thread-safe: the partitions are a volatile immutable list; sends run on one scheduler thread.
 */
public final class MemberAnnouncer implements AutoCloseable {
    private final ClusterConfig config;
    private final Clock clock;
    private final String id;
    private final String role;
    private final String address;
    private final KafkaProducer<String, byte[]> producer;
    private final ScheduledExecutorService timer;
    private volatile List<Integer> partitions = List.of();

    /** Starts announcing member {@code id} of {@code role} reachable at {@code address}. */
    public MemberAnnouncer(ClusterConfig config, Clock clock, String id, String role, String address) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.id = Objects.requireNonNull(id, "id is null");
        this.role = Objects.requireNonNull(role, "role is null");
        this.address = Objects.requireNonNull(address, "address is null");
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) config.announceInterval().toMillis());
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "logbloom-member-announcer");
            t.setDaemon(true);
            return t;
        });
        long period = config.announceInterval().toMillis();
        timer.scheduleWithFixedDelay(this::announce, 0, period, TimeUnit.MILLISECONDS);
    }

    /** Sets the partitions this member owns and announces them now. */
    public void partitions(List<Integer> owned) {
        this.partitions = List.copyOf(owned);
        try {
            timer.execute(this::announce);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // closed: the tombstone is (being) written
        }
    }

    private void announce() {
        Announcement a = new Announcement(id, role, address, partitions, clock.millis());
        try {
            producer.send(new ProducerRecord<>(config.membersTopic(), id, a.toJson()));
        } catch (RuntimeException e) {
            // metadata unavailable (brokers down): the next interval retries
        }
    }

    /** Stops announcing and writes a tombstone (waiting up to one announce interval). */
    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(config.membersTopic(), id, null))
                    .get(config.announceInterval().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // readers drop the member after the TTL instead
        } finally {
            producer.close(Duration.ofSeconds(1));
        }
    }

    /** Stops without a tombstone, as a crash would (tests). */
    public void halt() {
        timer.shutdownNow();
        producer.close(Duration.ZERO);
    }
}
