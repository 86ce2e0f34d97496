package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.index.HeadIndex;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class CompactorTest {
    private static final long DAY = 86_400_000_000_000L;
    private static final long HOUR = DAY / 24;
    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final IndexConfig indexConfig = IndexConfig.defaults();
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-20T00:00:00Z").toEpochMilli());
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Labels web = Labels.of("app", "web");
    private final Labels audit = Labels.of("app", "audit");
    private int cycle;

    private long nowNanos() {
        return millis.get() * 1_000_000L;
    }

    private Compactor compactor(boolean retention, Duration deleteDelay, CompactorLease lease) {
        RetentionLimits limits = new RetentionLimits(Duration.ofDays(7),
                List.of(new StreamRetention("{app=\"audit\"}", Duration.ofDays(30), 1)), DeletionMode.FILTER_AND_DELETE);
        return new Compactor(new CompactorConfig(Duration.ofMinutes(10), retention, deleteDelay), store, indexConfig,
                new IndexCompactor(store, new IndexWriter(store, indexConfig, clock, "compactor")),
                new RetentionPolicy(TenantLimits.uniform(limits)),
                new DeleteRequestStore(store, clock, new java.util.SplittableRandom(1)), ColumnarConfig.defaults(), lease,
                new CompactorMetrics(registry), clock);
    }

    private Compactor compactor(boolean retention, Duration deleteDelay) {
        return compactor(retention, deleteDelay, new CompactorLease(store, clock, "me", Duration.ofHours(1)));
    }

    /** One flush cycle: a row chunk of {@code labels} over [from, from+1h], its object and its bloom stored. */
    private ChunkRef flushRowChunk(Labels labels, long from) throws IOException {
        ChunkRef ref = new ChunkRef("t", labels.hashCode(), from, from + HOUR, 7, 100, 10);
        store.put(ref.objectKey(), new byte[100]);
        store.put(bloomKey(ref), new byte[10]);
        HeadIndex head = new HeadIndex();
        head.add("t", labels, ref);
        new IndexWriter(store, indexConfig, clock, "ingester" + (cycle++)).writeFromHead(head, "t");
        return ref;
    }

    private String bloomKey(ChunkRef ref) {
        return "blooms/t/" + indexConfig.periodNumber(ref.fromNanos()) + "/" + String.format("%016x", ref.fingerprint())
                + ".bloom";
    }

    private List<SeriesChunks> indexed() throws IOException {
        return new PersistedIndex(store, indexConfig, new IndexFileCache(store, indexConfig))
                .chunks("t", List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", ".+")), 0, Long.MAX_VALUE);
    }

    @Test
    void runOnce_afterManyFlushCycles_oneFilePerPeriod_sameRefs() throws IOException {
        long today = Math.floorDiv(nowNanos(), DAY) * DAY;
        for (int i = 0; i < 20; i++) {
            flushRowChunk(i % 2 == 0 ? web : audit, today + i * 60_000_000_000L);
        }
        flushRowChunk(web, today - DAY);
        List<SeriesChunks> before = indexed();
        assertThat(store.list("index/t/")).hasSize(21);

        Compactor.PassResult result = compactor(false, Duration.ZERO).runOnce();

        assertThat(store.list("index/t/")).hasSize(2); // today's 20 files merged, yesterday's one left as is
        assertThat(result.indexFilesRemoved()).isEqualTo(19);
        assertThat(indexed()).isEqualTo(before);
        assertThat(result.objectsDeleted()).isZero();
        assertThat(store.list(CompactorLease.KEY)).isEmpty(); // released after the pass
    }

    @Test
    void runOnce_retention_dropsExpiredRefs_deletesTheirObjectsAndBlooms_afterTheDelay() throws IOException {
        long now = nowNanos();
        ChunkRef oldWeb = flushRowChunk(web, now - 10 * DAY);
        ChunkRef newWeb = flushRowChunk(web, now - 2 * DAY);
        ChunkRef oldAudit = flushRowChunk(audit, now - 10 * DAY); // audit keeps 30 days

        Compactor compactor = compactor(true, Duration.ofHours(2));
        Compactor.PassResult first = compactor.runOnce();

        assertThat(first.refsExpired()).isEqualTo(1);
        assertThat(indexed()).flatMap(SeriesChunks::chunks).containsExactlyInAnyOrder(newWeb, oldAudit);
        assertThat(store.exists(oldWeb.objectKey())).isTrue(); // kept through the delete delay
        assertThat(first.objectsDeleted()).isZero();

        millis.addAndGet(Duration.ofHours(2).toMillis());
        Compactor.PassResult second = compactor.runOnce();

        assertThat(second.objectsDeleted()).isEqualTo(2);
        assertThat(second.bytesDeleted()).isEqualTo(110);
        assertThat(store.exists(oldWeb.objectKey())).isFalse();
        assertThat(store.exists(bloomKey(oldWeb))).isFalse();
        assertThat(store.exists(newWeb.objectKey())).isTrue();
        assertThat(store.exists(oldAudit.objectKey())).isTrue();
        assertThat(store.list(Compactor.MARKERS)).isEmpty();
        assertThat(registry.scrape().stream().filter(m -> m.getMetadata().getName()
                .equals("logbloom_compactor_deleted_objects")).findFirst()).isPresent();
    }

    @Test
    void runOnce_sharedColumnarObject_keptWhileALiveSeriesReferencesIt() throws IOException {
        long now = nowNanos();
        String object = "t/objects/0000000000000001-w-0000000000000001.lbo";
        store.put(object, new byte[500]);
        ChunkRef expired = new ChunkRef("t", web.hashCode(), now - 10 * DAY, now - 10 * DAY + HOUR, 1, 200, 5, object);
        ChunkRef alive = new ChunkRef("t", audit.hashCode(), now - 10 * DAY, now - 10 * DAY + HOUR, 1, 300, 5, object);
        HeadIndex head = new HeadIndex();
        head.add("t", web, expired);
        head.add("t", audit, alive);
        new IndexWriter(store, indexConfig, clock, "ingester").writeFromHead(head, "t");

        Compactor compactor = compactor(true, Duration.ZERO);
        compactor.runOnce();
        compactor.runOnce();

        assertThat(indexed()).flatMap(SeriesChunks::chunks).containsExactly(alive);
        assertThat(store.exists(object)).isTrue();
    }

    @Test
    void sweep_markedObjectReferencedAgain_notDeleted() throws IOException {
        // a crash after the marker was written but before the index rewrite leaves the marker's keys referenced
        ChunkRef ref = flushRowChunk(web, nowNanos() - DAY);
        store.put(Compactor.MARKERS + "t/0000000000000-1.json",
                ("{\"keys\":[\"" + ref.objectKey() + "\",\"t/gone\"]}").getBytes(java.nio.charset.StandardCharsets.UTF_8));

        Compactor.PassResult result = compactor(false, Duration.ZERO).runOnce();

        assertThat(result.objectsDeleted()).isZero();
        assertThat(store.exists(ref.objectKey())).isTrue();
        assertThat(store.list(Compactor.MARKERS)).isEmpty();
    }

    @Test
    void runOnce_leaseHeldByAnother_skipsThePass() throws IOException {
        for (int i = 0; i < 3; i++) {
            flushRowChunk(web, nowNanos() - i * HOUR);
        }
        List<String> files = store.list("index/t/");
        assertThat(new CompactorLease(store, clock, "other", Duration.ofHours(1)).acquire()).isTrue();

        Compactor.PassResult result = compactor(false, Duration.ZERO).runOnce();

        assertThat(result.ran()).isFalse();
        assertThat(store.list("index/t/")).isEqualTo(files);
    }
}
