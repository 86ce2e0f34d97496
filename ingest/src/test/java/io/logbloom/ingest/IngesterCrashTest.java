package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.ColumnarRefs;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.SeriesChunks;
import io.logbloom.tokens.BloomTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deterministic crashes at each step of the seal and merge protocol: a {@link CrashHook} copies the WAL
 * directory (parts, manifests) and the object store exactly as they are when the engine passes the step, as
 * SIGKILL would leave them, and stops the engine there; a fresh ingester on the copies must hold every
 * acknowledged line exactly once, with series blooms that never deny a stored row (blooms on = blooms off).
 */
final class IngesterCrashTest {
    private static final String[] TENANTS = {"t1", "t2"};

    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private final InMemoryObjectStore store = new InMemoryObjectStore();
    /** Lines acknowledged per tenant, in push order. */
    private final Map<String, List<String>> acknowledged = new HashMap<>();
    private int batches;

    /** Thrown where the engine stops: an Error, so none of the engine's handlers for failures treats it as one. */
    private static final class Killed extends Error {
        private static final long serialVersionUID = 1L;

        Killed(String where) {
            super("killed at " + where);
        }
    }

    /**
     * Copies the files and the store at the instant of the crash and throws {@link Killed}; armed for the
     * {@code occurrence}-th time the engine passes {@code point}. Thread-safe.
     */
    private final class Killer implements CrashHook {
        private final CrashPoint point;
        private final int occurrence;
        private boolean armed;
        private int seen;
        private InMemoryObjectStore storeAtCrash;

        Killer(CrashPoint point, int occurrence) {
            this.point = point;
            this.occurrence = occurrence;
        }

        synchronized void arm() {
            armed = true;
        }

        @Override
        public synchronized void reached(CrashPoint reached) {
            if (armed && reached == point && ++seen == occurrence) {
                kill(reached.toString());
            }
        }

        synchronized void kill(String where) {
            armed = false;
            storeAtCrash = copyOf(store);
            copyTree(dir.resolve("wal"), dir.resolve("after-crash").resolve("wal"));
            throw new Killed(where);
        }

        synchronized boolean fired() {
            return storeAtCrash != null;
        }
    }

    static Stream<Arguments> crashPoints() {
        List<Arguments> out = new ArrayList<>();
        for (CrashPoint p : CrashPoint.values()) {
            out.add(Arguments.of(p, 1));
        }
        // the second tenant's part, after the first tenant's merge committed, and so on
        for (CrashPoint p : List.of(CrashPoint.SEAL_PART_WRITTEN, CrashPoint.MERGE_INTENT_WRITTEN,
                CrashPoint.MERGE_OBJECT_UPLOADED, CrashPoint.MERGE_INDEX_WRITTEN, CrashPoint.MERGE_COMMITTED,
                CrashPoint.MERGE_PARTS_DELETED)) {
            out.add(Arguments.of(p, 2));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} #{1}")
    @MethodSource("crashPoints")
    void crashAtEachStepOfSealAndMerge_restartHoldsEveryAcknowledgedLineExactlyOnce(CrashPoint point, int occurrence)
            throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Killer killer = new Killer(point, occurrence);
        Ingester first = new Ingester(config, store, fx.clock, new io.prometheus.metrics.model.registry.PrometheusRegistry(),
                killer);
        pushBatch(first);
        first.seal();
        pushBatch(first);
        first.seal();
        first.flushAll(); // one object per tenant in the store already
        pushBatch(first);
        first.seal(); // parts waiting to be merged
        pushBatch(first); // rows in the buffers and the WAL only
        killer.arm();
        // close seals, merges every part and deletes the merged parts: it passes every step
        assertThatThrownBy(first::close).isInstanceOf(Killed.class);
        assertThat(killer.fired()).isTrue();

        assertThat(assertRestartHoldsEveryLineOnce(IngesterFixture.config(dir.resolve("after-crash")),
                killer.storeAtCrash)).as("rows checked against their blooms").isPositive();
    }

