package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.PushGate;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka write path against a real KRaft broker: produce, consume with flush-then-commit, crash, outage. */
final class KafkaWritePathTest {
    @TempDir
    static Path dir;
    static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(dir.resolve("kafka"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** A cluster config with a produce timeout roomy enough for a loaded CI box (3 s timed out once at load 18). */
    private static ClusterConfig config(String name) {
        return config(name, Duration.ofSeconds(15));
    }

    private static ClusterConfig config(String name, Duration produceTimeout) {
        return new ClusterConfig(broker.bootstrapServers(), name + "-push", 4, (short) 1, name + "-members",
                name + "-group", ClusterConfig.MIN_RECORD_BYTES, Duration.ofMillis(300), produceTimeout,
                Duration.ofMillis(300), Duration.ofSeconds(2), "", 1);
    }

    /** An ingester stand-in: keeps what it is given, and what was "durable" at each flush. */
    static class RecordingSink implements PartitionSink {
        final List<String> stored = new CopyOnWriteArrayList<>();
        volatile int flushes;

        @Override
        public PushResult pushAdmitted(String tenant, List<PushStream> streams) {
            for (PushStream s : streams) {
                for (LogEntry e : s.entries()) {
                    stored.add(tenant + " " + s.labels() + " " + e.line());
                }
            }
            return new PushResult(streams.stream().mapToInt(s -> s.entries().size()).sum(), 0, List.of(), false);
        }

        @Override
        public void flushAll() {
            flushes++;
        }
    }

    private static List<PushGate.Stream> streams(int pushNumber, int streamCount, int linesPerStream, int lineBytes) {
        List<PushGate.Stream> out = new ArrayList<>();
        for (int s = 0; s < streamCount; s++) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < linesPerStream; i++) {
                String line = "push" + pushNumber + "-line" + i + " ";
                entries.add(LogEntry.of(1_700_000_000_000_000_000L + i, line + "x".repeat(Math.max(0, lineBytes - line.length()))));
            }
            out.add(new PushGate.Stream(Labels.of("app", "a" + s), entries));
        }
        return out;
    }

