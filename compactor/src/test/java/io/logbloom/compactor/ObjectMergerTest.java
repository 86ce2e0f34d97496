package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.ingest.SeriesBloomWriter;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
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

/** Small-object merging in the compactor pass: fewer refs, the same rows, crash-safe, one compactor at a time. */
final class ObjectMergerTest {
    private static final long SEC = 1_000_000_000L;
    private static final String TENANT = "t";
    private final FailingStore store = new FailingStore(new InMemoryObjectStore());
    private final IndexConfig indexConfig = IndexConfig.defaults();
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-20T12:00:00Z").toEpochMilli());
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());
    private final DeleteRequestStore deletes = new DeleteRequestStore(store, clock, new SplittableRandom(7));
    private final Labels web = Labels.of("app", "web");
    private final Labels api = Labels.of("app", "api");
    private final long now = millis.get() * 1_000_000L;
    private final StoredObjects stored = new StoredObjects(store, indexConfig, clock, TENANT);

    private Compactor compactor(String holder, long smallObjectSizeBytes, RetentionLimits limits, boolean retention) {
        CompactorConfig config = new CompactorConfig(Duration.ofMinutes(10), retention, Duration.ofHours(2))
                .withSmallObjectSizeBytes(smallObjectSizeBytes);
        return new Compactor(config, store, indexConfig,
                new IndexCompactor(store, new IndexWriter(store, indexConfig, clock, "compactor-" + holder)),
                new RetentionPolicy(TenantLimits.uniform(limits)), deletes, ColumnarConfig.defaults(),
                new CompactorLease(store, clock, holder, Duration.ofHours(1)), new CompactorMetrics(new PrometheusRegistry()),
                clock);
    }

    private Compactor compactor(long smallObjectSizeBytes) {
        return compactor("me", smallObjectSizeBytes, RetentionLimits.defaults(), false);
    }

    private static LogEntry entry(long ts, String line, Label... metadata) {
        return new LogEntry(ts, line, List.of(metadata));
    }

    /** Five flush cycles of two series, the hour before now. */
    private List<String> flushFiveCycles() throws IOException {
        List<String> keys = new ArrayList<>();
        for (int cycle = 0; cycle < 5; cycle++) {
            long t = now - 3600 * SEC + cycle * 60 * SEC;
            Map<Labels, List<LogEntry>> streams = new LinkedHashMap<>();
            streams.put(web, List.of(entry(t, "GET /a " + cycle, new Label("trace", "w" + cycle)),
                    entry(t + SEC, "GET /b " + cycle)));
            streams.put(api, List.of(entry(t + 2 * SEC, "POST /c " + cycle, new Label("pod", "p" + cycle))));
            keys.add(stored.flush(streams, List.of(web, api)));
        }
        return keys;
    }

    private int refCount() throws IOException {
        return stored.indexed().stream().mapToInt(s -> s.chunks().size()).sum();
    }


    @Test
    void runOnce_smallObjects_mergedIntoOne_sameRows_fewerRefs_oldSweptAfterDelay() throws IOException {
        List<String> old = flushFiveCycles();
        List<String> before = stored.rows();
        assertThat(refCount()).isEqualTo(10);

        Compactor.PassResult result = compactor(CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES).runOnce();

        assertThat(result.objectsMerged()).isEqualTo(5);
        assertThat(result.mergedObjectsWritten()).isEqualTo(1);
        assertThat(stored.rows()).isEqualTo(before).hasSize(15);
        assertThat(refCount()).isEqualTo(2);
        assertThat(stored.objectKeys()).hasSize(1).doesNotContainAnyElementsOf(old);
        assertThat(store.list(ObjectReplacer.JOURNALS)).isEmpty();
        assertThat(store.list("t/objects/")).containsAll(old); // kept through retention_delete_delay

        Compactor.PassResult again = compactor(CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES).runOnce();
        assertThat(again.objectsMerged()).isZero(); // one object: nothing left to merge
        millis.addAndGet(Duration.ofHours(2).toMillis());
        compactor(CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES).runOnce();
        assertThat(store.list("t/objects/")).containsExactlyElementsOf(stored.objectKeys());
        assertThat(stored.rows()).isEqualTo(before);
    }

    @Test
    void runOnce_thresholdCutsBatches_bigObjectsLeftAlone() throws IOException {
        flushFiveCycles();
        List<String> before = stored.rows();
        long oneObject = 0;
        for (SeriesChunks s : new PersistedIndex(store, indexConfig, new IndexFileCache(store, indexConfig)).chunks(TENANT,
                List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", ".+")), 0, Long.MAX_VALUE)) {
            oneObject += s.chunks().get(0).sizeBytes();
        }

        Compactor.PassResult small = compactor(oneObject).runOnce(); // every object is at the threshold: none is small
        assertThat(small.objectsMerged()).isZero();
        Compactor.PassResult pairs = compactor(oneObject + 1).runOnce(); // a batch closes once it reaches the size

        assertThat(pairs.objectsMerged()).isEqualTo(4);
        assertThat(pairs.mergedObjectsWritten()).isEqualTo(2);
        assertThat(stored.objectKeys()).hasSize(3);
        assertThat(stored.rows()).isEqualTo(before);
    }

    @Test
    void runOnce_rowsNoLongerIndexedOrExpired_notBroughtBack() throws IOException {
        // api is kept 24h, web forever; objects of the same (previous) day
        RetentionLimits limits = new RetentionLimits(Duration.ZERO,
                List.of(new StreamRetention("{app=\"api\"}", Duration.ofHours(24), 1)), DeletionMode.FILTER_AND_DELETE);
        Labels ghost = Labels.of("app", "ghost");
        LogEntry apiExpired = entry(now - 25 * 3600 * SEC, "api expired");
        LogEntry apiKept = entry(now - 3600 * SEC, "api kept");
        LogEntry webOld = entry(now - 26 * 3600 * SEC, "web old");
        Map<Labels, List<LogEntry>> first = new LinkedHashMap<>();
        first.put(api, List.of(apiExpired, apiKept));
        first.put(ghost, List.of(entry(now - 25 * 3600 * SEC, "ghost unindexed")));
        stored.flush(first, List.of(api));
        stored.flush(Map.of(web, List.of(webOld, entry(now - 2 * 3600 * SEC, "web new"))), List.of(web));

        Compactor.PassResult result = compactor("me", CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES, limits, true)
                .runOnce();

        assertThat(result.objectsMerged()).isEqualTo(2);
        assertThat(stored.objectKeys()).hasSize(1);
        assertThat(stored.rows()).containsExactly(api + " " + apiKept.timestampNanos() + " api kept []",
                web + " " + webOld.timestampNanos() + " web old []", web + " " + (now - 2 * 3600 * SEC) + " web new []");
        byte[] merged = store.get(stored.objectKeys().get(0));
        ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes("m", merged)).directory();
        assertThat(directory.streams()).extracting(ColumnarStreamInfo::labels).containsExactlyInAnyOrder(api, web);
        assertThat(directory.streams().get(directory.indexOf(api)).rows()).isEqualTo(1);
    }

    /**
     * A crash injected at each step of a merge: the journal, the new object's put, the index switch, the deletion
     * marker. The pass fails with every row still indexed exactly once; a later pass finishes it, and once the
     * delete delay passed only the merged object is left.
     */
    @ParameterizedTest
    @ValueSource(strings = {"compactor/rewrites/", "t/objects/", "index/", "compactor/markers/"})
    void crashDuringMerge_laterPass_noLineLostOrDuplicated(String failingPrefix) throws IOException {
        flushFiveCycles();
        compactor(0).runOnce(); // index files merged first, so the merge is the pass' first writer of the index
        List<String> before = stored.rows();

        store.failPutsUnder = failingPrefix;
        Compactor compactor = compactor(CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES);
        assertThatThrownBy(compactor::runOnce).isInstanceOf(IOException.class).hasMessageContaining("injected");
        assertThat(stored.rows()).isEqualTo(before);

        store.failPutsUnder = null;
        compactor.runOnce();
        assertThat(stored.rows()).isEqualTo(before);
        assertThat(stored.objectKeys()).hasSize(1);
        assertThat(store.list(ObjectReplacer.JOURNALS)).isEmpty();
        millis.addAndGet(Duration.ofHours(2).toMillis());
        compactor.runOnce();
        assertThat(store.list("t/objects/")).containsExactlyElementsOf(stored.objectKeys()); // old and orphans swept
        assertThat(stored.rows()).isEqualTo(before);
    }

    @Test
    void runOnce_withBlooms_mergedAndDeleteRewrittenObjectsCoveredByTheirSeriesBlooms_replacedOnesDropped() throws IOException {
        flushFiveCycles();
        SeriesBloomStore bloomStore = new SeriesBloomStore(store);
        SeriesBloomWriter blooms = new SeriesBloomWriter(new BloomTokenizer(BloomTokenizerConfig.defaults()),
                BloomConfig.defaults(), bloomStore, 1 << 20);
        RetentionLimits limits = RetentionLimits.defaults();
        Compactor compactor = new Compactor(new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2)),
                store, indexConfig, new IndexCompactor(store, new IndexWriter(store, indexConfig, clock, "compactor")),
                new RetentionPolicy(TenantLimits.uniform(limits)), deletes, ColumnarConfig.defaults(), blooms,
                new CompactorLease(store, clock, "me", Duration.ofHours(1)), new CompactorMetrics(new PrometheusRegistry()),
                clock);
        long period = Math.floorDiv(now - 3600 * SEC, SeriesBloomStore.PERIOD_NANOS);

        compactor.runOnce();
        String merged = stored.objectKeys().get(0);
        for (Labels series : List.of(web, api)) {
            assertThat(bloomStore.load(TENANT, series.fingerprint(), period).orElseThrow().coveredChunkKeys())
                    .contains(merged);
        }

        deletes.add(TENANT, "{app=\"web\"} |= \"GET /a 1\"", (now - 7200 * SEC) / 1_000_000, now / 1_000_000);
        millis.addAndGet(Duration.ofHours(24).plusMinutes(2).toMillis()); // past the cancel period
        Compactor.PassResult rewrite = compactor.runOnce();

        assertThat(rewrite.linesDeleted()).isEqualTo(1);
        String rewritten = stored.objectKeys().get(0);
        assertThat(rewritten).isNotEqualTo(merged);
        for (Labels series : List.of(web, api)) {
            assertThat(bloomStore.load(TENANT, series.fingerprint(), period).orElseThrow().coveredChunkKeys())
                    .as("the replaced object's filter is dropped, the new one's kept").contains(rewritten)
                    .doesNotContain(merged);
        }
    }

    @Test
    void twoCompactors_onlyTheLeaseHolderMerges_theOtherFindsNothingLeft() throws IOException {
        flushFiveCycles();
        List<String> before = stored.rows();
        Compactor a = compactor("a", CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES, RetentionLimits.defaults(), false);
        Compactor b = compactor("b", CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES, RetentionLimits.defaults(), false);
        CompactorLease heldByA = new CompactorLease(store, clock, "a", Duration.ofHours(1));
        assertThat(heldByA.acquire()).isTrue(); // a's pass in progress

        assertThat(b.runOnce()).isEqualTo(Compactor.PassResult.SKIPPED);
        assertThat(stored.objectKeys()).hasSize(5);

        Compactor.PassResult ran = a.runOnce(); // releases the lease at its end
        Compactor.PassResult after = b.runOnce();

        assertThat(ran.objectsMerged()).isEqualTo(5);
        assertThat(after.ran()).isTrue();
        assertThat(after.objectsMerged()).isZero();
        assertThat(stored.objectKeys()).hasSize(1);
        assertThat(stored.rows()).isEqualTo(before);
    }

    @Test
    void runOnce_readerListingDuringTheIndexSwitch_seesEveryRowOnce() throws IOException {
        flushFiveCycles();
        List<String> before = stored.rows();
        List<List<String>> seen = new ArrayList<>();
        // just before each old index file goes, the new one (refs to the merged object) is already listed
        store.beforeDelete = key -> {
            if (key.startsWith("index/")) {
                seen.add(stored.rows());
            }
        };

        compactor(CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES).runOnce();

        assertThat(seen).isNotEmpty().allSatisfy(rows -> assertThat(rows).isEqualTo(before));
        assertThat(stored.rows()).isEqualTo(before);
    }
}
