package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.SeriesChunks;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The delete half of filter-and-delete: objects rewritten without deleted lines, crash-safe, through the compactor. */
final class DeleteRewriterTest {
    private static final long SEC = 1_000_000_000L;
    private static final String TENANT = "t";
    private final FailingStore store = new FailingStore(new InMemoryObjectStore());
    private final IndexConfig indexConfig = IndexConfig.defaults();
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-20T12:00:00Z").toEpochMilli());
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());
    private final DeleteRequestStore deletes = new DeleteRequestStore(store, clock, new SplittableRandom(7));
    private final Labels web = Labels.of("app", "web");
    private final Labels api = Labels.of("app", "api");
    private final Labels audit = Labels.of("app", "audit");
    private final long t0 = millis.get() * 1_000_000L - 3600 * SEC;
    private final StoredObjects stored = new StoredObjects(store, indexConfig, clock, TENANT);

    private Compactor compactor(DeletionMode mode) {
        RetentionLimits limits = new RetentionLimits(Duration.ZERO, List.of(), mode);
        CompactorConfig deletesAlone = new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2))
                .withSmallObjectSizeBytes(0);
        return new Compactor(deletesAlone, store, indexConfig,
                new IndexCompactor(store, new IndexWriter(store, indexConfig, clock, "compactor")),
                new RetentionPolicy(TenantLimits.uniform(limits)), deletes, ColumnarConfig.defaults(),
                new CompactorLease(store, clock, "me", Duration.ofHours(1)), new CompactorMetrics(new PrometheusRegistry()),
                clock);
    }

    private static LogEntry entry(long ts, String line, Label... metadata) {
        return new LogEntry(ts, line, List.of(metadata));
    }

    private static List<String> rowsOf(Labels labels, LogEntry... entries) {
        List<String> rows = new ArrayList<>();
        for (LogEntry e : entries) {
            rows.add(labels + " " + e.timestampNanos() + " " + e.line() + " " + e.metadata());
        }
        return rows;
    }

    private static List<String> sorted(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        all.sort(null);
        return all;
    }

    private final LogEntry bobA = entry(t0, "user=bob a", new Label("trace", "1"));
    private final LogEntry aliceB = entry(t0 + SEC, "user=alice b", new Label("trace", "2"));
    private final LogEntry bobC = entry(t0 + 2 * SEC, "user=bob c");
    private final LogEntry apiBob = entry(t0, "user=bob x", new Label("pod", "p1"), new Label("trace", "3"));
    private final LogEntry auditOne = entry(t0 + 3 * SEC, "audit user=bob", new Label("who", "root"));

    private Map<Labels, List<LogEntry>> shared() {
        Map<Labels, List<LogEntry>> streams = new LinkedHashMap<>();
        streams.put(web, List.of(bobA, aliceB, bobC));
        streams.put(api, List.of(apiBob));
        streams.put(audit, List.of(auditOne));
        return streams;
    }

    private DeleteRequest dueRequest(String query) throws IOException {
        DeleteRequest r = deletes.add(TENANT, query, t0 / 1_000_000 - 1000, t0 / 1_000_000 + 60_000);
        millis.addAndGet(Duration.ofHours(24).plusMinutes(2).toMillis()); // past the cancel period and its margin
        return r;
    }

    private String status(DeleteRequest r) throws IOException {
        return deletes.get(TENANT, r.requestId()).orElseThrow().status();
    }

    @Test
    void runOnce_sharedObject_onlyMatchingLinesOfMatchingSeriesGone_restKeptExactly_requestProcessed()
            throws IOException {
        String sharedKey = stored.flush(shared());
        LogEntry later = entry(t0 + 7200 * SEC, "user=bob later"); // outside the request's range
        String untouchedKey = stored.flush(Map.of(web, List.of(later)));
        byte[] untouchedBytes = store.get(untouchedKey);
        DeleteRequest request = dueRequest("{app=\"web\"} |= \"user=bob\"");

        Compactor.PassResult result = compactor(DeletionMode.FILTER_AND_DELETE).runOnce();

        assertThat(result.requestsProcessed()).isEqualTo(1);
        assertThat(result.objectsRewritten()).isEqualTo(1);
        assertThat(result.linesDeleted()).isEqualTo(2);
        assertThat(status(request)).isEqualTo(DeleteRequest.STATUS_PROCESSED);
        assertThat(stored.rows()).isEqualTo(sorted(rowsOf(web, aliceB, later), rowsOf(api, apiBob), rowsOf(audit, auditOne)));
        List<String> indexedKeys = stored.objectKeys();
        assertThat(indexedKeys).doesNotContain(sharedKey).contains(untouchedKey).hasSize(2);
        assertThat(store.get(untouchedKey)).isEqualTo(untouchedBytes);
        assertThat(store.exists(sharedKey)).isTrue(); // kept through retention_delete_delay for running queries
        assertThat(store.list(ObjectReplacer.JOURNALS)).isEmpty();

        millis.addAndGet(Duration.ofHours(2).toMillis());
        Compactor.PassResult sweep = compactor(DeletionMode.FILTER_AND_DELETE).runOnce();

        assertThat(sweep.objectsDeleted()).isEqualTo(1);
        assertThat(store.exists(sharedKey)).isFalse();
        assertThat(sweep.requestsProcessed()).isZero();
        assertThat(stored.rows()).hasSize(4);
    }

    @Test
    void runOnce_metadataFilter_deletesWholeSeries_dropsItsRefs_objectWithOnlyDeletedLinesUnindexed()
            throws IOException {
        String sharedKey = stored.flush(shared());
        String apiOnly = stored.flush(Map.of(api, List.of(entry(t0 + 5 * SEC, "user=bob y", new Label("pod", "p1")))));
        dueRequest("{app=\"api\"} | pod=\"p1\"");

        Compactor.PassResult result = compactor(DeletionMode.FILTER_AND_DELETE).runOnce();

        assertThat(result.linesDeleted()).isEqualTo(2);
        assertThat(result.objectsRewritten()).isEqualTo(2);
        assertThat(stored.rows()).isEqualTo(sorted(rowsOf(web, bobA, aliceB, bobC), List.of(), rowsOf(audit, auditOne)));
        assertThat(stored.objectKeys()).doesNotContain(sharedKey, apiOnly).hasSize(1);
    }

    @Test
    void runOnce_rowChunkV1_rewrittenIntoColumnarObject() throws IOException {
        MemChunk chunk = new MemChunk(io.logbloom.chunks.ChunkConfig.defaults());
        chunk.append(bobA);
        chunk.append(aliceB);
        Chunk encoded = Chunk.decode(chunk.encode());
        ChunkRef ref = encoded.ref(TENANT, web.fingerprint());
        store.put(ref.objectKey(), encoded.bytes());
        new IndexWriter(store, indexConfig, clock, "old").write(TENANT, List.of(new SeriesChunks(web, List.of(ref))));
        dueRequest("{app=\"web\"} |= \"bob\"");

        compactor(DeletionMode.FILTER_AND_DELETE).runOnce();

        assertThat(stored.rows()).isEqualTo(rowsOf(web, aliceB));
        assertThat(stored.objectKeys()).singleElement().satisfies(k -> assertThat(k).startsWith(TENANT + "/objects/"));
    }

    @Test
    void runOnce_notDueYet_orFilterOnly_orNoLineMatches_nothingRewritten() throws IOException {
        String key = stored.flush(shared());
        DeleteRequest early = deletes.add(TENANT, "{app=\"web\"}", t0 / 1_000_000, t0 / 1_000_000 + 60_000);
        millis.addAndGet(Duration.ofHours(24).toMillis()); // the cancel period, but not its one-minute margin

        assertThat(compactor(DeletionMode.FILTER_AND_DELETE).runOnce().objectsRewritten()).isZero();
        assertThat(status(early)).isEqualTo(DeleteRequest.STATUS_RECEIVED);

        millis.addAndGet(Duration.ofHours(1).toMillis());
        assertThat(compactor(DeletionMode.FILTER_ONLY).runOnce().objectsRewritten()).isZero();
        assertThat(status(early)).isEqualTo(DeleteRequest.STATUS_RECEIVED);
        assertThat(stored.objectKeys()).containsExactly(key);

        deletes.remove(early);
        DeleteRequest nothing = dueRequest("{app=\"web\"} |= \"nobody\"");
        Compactor.PassResult result = compactor(DeletionMode.FILTER_AND_DELETE).runOnce();
        assertThat(result.objectsRewritten()).isZero();
        assertThat(status(nothing)).isEqualTo(DeleteRequest.STATUS_PROCESSED);
        assertThat(stored.objectKeys()).containsExactly(key);
    }

    /**
     * A crash injected at each step: before the new object is put, after it is put but before the index is
     * switched, and after the switch but before the request is marked processed. A later pass ends with every
     * kept line exactly once and none of the deleted ones.
     */
    @ParameterizedTest
    @ValueSource(strings = {"t/objects/", "index/", "compactor/delete_requests/"})
    void crashDuringRewrite_laterPass_noLineLostOrDuplicated(String failingPrefix) throws IOException {
        String sharedKey = stored.flush(shared());
        DeleteRequest request = dueRequest("{app=\"web\"} |= \"user=bob\"");
        List<String> expected = sorted(rowsOf(web, aliceB), rowsOf(api, apiBob), rowsOf(audit, auditOne));

        store.failPutsUnder = failingPrefix;
        Compactor compactor = compactor(DeletionMode.FILTER_AND_DELETE);
        assertThatThrownBy(compactor::runOnce).isInstanceOf(IOException.class).hasMessageContaining("injected");
        if (!failingPrefix.startsWith("compactor/")) {
            assertThat(stored.rows()).isEqualTo(sorted(rowsOf(web, bobA, aliceB, bobC), rowsOf(api, apiBob),
                    rowsOf(audit, auditOne)));
            assertThat(stored.objectKeys()).containsExactly(sharedKey);
        }
        assertThat(status(request)).isEqualTo(DeleteRequest.STATUS_RECEIVED);

        store.failPutsUnder = null;
        compactor.runOnce();

        assertThat(stored.rows()).isEqualTo(expected);
        assertThat(status(request)).isEqualTo(DeleteRequest.STATUS_PROCESSED);
        assertThat(store.list(ObjectReplacer.JOURNALS)).isEmpty();
        millis.addAndGet(Duration.ofHours(2).toMillis());
        compactor.runOnce();
        assertThat(store.list("t/objects/")).containsExactlyElementsOf(stored.objectKeys()); // orphans swept
        assertThat(stored.rows()).isEqualTo(expected);
    }
}
