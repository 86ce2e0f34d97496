package io.logbloom.kafka;

import io.logbloom.ingest.TailListener;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * Live tailing for the querier role: while at least one listener is registered, a thread reads
 * every partition of the push topic from its end (no consumer group, so it takes nothing from the
 * ingesters) and hands each record's entries to the listeners, as an ingester hands its accepted
 * pushes in the {@code all} target. Tail thus sees every push a distributor acknowledged, in order
 * per stream, a moment after its 204; entries an ingester later refuses for an owner-side limit
 * (active streams, order) are tailed nonetheless. Without listeners it reads nothing.
 *
 * <p>Thread-safe: listeners live in a copy-on-write list; the consumer is confined to its thread.
 */
public final class KafkaTailFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaTailFeed.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final ClusterConfig config;
    private final List<TailListener> listeners = new CopyOnWriteArrayList<>();
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;
    /** Written by the consumer thread only. */
    private volatile boolean assigned;

    /** Starts the (idle) reader thread. */
    public KafkaTailFeed(ClusterConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "logbloom-tail-feed");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts handing new pushes to {@code listener}; returns once the partitions' ends are resolved
     * (at most five seconds), so every push acknowledged after this returns is handed over.
     */
    public void addTailListener(TailListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener is null"));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!assigned && running && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops handing pushes to {@code listener}. */
    public void removeTailListener(TailListener listener) {
        listeners.remove(listener);
    }

    private void run() {
        try {
            while (running) {
                if (listeners.isEmpty()) {
                    if (assigned) {
                        consumer.unsubscribe();
                        assigned = false;
                    }
                    Thread.sleep(POLL.toMillis());
                    continue;
                }
                if (!assigned && !assign()) {
                    Thread.sleep(POLL.toMillis());
                    continue;
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                    dispatch(r);
                }
            }
        } catch (WakeupException | InterruptedException stopping) {
            // closed
        } catch (RuntimeException e) {
            LOG.error("tail feed stopped reading {}: {}", config.topic(), e.toString(), e);
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    /** Assigns every partition of the push topic at its end; false while the topic is not visible. */
    private boolean assign() {
        List<TopicPartition> parts = TopicPartitions.visible(consumer, config.topic());
        if (parts.isEmpty()) {
            return false;
        }
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        // resolve the end positions now, so a push acknowledged after this returns is tailed
        for (TopicPartition tp : parts) {
            consumer.position(tp);
        }
        assigned = true;
        return true;
    }

    private void dispatch(ConsumerRecord<String, byte[]> r) {
        PushRecord record;
        try {
            record = PushRecordCodec.decode(r.value());
        } catch (RecordFormatException e) {
            LOG.warn("tail feed skips record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            return;
        }
        for (TailListener l : listeners) {
            try {
                l.onEntries(record.tenant(), record.labels(), record.entries());
            } catch (RuntimeException e) {
                LOG.warn("tail listener {} failed: {}", l, e.toString());
            }
        }
    }

    /** Stops the reader thread. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