    private static Set<String> expected(String tenant, int pushes, int streamCount, int lines, int lineBytes) {
        Set<String> out = new HashSet<>();
        for (int p = 0; p < pushes; p++) {
            for (PushGate.Stream s : streams(p, streamCount, lines, lineBytes)) {
                for (LogEntry e : s.entries()) {
                    out.add(tenant + " " + s.labels() + " " + e.line());
                }
            }
        }
        return out;
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    private static Map<TopicPartition, Long> committed(ClusterConfig c) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrapServers()))) {
            Map<TopicPartition, Long> out = new ConcurrentHashMap<>();
            admin.listConsumerGroupOffsets(c.consumerGroup()).partitionsToOffsetAndMetadata().get()
                    .forEach((tp, o) -> {
                        if (o != null && o.offset() > 0) {
                            out.put(tp, o.offset());
                        }
                    });
            return out;
        }
    }

    private static Map<TopicPartition, Long> endOffsets(ClusterConfig c) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> ask = new java.util.HashMap<>();
            for (int p = 0; p < c.partitions(); p++) {
                ask.put(new TopicPartition(c.topic(), p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> out = new java.util.HashMap<>();
            admin.listOffsets(ask).all().get().forEach((tp, info) -> {
                if (info.offset() > 0) {
                    out.put(tp, info.offset());
                }
            });
            return out;
        }
    }

    @Test
    void strongRead_waitsUntilOwnedPartitionsConsumedUpToLastProducedOffsets() throws Exception {
        ClusterConfig c = config("strong");
        TopicSetup.ensure(c, Duration.ofSeconds(30));
        KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
        // a slow ingester: 30 ms per record, so the consumer lags behind the 204s
        RecordingSink slow = new RecordingSink() {
            @Override
            public PushResult pushAdmitted(String tenant, List<PushStream> streams) {
                try {
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.pushAdmitted(tenant, streams);
            }
        };
        List<List<Integer>> assignments = new CopyOnWriteArrayList<>();
        try (PushProducer producer = new PushProducer(c, metrics);
                KafkaPartitionOffsets produced = new KafkaPartitionOffsets(c);
                PartitionConsumer consumer = new PartitionConsumer(c, slow, assignments::add, Clock.systemUTC(), metrics)) {
            await(() -> !assignments.isEmpty() && assignments.get(assignments.size() - 1).size() == 4,
                    Duration.ofSeconds(30), "all partitions assigned");
            assertThat(consumer.awaitConsumed(produced.produced(Duration.ofSeconds(5)), Duration.ofSeconds(10)).behind())
                    .isEmpty();
            int before = slow.stored.size();
            for (int p = 0; p < 40; p++) {
                producer.send("t1", streams(p, 1, 1, 10));
            }
            Map<Integer, Long> last = produced.produced(Duration.ofSeconds(5));
            assertThat(last.keySet()).containsExactlyInAnyOrder(0, 1, 2, 3);
            // eventual: right after the acknowledgements the ingester is behind (40 records take 1.2 s)
            Map<Integer, Long> behind = consumer.awaitConsumed(last, Duration.ZERO).behind();
            assertThat(behind).isNotEmpty();
            assertThat(slow.stored.size() - before).isLessThan(40);
            // strong: the wait returns once every acknowledged record is in the ingester
            ConsumedOffsets.CatchUp caughtUp = consumer.awaitConsumed(last, Duration.ofSeconds(30));
            assertThat(caughtUp.behind()).isEmpty();
            assertThat(caughtUp.caughtUp()).containsExactlyInAnyOrder(0, 1, 2, 3);
            assertThat(slow.stored.size() - before).isEqualTo(40);
            // bounded: an offset never produced is reported as not reached, with the offset reached
            Map<Integer, Long> beyond = Map.of(0, last.get(0) + 1_000);
            assertThat(consumer.awaitConsumed(beyond, Duration.ofMillis(300)).behind()).containsEntry(0, last.get(0));
            // partitions this consumer does not own are not waited for, and not answered for
            ConsumedOffsets.CatchUp notOwned = consumer.awaitConsumed(Map.of(99, 5L), Duration.ofSeconds(5));
            assertThat(notOwned.behind()).isEmpty();
            assertThat(notOwned.caughtUp()).isEmpty();
        }
    }

    /**
     * What a querier returns, as "tenant labels line": the unflushed rows the strong read collects and
     * the lines in the bucket.
     */
    private static Set<String> strongRead(RemoteUnflushedSource source, Set<String> bucket) {
        // the bucket is read after the ingesters, as the querier reads the index after them
        Set<String> out = new HashSet<>();
        for (io.logbloom.querier.UnflushedSource.Stream s : source.unflushed("t1", List.of(), 0, Long.MAX_VALUE)) {
            s.entries().forEach(e -> out.add(TestIngesterNode.line(s.labels(), e)));
        }
        bucket.forEach(line -> out.add(line));
        return out;
    }

    private static int push(PushProducer producer, int pushNumber, Set<String> acknowledged) throws Exception {
        List<PushGate.Stream> streams = streams(pushNumber, 12, 5, 20);
        int records = producer.send("t1", streams);
        for (PushGate.Stream s : streams) {
            s.entries().forEach(e -> acknowledged.add("t1 " + s.labels() + " " + e.line()));
        }
        return records;
    }

    /**
     * The partition handover the strong read used to miss: an owner dies holding acknowledged lines it
     * never flushed (and lines still in its consumer lag); a strong read issued at once must wait for
     * the successor and see every line. With no ingester left it answers 503 naming the partitions
     * (never a partial answer); once a graceful stop has committed everything, the bucket covers it.
     */
    @Test
    void strongRead_ownerKilled_waitsForSuccessorOr503_neverPartial() throws Exception {
        ClusterConfig base = config("handover");
        // nothing is committed until a graceful stop: what the ingesters consumed stays unflushed
        ClusterConfig c = new ClusterConfig(base.bootstrapServers(), base.topic(), base.partitions(),
                base.replicationFactor(), base.membersTopic(), base.consumerGroup(), base.maxRecordBytes(),
                Duration.ofHours(1), base.produceTimeout(), base.announceInterval(), base.sessionTimeout(), "", 1);
        TopicSetup.ensure(c, Duration.ofSeconds(30));
        KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
        Set<String> bucket = ConcurrentHashMap.newKeySet();
        Set<String> acknowledged = new HashSet<>();
        try (PushProducer producer = new PushProducer(c, metrics);
                MemberDirectory directory = new MemberDirectory(c, Clock.systemUTC());
                KafkaPartitionOffsets offsets = new KafkaPartitionOffsets(c)) {
            RemoteUnflushedSource patient = new RemoteUnflushedSource(() -> directory.live("ingester"),
                    Duration.ofSeconds(40), offsets, metrics);
            RemoteUnflushedSource hurried = new RemoteUnflushedSource(() -> directory.live("ingester"),
                    Duration.ofSeconds(1), offsets, metrics);
            TestIngesterNode a = new TestIngesterNode(c, "a", bucket, metrics);
            TestIngesterNode b = new TestIngesterNode(c, "b", bucket, metrics);
            try {
                await(() -> directory.live("ingester").size() == 2
                        && directory.live("ingester").stream().noneMatch(m -> m.partitions().isEmpty())
                        && directory.live("ingester").stream().mapToInt(m -> m.partitions().size()).sum() == 4,
                        Duration.ofSeconds(30), "two ingesters sharing the four partitions");
                push(producer, 0, acknowledged);
                assertThat(strongRead(patient, bucket)).isEqualTo(acknowledged);

                // b dies holding push 0 unflushed; push 1 lands partly in its partitions, now ownerless
                b.halt();
                push(producer, 1, acknowledged);
                assertThat(strongRead(patient, bucket)).as("strong read right after the owner died")
                        .isEqualTo(acknowledged);

                // no ingester left: uncovered partitions are named in a 503, nothing partial is answered
                a.halt();
                push(producer, 2, acknowledged);
                assertThatThrownBy(() -> strongRead(hurried, bucket)).isInstanceOf(NotCaughtUpException.class)
                        .hasMessageContaining("are not covered after 500 ms")
                        .hasMessageContaining("committed offsets");
            } finally {
                a.halt();
                b.halt();
            }
            // a new ingester re-reads everything from the last commit (none), then stops gracefully
            try (TestIngesterNode successor = new TestIngesterNode(c, "c", bucket, metrics)) {
                assertThat(strongRead(patient, bucket)).isEqualTo(acknowledged);
            }
            // no ingester, but the commit covers every partition: answered from the bucket at once
            assertThat(bucket).isEqualTo(acknowledged);
            assertThat(strongRead(hurried, bucket)).isEqualTo(acknowledged);
        }
    }

    @Test
    void producedStreams_consumedInOrder_committedAfterFlush() throws Exception {
        ClusterConfig c = config("order");
        TopicSetup.ensure(c, Duration.ofSeconds(30));
        KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
        RecordingSink sink = new RecordingSink();
        List<List<Integer>> assignments = new CopyOnWriteArrayList<>();
        try (PushProducer producer = new PushProducer(c, metrics);
                PartitionConsumer consumer = new PartitionConsumer(c, sink, assignments::add, Clock.systemUTC(), metrics)) {
            // 6 streams of 120 lines of 1 KiB: each stream is split over several 64 KiB records
            int records = 0;
            for (int p = 0; p < 3; p++) {
                records += producer.send("t1", streams(p, 6, 120, 1024));
            }
            assertThat(records).isGreaterThan(3 * 6);
            Set<String> want = expected("t1", 3, 6, 120, 1024);
            await(() -> sink.stored.size() >= want.size(), Duration.ofSeconds(60), "all entries consumed");
            assertThat(sink.stored).hasSize(want.size());
            assertThat(new HashSet<>(sink.stored)).isEqualTo(want);
            // per stream the order of the push is kept across split records
            for (int s = 0; s < 6; s++) {
                String prefix = "t1 {app=\"a" + s + "\"} ";
                List<String> ofStream = sink.stored.stream().filter(x -> x.startsWith(prefix)).toList();
                List<String> sorted = new ArrayList<>(ofStream);
                sorted.sort(java.util.Comparator.comparingInt((String x) -> Integer.parseInt(x.split("push")[1].split("-")[0]))
                        .thenComparingInt(x -> Integer.parseInt(x.split("-line")[1].split(" ")[0])));
                assertThat(ofStream).isEqualTo(sorted);
            }
            Map<TopicPartition, Long> end = endOffsets(c);
            await(() -> {
                try {
                    return committed(c).equals(end);
                } catch (Exception e) {
                    return false;
                }
            }, Duration.ofSeconds(30), "offsets committed to the end");
            assertThat(sink.flushes).isPositive();
            assertThat(assignments.get(assignments.size() - 1)).containsExactlyInAnyOrder(0, 1, 2, 3);
        }
    }

    @Test
    void haltedConsumer_successorRereadsFromLastCommit_nothingLost() throws Exception {
        ClusterConfig base = config("crash");
        // the first consumer commits once (after the first pushes), then never again before it dies
        ClusterConfig rarely = new ClusterConfig(base.bootstrapServers(), base.topic(), base.partitions(),
                base.replicationFactor(), base.membersTopic(), base.consumerGroup(), base.maxRecordBytes(),
                Duration.ofHours(1), base.produceTimeout(), base.announceInterval(), base.sessionTimeout(), "", 1);
        TopicSetup.ensure(base, Duration.ofSeconds(30));
        KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
        RecordingSink first = new RecordingSink();
        RecordingSink second = new RecordingSink();
        try (PushProducer producer = new PushProducer(base, metrics)) {
            PartitionConsumer crashing = new PartitionConsumer(rarely, first, x -> { }, Clock.systemUTC(), metrics);
            for (int p = 0; p < 4; p++) {
                producer.send("t1", streams(p, 4, 20, 100));
            }
            Set<String> want = expected("t1", 4, 4, 20, 100);
            await(() -> first.stored.size() >= want.size(), Duration.ofSeconds(60), "first consumer caught up");
            crashing.halt();
            assertThat(first.flushes).isZero();
            assertThat(committed(base)).isEmpty();
            // nothing the first one held was durable: its successor must read all of it again from Kafka
            try (PartitionConsumer successor = new PartitionConsumer(base, second, x -> { }, Clock.systemUTC(), metrics)) {
                await(() -> new HashSet<>(second.stored).containsAll(want), Duration.ofSeconds(60),
                        "successor re-read what was not committed");
            }
            assertThat(committed(base)).isEqualTo(endOffsets(base));
        }
    }

    @Test
    void brokerDown_sendRefusedWithinTimeout_thenRecovers() throws Exception {
        ClusterConfig c = config("outage", Duration.ofSeconds(3));
        TopicSetup.ensure(c, Duration.ofSeconds(30));
        KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
        try (PushProducer producer = new PushProducer(c, metrics)) {
            assertThat(producer.send("t1", streams(0, 1, 1, 10))).isEqualTo(1);
            broker.stop();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> producer.send("t1", streams(1, 1, 1, 10)))
                        .isInstanceOf(KafkaUnavailableException.class)
                        .hasMessageContaining("kafka.produce_timeout");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            } finally {
                broker.startAgain();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                try {
                    assertThat(producer.send("t1", streams(2, 1, 1, 10))).isEqualTo(1);
                    break;
                } catch (KafkaUnavailableException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                }
            }
        }
    }
}
