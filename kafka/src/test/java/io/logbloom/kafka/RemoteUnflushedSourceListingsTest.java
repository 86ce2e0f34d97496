package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.IndexListingCachingStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A cluster querier keeping its index listings: the ingesters' named index files are shown in them, and they are
 * dropped whenever the answers cannot vouch for every new file.
 */
final class RemoteUnflushedSourceListingsTest {
    private static final Duration TTL = Duration.ofMinutes(1);
    private static final long NOW_MILLIS = 1_800_000_000_000L;
    private static final String PREFIX = "index/t/20833/";
    private static final byte[] BYTES = {1};

    /** What each ingester (by address) answers: its incarnation and the index files it names (null: none). */
    private final Map<String, Reply> replies = new ConcurrentHashMap<>();
    private final List<UnflushedRequest> requests = new CopyOnWriteArrayList<>();
    private volatile List<Announcement> announced = List.of(member("a", 0), member("b", 1));
    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final AtomicLong nanos = new AtomicLong(1);
    private final IndexListingCachingStore listings = new IndexListingCachingStore(store, TTL, nanos::get);
    private final InstantSource clock = () -> Instant.ofEpochMilli(NOW_MILLIS);

    private record Reply(String incarnation, List<String> indexFiles, boolean refuse) {}

    private final UnflushedClient client = (member, request) -> {
        requests.add(request);
        Reply r = replies.get(member.address());
        if (r.refuse()) {
            return CompletableFuture.failedFuture(new ConnectException("Connection refused"));
        }
        Set<Integer> caughtUp = new TreeSet<>(request.offsets().keySet());
        caughtUp.retainAll(member.partitions());
        return CompletableFuture.completedFuture(new UnflushedClient.Reply(List.of(new PushRecord("t",
                Labels.of("app", member.address()), List.of(LogEntry.of(1, "row")))), caughtUp, r.incarnation(),
                r.indexFiles()));
    };

    private static Announcement member(String address, Integer... partitions) {
        return new Announcement("id-" + address, "ingester", address, List.of(partitions), 0);
    }

    private final PrometheusRegistry registry = new PrometheusRegistry();

    private RemoteUnflushedSource source(PartitionOffsets offsets) {
        return new RemoteUnflushedSource(() -> announced, Duration.ofSeconds(2), offsets, client,
                new KafkaMetrics(registry), listings, clock);
    }

    /** {@code logbloom_querier_index_listings_dropped_total{reason}}. */
    private double dropped(String reason) {
        return registry.scrape().stream()
                .filter(m -> m.getMetadata().getPrometheusName().equals("logbloom_querier_index_listings_dropped"))
                .flatMap(m -> ((CounterSnapshot) m).getDataPoints().stream())
                .filter(d -> d.getLabels().get("reason").equals(reason))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }

    private void answer(String address, String incarnation, String... indexFiles) {
        replies.put(address, new Reply(incarnation, List.of(indexFiles), false));
    }

    /** A query: the ingesters first, then the listing of the period, as a snapshot reads the index. */
    private List<String> query(RemoteUnflushedSource source) throws IOException {
        source.unflushed("t", List.of(), 0, Long.MAX_VALUE);
        return listings.list(PREFIX);
    }

    @Test
    void sameConsumersAnswering_listingKept_andTheFilesTheyNameShown() throws IOException {
        RemoteUnflushedSource source = source(null);
        store.put(PREFIX + "old.idx", BYTES);
        answer("a", "n1.1");
        answer("b", "n2.1");
        assertThat(query(source)).containsExactly(PREFIX + "old.idx");
        assertThat(requests).allSatisfy(r -> assertThat(r.indexFilesSinceMillis())
                .isEqualTo(NOW_MILLIS - TTL.toMillis() - RemoteUnflushedSource.CLOCK_MARGIN.toMillis()));

        store.put(PREFIX + "new.idx", BYTES); // ingester b merged: its rows left its answer, its file is new
        answer("b", "n2.1", PREFIX + "new.idx");
        assertThat(query(source)).containsExactly(PREFIX + "new.idx", PREFIX + "old.idx");
        assertThat(store.lists.get()).as("the kept listing answered").isEqualTo(1);
        assertThat(dropped("consumers_changed")).as("only by the first query: nothing to compare with").isEqualTo(1);
    }

    @Test
    void aRebalance_orAnIngesterGoneOrNew_dropsTheListings() throws IOException {
        RemoteUnflushedSource source = source(null);
        answer("a", "n1.1");
        answer("b", "n2.1");
        query(source);
        query(source);
        assertThat(store.lists.get()).isEqualTo(1);

        answer("a", "n1.2"); // a rebalance: another consumer may have owned partitions and uploaded meanwhile
        query(source);
        assertThat(store.lists.get()).isEqualTo(2);
        query(source);
        assertThat(store.lists.get()).isEqualTo(2);

        announced = List.of(member("a", 0, 1)); // b left
        query(source);
        assertThat(store.lists.get()).isEqualTo(3);

        announced = List.of(member("a", 0), member("c", 1)); // c joined (with the same incarnation text)
        answer("c", "n2.1");
        query(source);
        assertThat(store.lists.get()).isEqualTo(4);
        query(source);
        assertThat(store.lists.get()).isEqualTo(4);
        assertThat(dropped("consumers_changed")).isEqualTo(4);
    }

    @Test
    void anAnswerThatCannotVouch_dropsTheListingsEveryTime() throws IOException {
        RemoteUnflushedSource source = source(null);
        answer("a", "n1.1");
        replies.put("b", new Reply("n2.1", null, false)); // cannot say which files (asked about too long ago)
        query(source);
        query(source);
        assertThat(store.lists.get()).isEqualTo(2);

        replies.put("b", new Reply(null, null, false)); // an ingester of an earlier version
        query(source);
        assertThat(store.lists.get()).isEqualTo(3);

        replies.put("b", new Reply("n2.1", List.of(), true)); // refuses connections: its uploads are unknown
        query(source);
        assertThat(store.lists.get()).isEqualTo(4);

        announced = List.of(); // no ingester at all: one may have come and gone
        query(source);
        query(source);
        assertThat(store.lists.get()).isEqualTo(6);
        assertThat(dropped("files_unknown")).isEqualTo(3);
        assertThat(dropped("unanswered")).isEqualTo(1);
        assertThat(dropped("no_ingesters")).isEqualTo(2);
        assertThat(dropped("consumers_changed")).isZero();
    }

    @Test
    void strongRead_aPartitionCoveredByCommittedOffsets_dropsTheListings() throws IOException {
        Map<Integer, Long> committed = new ConcurrentHashMap<>();
        PartitionOffsets offsets = new PartitionOffsets() {
            @Override
            public Map<Integer, Long> produced(Duration timeout) {
                return Map.of(0, 5L, 1, 7L);
            }

            @Override
            public Map<Integer, Long> committed(Duration timeout) {
                return Map.copyOf(committed);
            }
        };
        RemoteUnflushedSource source = source(offsets);
        answer("a", "n1.1");
        answer("b", "n2.1");
        query(source);
        query(source);
        assertThat(store.lists.get()).isEqualTo(1);

        // partition 1's owner died after uploading and committing: nobody answers for it, its commit covers it
        announced = List.of(member("a", 0), member("b"));
        committed.put(1, 7L);
        query(source);
        query(source);
        assertThat(store.lists.get()).isEqualTo(3);
        assertThat(dropped("committed_offsets")).isEqualTo(2);
    }
}
