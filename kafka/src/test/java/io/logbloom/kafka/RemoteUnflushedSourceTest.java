package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.querier.UnflushedSource;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The strong-read coverage rule of {@link RemoteUnflushedSource}, with fake offsets, announcements and ingesters. */
final class RemoteUnflushedSourceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** Produced and committed offsets set by the test; counts the committed reads. */
    private static final class FakeOffsets implements PartitionOffsets {
        volatile Map<Integer, Long> produced = Map.of();
        volatile Map<Integer, Long> committed = Map.of();
        final AtomicInteger committedReads = new AtomicInteger();

        @Override
        public Map<Integer, Long> produced(Duration timeout) {
            return produced;
        }

        @Override
        public Map<Integer, Long> committed(Duration timeout) {
            committedReads.incrementAndGet();
            return committed;
        }
    }

    /** Ingesters by address: each answers with the function set for it; records every request. */
    private static final class FakeIngesters implements UnflushedClient {
        final Map<String, Function<UnflushedRequest, CompletableFuture<Reply>>> behaviour = new ConcurrentHashMap<>();
        final List<String> asked = new CopyOnWriteArrayList<>();
        final List<UnflushedRequest> requests = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<Reply> ask(Announcement member, UnflushedRequest request) {
            asked.add(member.address());
            requests.add(request);
            return behaviour.get(member.address()).apply(request);
        }

        long asks(String address) {
            return asked.stream().filter(address::equals).count();
        }
    }

    /** An ingester owning {@code owned}: answers for the requested ones, with {@code lines} as rows. */
    private static Function<UnflushedRequest, CompletableFuture<UnflushedClient.Reply>> owning(Set<Integer> owned,
            String... lines) {
        return request -> {
            Set<Integer> caughtUp = new TreeSet<>(request.offsets().keySet());
            caughtUp.retainAll(owned);
            return CompletableFuture.completedFuture(new UnflushedClient.Reply(rows(lines), caughtUp));
        };
    }

    private static Function<UnflushedRequest, CompletableFuture<UnflushedClient.Reply>> refusing() {
        return request -> CompletableFuture.failedFuture(new ConnectException("Connection refused"));
    }

    private static List<PushRecord> rows(String... lines) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            entries.add(LogEntry.of(1_000L + i, lines[i]));
        }
        return entries.isEmpty() ? List.of() : List.of(new PushRecord("t", Labels.of("app", "a"), entries));
    }

    private static Announcement member(String address, Integer... partitions) {
        return new Announcement("id-" + address, "ingester", address, List.of(partitions), 0);
    }

    private static Set<String> lines(List<UnflushedSource.Stream> streams) {
        Set<String> out = new TreeSet<>();
        for (UnflushedSource.Stream s : streams) {
            for (LogEntry e : s.entries()) {
                out.add(e.line());
            }
        }
        return out;
    }

    private final FakeOffsets offsets = new FakeOffsets();
    private final FakeIngesters ingesters = new FakeIngesters();
    private volatile List<Announcement> announced = List.of();
    private final io.prometheus.metrics.model.registry.PrometheusRegistry registry =
            new io.prometheus.metrics.model.registry.PrometheusRegistry();
    private final KafkaMetrics metrics = new KafkaMetrics(registry);

    private double waits(String outcome) {
        return registry.scrape().stream().filter(m -> m.getMetadata().getPrometheusName()
                .equals("logbloom_kafka_strong_read_waits")).flatMap(m -> ((io.prometheus.metrics.model.snapshots
                        .CounterSnapshot) m).getDataPoints().stream())
                .filter(d -> d.getLabels().get("outcome").equals(outcome))
                .mapToDouble(io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot::getValue)
                .sum();
    }

    private RemoteUnflushedSource source(Duration timeout) {
        return new RemoteUnflushedSource(() -> announced, timeout, offsets, ingesters, metrics);
    }

    private List<UnflushedSource.Stream> read(RemoteUnflushedSource source) {
        return source.unflushed("t", List.of(), 0, Long.MAX_VALUE);
    }

    @Test
    void everyPartitionOwned_oneRequestPerIngester_committedNotRead() {
        offsets.produced = Map.of(0, 5L, 1, 7L, 2, 0L);
        announced = List.of(member("a", 0), member("b", 1, 2));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        ingesters.behaviour.put("b", owning(Set.of(1, 2), "b1"));

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1", "b1");
        assertThat(ingesters.asked).containsExactlyInAnyOrder("a", "b");
        assertThat(offsets.committedReads).hasValue(0);
        assertThat(waits("covered") + waits("not_covered")).isZero();
        // a partition nothing was produced to needs no owner and is not waited for
        assertThat(ingesters.requests.get(0).offsets()).containsOnlyKeys(0, 1);
    }

    @Test
    void ownerMissing_withLag_waitsThen503NamingThePartition() {
        offsets.produced = Map.of(0, 5L, 1, 7L);
        offsets.committed = Map.of(1, 3L);
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        Duration timeout = Duration.ofMillis(1200);

        long start = System.nanoTime();
        assertThatThrownBy(() -> read(source(timeout)))
                .isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("partitions [1] are not covered")
                .hasMessageContaining("{1=7}")
                .hasMessageContaining("{1=3}");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(timeout.dividedBy(2));
        // re-checked while waiting; nobody announces partition 1, so nobody is asked again
        assertThat(offsets.committedReads.get()).isGreaterThan(1);
        assertThat(ingesters.asks("a")).isEqualTo(1);
        assertThat(waits("not_covered")).isEqualTo(1);
    }

    @Test
    void ownerMissing_committedReachesProduced_answersAtOnceFromTheBucket() {
        offsets.produced = Map.of(0, 5L, 1, 7L);
        offsets.committed = Map.of(0, 2L, 1, 7L);
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1");
        assertThat(offsets.committedReads).hasValue(1);
        assertThat(ingesters.asks("a")).isEqualTo(1);
    }

    @Test
    void staleAnnouncementOfExOwner_notCounted_successorWaitedFor() {
        offsets.produced = Map.of(0, 5L, 1, 7L);
        // b still announces partition 1 but answers that it no longer owns it (it moved away)
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        AtomicInteger bAsks = new AtomicInteger();
        ingesters.behaviour.put("b", request -> {
            if (bAsks.incrementAndGet() == 3) {
                // the successor a takes partition 1 over and announces it
                ingesters.behaviour.put("a", owning(Set.of(0, 1), "a1", "p1-reread"));
                announced = List.of(member("a", 0, 1), member("b", 1));
            }
            return owning(Set.of()).apply(request);
        });

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1", "p1-reread");
        assertThat(bAsks.get()).isGreaterThanOrEqualTo(3);
        // retries ask only for the uncovered partition
        assertThat(ingesters.requests.get(ingesters.requests.size() - 1).offsets()).containsOnlyKeys(1);
    }

    @Test
    void staleAnnouncementOfExOwner_noSuccessor_503() {
        offsets.produced = Map.of(0, 5L, 1, 7L);
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        ingesters.behaviour.put("b", owning(Set.of()));

        assertThatThrownBy(() -> read(source(Duration.ofMillis(800))))
                .isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("partitions [1] are not covered");
        assertThat(ingesters.asks("b")).isGreaterThan(1);
    }

    @Test
    void killedOwnerRefusesConnections_successorTakesOver_everyLine() {
        offsets.produced = Map.of(0, 5L, 1, 7L);
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        AtomicInteger refused = new AtomicInteger();
        ingesters.behaviour.put("b", request -> {
            if (refused.incrementAndGet() == 2) {
                ingesters.behaviour.put("c", owning(Set.of(1), "p1-reread"));
                announced = List.of(member("a", 0), member("b", 1), member("c", 1));
            }
            return refusing().apply(request);
        });

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1", "p1-reread");
        assertThat(ingesters.asks("c")).isEqualTo(1);
        assertThat(waits("covered")).isEqualTo(1);
    }

    @Test
    void ownerBehindAfterItsWait_failsTheQuery() {
        offsets.produced = Map.of(0, 5L);
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", request -> CompletableFuture.failedFuture(
                new NotCaughtUpException("ingester a: partitions {0=3} behind")));

        assertThatThrownBy(() -> read(source(TIMEOUT))).isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("{0=3}");
    }

    @Test
    void ownerFailing_countsForNoPartition_503NamesItsFailure() {
        offsets.produced = Map.of(0, 5L);
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", request -> CompletableFuture.failedFuture(new java.io.IOException("status 500")));

        assertThatThrownBy(() -> read(source(Duration.ofMillis(600)))).isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("partitions [0] are not covered")
                .hasMessageContaining("id-a=java.io.IOException: status 500");
    }

    @Test
    void ownerStillStarting_askedAgainWithinTheBudget_answersOnceItConsumes() {
        offsets.produced = Map.of(0, 5L, 1, 2L);
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        AtomicInteger startingAnswers = new AtomicInteger(2);
        Function<UnflushedRequest, CompletableFuture<UnflushedClient.Reply>> consuming = owning(Set.of(1), "b1");
        ingesters.behaviour.put("b", request -> startingAnswers.getAndDecrement() > 0
                ? CompletableFuture.failedFuture(new IngesterStartingException(
                        "ingester b: Ingester not ready: not consuming Kafka yet"))
                : consuming.apply(request));

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1", "b1");
        assertThat(ingesters.asks("b")).isEqualTo(3);
        assertThat(ingesters.asks("a")).as("only the uncovered partition's owner is asked again").isEqualTo(1);
        assertThat(waits("covered")).isEqualTo(1);
    }

    @Test
    void ownerStartingForTheWholeBudget_503NamesThePartitionAndWhy() {
        offsets.produced = Map.of(0, 5L);
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", request -> CompletableFuture.failedFuture(new IngesterStartingException(
                "ingester a: Ingester not ready: not consuming Kafka yet")));
        Duration timeout = Duration.ofMillis(800);

        long start = System.nanoTime();
        assertThatThrownBy(() -> read(source(timeout))).isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("partitions [0] are not covered")
                .hasMessageContaining("not consuming Kafka yet");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(timeout.dividedBy(2));
        assertThat(ingesters.asks("a")).isGreaterThan(1);
    }

    @Test
    void failingNonOwner_ignoredWhenEveryPartitionIsCovered() {
        offsets.produced = Map.of(0, 5L);
        announced = List.of(member("a", 0), member("b"));
        ingesters.behaviour.put("a", owning(Set.of(0), "a1"));
        ingesters.behaviour.put("b", request -> CompletableFuture.failedFuture(new java.io.IOException("reset")));

        assertThat(lines(read(source(TIMEOUT)))).containsExactly("a1");
    }

    @Test
    void eventual_ingesterFailure_failsTheQuery_neverPartial() {
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(), "a1"));
        ingesters.behaviour.put("b", request -> CompletableFuture.failedFuture(new java.io.IOException("status 500")));
        RemoteUnflushedSource eventual = new RemoteUnflushedSource(() -> announced, TIMEOUT, null, ingesters, metrics);

        assertThatThrownBy(() -> read(eventual)).isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining("ingester id-b at b");
    }

    @Test
    void eventual_asksOnceWithoutOffsets_noCoverage() {
        announced = List.of(member("a", 0));
        ingesters.behaviour.put("a", owning(Set.of(), "a1"));
        RemoteUnflushedSource eventual = new RemoteUnflushedSource(() -> announced, TIMEOUT, null, ingesters, metrics);

        assertThat(lines(read(eventual))).containsExactly("a1");
        assertThat(ingesters.requests).singleElement().satisfies(r -> assertThat(r.offsets()).isEmpty());
    }

    @Test
    void rowsOfOneStreamFromSeveralIngesters_mergedInTimeOrder() {
        offsets.produced = new HashMap<>(Map.of(0, 1L, 1, 1L));
        announced = List.of(member("a", 0), member("b", 1));
        ingesters.behaviour.put("a", owning(Set.of(0), "x", "y"));
        ingesters.behaviour.put("b", owning(Set.of(1), "z"));

        List<UnflushedSource.Stream> streams = read(source(TIMEOUT));
        assertThat(streams).singleElement().satisfies(s -> assertThat(s.entries())
                .extracting(LogEntry::timestampNanos).isSorted().hasSize(3));
    }
}