    /**
     * A merge committed (object indexed, parts retired but still on disk within their grace), then a compactor
     * replaced the object by another holding the same rows and dropped its refs from the index, then the
     * crash: the restart must not take the object's absence from the index for "never indexed" and merge the
     * parts again (on the previous protocol every row was stored twice).
     */
    @Test
    void compactorReplacedAMergedObject_beforeTheCrash_restartDoesNotMergeItsPartsAgain() throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        // queries still reading the parts keep the merged parts and their manifests on disk through the crash
        List<Ingester.Unflushed> reading = new java.util.ArrayList<>();
        for (int round = 0; round < 2; round++) {
            pushBatch(first);
            first.seal();
            for (String tenant : TENANTS) {
                reading.add(first.unflushed(tenant, List.of(IngesterFixture.ANY_APP), 0, Long.MAX_VALUE));
            }
            first.flushAll();
        }
        assertThat(Files.list(config.wal().directory().resolve("parts")).map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("merge-") && n.endsWith(".json"))).as("merges held by readers").isNotEmpty();
        for (String tenant : TENANTS) {
            replaceEveryObjectAsACompactorWould(tenant, config.index());
        }
        InMemoryObjectStore storeAtCrash = copyOf(store);
        copyTree(dir.resolve("wal"), dir.resolve("after-crash").resolve("wal"));
        first.halt();

        assertRestartHoldsEveryLineOnce(IngesterFixture.config(dir.resolve("after-crash")),
                storeAtCrash);
    }

    /**
     * A crash after a merge's index files were written but before its commit, then a compactor in another process
     * replaced the merged object (its new index file lists the old key as superseded) before the restart: the
     * restart must take the object for indexed, not merge its parts again (before the superseded mark, it found no
     * ref to the object, deleted it and stored every row of its parts twice), also once the compactor's delayed
     * sweep deleted the replaced object.
     */
    @ParameterizedTest(name = "replaced object swept: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void compactorReplacedAnUncommittedMerge_beforeTheRestart_partsNotMergedAgain(boolean swept) throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Killer killer = new Killer(CrashPoint.MERGE_INDEX_WRITTEN, 1);
        Ingester first = new Ingester(config, store, fx.clock, new io.prometheus.metrics.model.registry.PrometheusRegistry(),
                killer);
        pushBatch(first);
        first.seal();
        killer.arm();
        assertThatThrownBy(first::flushAll).isInstanceOf(Killed.class);
        InMemoryObjectStore storeAtCrash = killer.storeAtCrash;
        for (String tenant : TENANTS) {
            replaceEveryObjectAsACompactorWould(storeAtCrash, tenant, config.index());
        }
        assertThat(storeAtCrash.list("")).anyMatch(k -> k.endsWith("-compacted.lbo"));
        if (swept) {
            for (String key : storeAtCrash.list("")) {
                if (key.endsWith(".lbo") && !key.endsWith("-compacted.lbo")) {
                    storeAtCrash.delete(key);
                }
            }
        }
        first.halt();

        assertRestartHoldsEveryLineOnce(IngesterFixture.config(dir.resolve("after-crash")), storeAtCrash);
    }

    /**
     * A merged object whose series span two index periods is indexed by two files; a crash between their puts
     * leaves one: the restart must write the other, not drop the parts with the rows only the missing file
     * would find (on the previous protocol those rows were lost from every query).
     */
    @Test
    void crashBetweenTheIndexFilesOfTwoPeriods_restartWritesTheMissingOne() throws Exception {
        fx.clock.set(Instant.parse("2026-01-02T00:00:10Z"));
        IngestConfig config = IngesterFixture.config(dir);
        Killer killer = new Killer(null, 0); // killed by the store below, at no hook point
        ObjectStore killingStore = new io.logbloom.chunks.ForwardingObjectStore(store) {
            private int indexPuts;

            @Override
            public void put(String key, byte[] data) throws IOException {
                super.put(key, data);
                if (key.startsWith("index/") && killer.armed && ++indexPuts == 1) {
                    killer.kill("after the first index file");
                }
            }
        };
        Ingester first = new Ingester(config, killingStore, fx.clock,
                new io.prometheus.metrics.model.registry.PrometheusRegistry(), killer);
        long beforeMidnight = Instant.parse("2026-01-01T23:59:50Z").getEpochSecond() * 1_000_000_000L;
        long afterMidnight = Instant.parse("2026-01-02T00:00:05Z").getEpochSecond() * 1_000_000_000L;
        // one series each side of midnight: the first period's file names only the first series
        List<String> lines = new ArrayList<>();
        List<LogEntry> before = new ArrayList<>();
        List<LogEntry> after = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            before.add(new LogEntry(beforeMidnight + i, "before midnight line " + i, List.of(new Label("trace_id", "b" + i))));
            after.add(new LogEntry(afterMidnight + i, "after midnight line " + i, List.of(new Label("trace_id", "a" + i))));
            lines.add("before midnight line " + i);
            lines.add("after midnight line " + i);
        }
        assertThat(first.push("t1", List.of(new PushStream("{app=\"late\"}", before),
                new PushStream("{app=\"early\"}", after))).acceptedEntries()).isEqualTo(10);
        acknowledged.put("t1", lines);
        first.seal();
        killer.arm();
        assertThatThrownBy(first::flushAll).isInstanceOf(Killed.class);
        first.halt();
        assertThat(killer.storeAtCrash.list("index/t1/")).hasSize(1);

        assertRestartHoldsEveryLineOnce(IngesterFixture.config(dir.resolve("after-crash")),
                killer.storeAtCrash);
    }

    /** Restarts on the files and store a crash left, flushes, checks every tenant; returns the rows checked against blooms. */
    private int assertRestartHoldsEveryLineOnce(IngestConfig config, InMemoryObjectStore storeAtCrash)
            throws IOException {
        int bloomChecked = 0;
        try (Ingester restarted = fx.open(config, storeAtCrash)) {
            restarted.flushAll();
            for (String tenant : acknowledged.keySet()) {
                assertThat(IngesterFixture.unflushedRows(restarted, tenant)).as("everything flushed").isEmpty();
                List<String> stored = IngesterFixture.stored(restarted, storeAtCrash, tenant).stream()
                        .map(LogEntry::line).sorted().toList();
                assertThat(stored).as("tenant %s: every acknowledged line exactly once", tenant)
                        .doesNotHaveDuplicates()
                        .containsExactlyInAnyOrderElementsOf(acknowledged.get(tenant));
                bloomChecked += assertBloomsNeverDenyAStoredRow(restarted, storeAtCrash, tenant);
            }
        }
        return bloomChecked;
    }

    /** Blooms on = blooms off: every stored row's {@code trace_id} token is "maybe" in the bloom of its block. */
    private static int assertBloomsNeverDenyAStoredRow(Ingester ingester, ObjectStore store, String tenant)
            throws IOException {
        int checked = 0;
        for (SeriesChunks series : ingester.index().chunks(tenant, List.of(IngesterFixture.ANY_APP), 0, Long.MAX_VALUE)) {
            for (ChunkRef ref : series.chunks()) {
                Optional<SeriesBloom> bloom = ingester.blooms().load(tenant, series.labels().fingerprint(),
                        SeriesBloom.periodNumber(ref.fromNanos()));
                if (bloom.isEmpty() || !bloom.get().covers(ref.objectKey())) {
                    continue; // no filter: the block is read, never skipped
                }
                ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(store, ref.objectKey()));
                ColumnarStreamInfo info = reader.directory().streams().get(reader.directory().indexOf(series.labels()));
                for (int b = info.firstBlock(); b < info.firstBlock() + info.blockCount(); b++) {
                    ColumnarBlock block = reader.readBlock(b);
                    for (LogEntry e : block.entries()) {
                        String token = "trace_id=" + e.metadata().get(0).value();
                        assertThat(bloom.get().mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(
                                ColumnarDirectory.blockScope(ref.objectKey(), b), token)))
                                .as("bloom of %s block %d admits %s", ref.objectKey(), b, token).isTrue();
                        checked++;
                    }
                }
            }
        }
        return checked;
    }

    /** Pushes one batch of ten lines (unique, each with a trace_id) to every tenant. */
    private void pushBatch(Ingester ingester) throws IOException {
        int batch = batches++;
        for (String tenant : TENANTS) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String line = tenant + " batch " + batch + " line " + i;
                entries.add(new LogEntry(fx.ts(batch * 10 + i), line,
                        List.of(new Label("trace_id", String.format("%s%04d%02d", tenant, batch, i)))));
            }
            PushResult result = ingester.push(tenant, List.of(
                    new PushStream("{app=\"crash\", pod=\"" + (batch % 2) + "\"}", entries)));
            assertThat(result.acceptedEntries()).isEqualTo(10);
            for (LogEntry e : entries) {
                acknowledged.computeIfAbsent(tenant, t -> new ArrayList<>()).add(e.line());
            }
        }
    }

    /**
     * What the compactor's small-object merge does to an object, in the store: the same rows under a new key,
     * the index switched from the old key's refs to the new key's, the old object left for a delayed deletion.
     */
    private void replaceEveryObjectAsACompactorWould(String tenant, IndexConfig indexConfig) throws IOException {
        replaceEveryObjectAsACompactorWould(store, tenant, indexConfig);
    }

    private void replaceEveryObjectAsACompactorWould(ObjectStore store, String tenant, IndexConfig indexConfig)
            throws IOException {
        Map<String, Map<io.logbloom.chunks.Labels, ChunkRef>> replacements = new HashMap<>();
        for (String key : store.list(tenant + "/objects/")) {
            byte[] bytes = store.get(key);
            String newKey = key.replace(".lbo", "-compacted.lbo");
            store.put(newKey, bytes);
            ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes(newKey, bytes)).directory();
            Map<io.logbloom.chunks.Labels, ChunkRef> refs = new HashMap<>();
            for (SeriesChunks s : ColumnarRefs.of(tenant, newKey, bytes, directory)) {
                refs.put(s.labels(), s.chunks().get(0));
            }
            replacements.put(key, refs);
        }
        IndexCompactor index = new IndexCompactor(store, new IndexWriter(store, indexConfig, fx.clock, "compactor"));
        for (var period : index.filesByPeriod(tenant).entrySet()) {
            IndexCompactor.PeriodContent content = index.read(tenant, period.getKey(), period.getValue());
            List<SeriesChunks> kept = new ArrayList<>();
            Set<String> replaced = new java.util.TreeSet<>();
            for (SeriesChunks s : content.series()) {
                Set<ChunkRef> refs = new LinkedHashSet<>();
                for (ChunkRef ref : s.chunks()) {
                    Map<io.logbloom.chunks.Labels, ChunkRef> replacement = replacements.get(ref.objectKey());
                    refs.add(replacement == null ? ref : replacement.get(s.labels()));
                    if (replacement != null) {
                        replaced.add(ref.objectKey());
                    }
                }
                kept.add(new SeriesChunks(s.labels(), new ArrayList<>(refs)));
            }
            index.rewrite(content, kept, replaced);
        }
    }

    private static InMemoryObjectStore copyOf(InMemoryObjectStore from) {
        InMemoryObjectStore copy = new InMemoryObjectStore();
        try {
            for (String key : from.list("")) {
                copy.put(key, from.get(key));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return copy;
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
