package io.logbloom.kafka;

import io.logbloom.ingest.IngesterFailedException;
import io.logbloom.ingest.PushBackpressureException;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingester role's reader: a member of the ingesters' consumer group that feeds its partitions'
 * records to the {@link PartitionSink} and commits a partition's offset only once everything before
 * it is durable in the object store.
 *
 * <p><b>Protocol.</b> One thread polls, decodes and pushes, so when it stops polling every record
 * before each partition's position is in the ingester. Every {@code kafka.commit_interval}, and when
 * partitions are revoked (scale-up/down, a member joining or leaving), it notes the positions, calls
 * {@link PartitionSink#flushAll} (seal and merge everything into the object store) and then commits
 * those positions. A killed ingester thus loses nothing: its successor re-reads from the last commit,
 * and rows it stores a second time (flushed by the dead one after its last commit) are dropped by the
 * ingester's recent-entry check or, at query time, as identical entries of one stream. A record the
 * ingester cannot take now (memory budget, failed store) is retried in place; a record that cannot be
 * decoded is counted and skipped, since no retry can repair it. Entries the ingester refuses for a
 * limit it applies as the partition's owner (active streams, new series, order) are dropped, logged
 * and counted by the ingester: the push was acknowledged already, as in Loki.
 *
 * <p>Thread-safe: the Kafka consumer is confined to the consumer thread; {@link #close} and
 * {@link #halt} only set flags and call {@code wakeup}.
 */
public final class PartitionConsumer implements AutoCloseable, ConsumedOffsets {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionConsumer.class);
    /** Wait between retries of a record the ingester refused for now. */
    static final Duration RETRY_DELAY = Duration.ofMillis(200);

    private final ClusterConfig config;
    private final PartitionSink sink;
    private final Consumer<List<Integer>> assignmentListener;
    private final Clock clock;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private final KafkaMetrics metrics;
    /**
     * Owned partitions and the offset up to which each one's records are in the ingester (absent
     * while the position is not known yet); written by the consumer thread under its own monitor,
     * which {@link #awaitConsumed} waits on.
     */
    private final Map<Integer, Long> consumed = new HashMap<>();
    private final Set<Integer> owned = new TreeSet<>();
    private volatile boolean running = true;
    /** Names this consumer apart from any earlier one of the same ingester (a restart). */
    private final String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong());
    /** Rebalance callbacks so far: every rebalance of the group calls one on every member. */
    private final AtomicLong rebalances = new AtomicLong();
    /** When set, the thread stops without flushing or committing (a crash). */
    private volatile boolean halted;
    /** Consumer thread only. */
    private long lastCommitMillis;
    private boolean consumedSinceCommit;

    /** Joins the consumer group and starts consuming; {@code assignmentListener} gets the owned partitions on each change. */
    public PartitionConsumer(ClusterConfig config, PartitionSink sink, Consumer<List<Integer>> assignmentListener,
            Clock clock, KafkaMetrics metrics) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.sink = Objects.requireNonNull(sink, "sink is null");
        this.assignmentListener = Objects.requireNonNull(assignmentListener, "assignmentListener is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.consumer = new KafkaConsumer<>(properties(config), new StringDeserializer(), new ByteArrayDeserializer());
        this.lastCommitMillis = clock.millis();
        this.thread = new Thread(this::run, "logbloom-partition-consumer");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * This consumer and how many rebalances of the group it has taken part in, as {@code <nonce>.<count>}: equal in
     * two answers only when no member joined or left the group (and no partition moved) between them. With the
     * classic group protocol every rebalance calls a listener on every member (with the cooperative assignor, one
     * with no partitions for a member that keeps its own).
     */
    public String incarnation() {
        return nonce + "." + rebalances.get();
    }

    static Properties properties(ClusterConfig config) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumerGroup());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        int session = (int) config.sessionTimeout().toMillis();
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, session);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(100, session / 3));
        // a flush of everything runs between two polls: allow it time
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 10 * 60 * 1000);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        p.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return p;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(config.topic()), new Rebalance());
            while (running) {
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
                // the position passed every polled record: one not applied must be read again
                Map<TopicPartition, Long> notApplied = new HashMap<>();
                for (ConsumerRecord<String, byte[]> r : records) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (halted || notApplied.containsKey(tp) || !apply(r)) {
                        notApplied.putIfAbsent(tp, r.offset());
                    }
                }
                notApplied.forEach(consumer::seek);
                notePositions();
                if (running && consumedSinceCommit
                        && clock.millis() - lastCommitMillis >= config.commitInterval().toMillis()) {
                    flushAndCommit(consumer.assignment());
                }
            }
            if (!halted) {
                flushAndCommit(consumer.assignment());
            }
        } catch (WakeupException stopping) {
            if (!halted) {
                flushAndCommit(consumer.assignment());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("partition consumer stopped: {}", e.toString(), e);
        } finally {
            consumer.close(halted ? Duration.ZERO : Duration.ofSeconds(5));
        }
    }

    /** Publishes the position of every owned partition (everything before it is in the ingester). */
    private void notePositions() {
        Map<Integer, Long> now = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            try {
                now.put(tp.partition(), consumer.position(tp, Duration.ZERO));
            } catch (org.apache.kafka.common.errors.TimeoutException | IllegalStateException notKnownYet) {
                // the committed offset is still being fetched: the partition counts as not caught up
            }
        }
        synchronized (consumed) {
            consumed.keySet().retainAll(owned);
            now.keySet().retainAll(owned);
            consumed.putAll(now);
            consumed.notifyAll();
        }
    }

    @Override
    public CatchUp awaitConsumed(Map<Integer, Long> targets, Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        synchronized (consumed) {
            while (true) {
                Map<Integer, Long> behind = new java.util.TreeMap<>();
                Set<Integer> caughtUp = new TreeSet<>();
                for (Map.Entry<Integer, Long> t : targets.entrySet()) {
                    if (!owned.contains(t.getKey())) {
                        continue;
                    }
                    long reached = consumed.getOrDefault(t.getKey(), -1L);
                    if (reached < t.getValue()) {
                        behind.put(t.getKey(), reached);
                    } else {
                        caughtUp.add(t.getKey());
                    }
                }
                long left = deadline - System.nanoTime();
                if (behind.isEmpty() || left <= 0 || !running) {
                    return new CatchUp(caughtUp, behind);
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(consumed, left);
            }
        }
    }

    /**
     * Pushes one record, retrying while the ingester refuses it for now; skips a record that cannot be
     * decoded. False when stopping before the record was stored.
     */
    private boolean apply(ConsumerRecord<String, byte[]> r) throws InterruptedException {
        PushRecord record;
        try {
            record = PushRecordCodec.decode(r.value());
        } catch (RecordFormatException e) {
            metrics.recordSkipped();
            LOG.error("skipping record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            return true;
        }
        List<PushStream> streams = List.of(new PushStream(record.labels().toString(), record.entries()));
        while (running) {
            try {
                PushResult result = sink.pushAdmitted(record.tenant(), streams);
                if (!result.errors().isEmpty()) {
                    LOG.warn("record {}-{}@{}: {} entries rejected: {}", r.topic(), r.partition(), r.offset(),
                            result.rejectedEntries(), result.errorMessage());
                }
                metrics.recordConsumed(r.partition(), record.entries().size());
                consumedSinceCommit = true;
                return true;
            } catch (PushBackpressureException | IngesterFailedException e) {
                metrics.recordRetried();
                Thread.sleep(RETRY_DELAY.toMillis());
            } catch (IOException e) {
                metrics.recordRetried();
                LOG.warn("storing record {}-{}@{} failed, retrying: {}", r.topic(), r.partition(), r.offset(),
                        e.toString());
                Thread.sleep(RETRY_DELAY.toMillis());
            }
        }
        return false;
    }

    /**
     * Notes the positions of {@code partitions}, flushes everything the ingester holds into the object
     * store and commits the positions; on a failed flush nothing is committed (the records are read
     * again after a reassignment, and the next interval retries).
     */
    private void flushAndCommit(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            positions.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        }
        long start = System.nanoTime();
        try {
            sink.flushAll();
        } catch (IOException | RuntimeException e) {
            LOG.warn("flush before committing offsets failed; not committing {}: {}", positions.values(), e.toString());
            lastCommitMillis = clock.millis();
            return;
        }
        try {
            consumer.commitSync(positions, config.produceTimeout());
            metrics.committed((System.nanoTime() - start) / 1e9);
            consumedSinceCommit = false;
        } catch (WakeupException stopping) {
            // close() woke the consumer during the commit: the final flush-and-commit follows
        } catch (KafkaException e) {
            // data is in the store: after a reassignment it is read again and deduplicated
            LOG.warn("committing offsets {} failed: {}", positions, e.toString());
        }
        lastCommitMillis = clock.millis();
    }

    /** Flushes and commits what is revoked before the partitions move; reports each change of ownership. */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            rebalances.incrementAndGet();
            if (!halted) {
                flushAndCommit(revoked);
            }
            report(revoked, false);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            rebalances.incrementAndGet();
            // another member owns them already: committing now would be refused
            report(lost, false);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            rebalances.incrementAndGet();
            report(assigned, true);
        }

        private void report(Collection<TopicPartition> changed, boolean added) {
            Set<Integer> owned = new TreeSet<>();
            for (TopicPartition tp : consumer.assignment()) {
                owned.add(tp.partition());
            }
            if (!added) {
                for (TopicPartition tp : changed) {
                    owned.remove(tp.partition());
                }
            }
            LOG.info("partitions {}: {}; now owning {}", added ? "assigned" : "revoked", changed, owned);
            synchronized (consumed) {
                PartitionConsumer.this.owned.clear();
                PartitionConsumer.this.owned.addAll(owned);
                consumed.keySet().retainAll(owned);
                consumed.notifyAll();
            }
            assignmentListener.accept(new ArrayList<>(owned));
        }
    }

    /** Stops consuming: flushes and commits what was consumed, then leaves the group (its partitions move at once). */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        join();
    }

    /** Stops without flushing or committing, as a crash would (tests); its partitions move to the other members. */
    public void halt() {
        halted = true;
        running = false;
        consumer.wakeup();
        join();
    }

    private void join() {
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
