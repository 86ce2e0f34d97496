package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.FlakyObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class PartMergerTest {
    private static final Labels A = Labels.of("app", "a");
    private static final Labels B = Labels.of("app", "b", "env", "prod");

    @TempDir
    Path dir;

    private final InMemoryObjectStore memory = new InMemoryObjectStore();
    private final FlakyObjectStore store = new FlakyObjectStore(memory);
    private final PersistedIndex index = new PersistedIndex(store, IndexConfig.defaults(),
            new IndexFileCache(store, IndexConfig.defaults()));

    private PartMerger merger(LocalParts parts, long releasedThrough) {
        return merger(parts, releasedThrough, ColumnarConfig.defaults());
    }

    private PartMerger merger(LocalParts parts, long releasedThrough, ColumnarConfig format) {
        return new PartMerger(parts, dir.resolve("parts"), store,
                new IndexWriter(store, IndexConfig.defaults(), Clock.systemUTC(), "test"), index, IndexConfig.defaults(),
                format, () -> releasedThrough, new ReentrantLock(), "w1", bloomWriter(store), Duration.ZERO,
                java.util.concurrent.ForkJoinPool.commonPool(), 3, CrashHook.NONE); // blocks encoded in parallel
    }

    private static SeriesBloomWriter bloomWriter(io.logbloom.chunks.ObjectStore into) {
        return new SeriesBloomWriter(new io.logbloom.tokens.BloomTokenizer(io.logbloom.tokens.BloomTokenizerConfig.defaults()),
                io.logbloom.bloom.BloomConfig.defaults(), new SeriesBloomStore(into), 1 << 20);
    }

    private static Map<Labels, ColumnarRows> rows(Labels labels, int from, int n) {
        ColumnarRows rows = new ColumnarRows();
        for (int i = from; i < from + n; i++) {
            rows.append(new LogEntry(1_000 + i, labels.get("app") + " line " + i,
                    List.of(new Label("trace_id", String.format("%032x", i)))));
        }
        return Map.of(labels, rows);
    }

    private static LocalParts.Part add(LocalParts parts, String tenant, long segment, Map<Labels, ColumnarRows> rows)
            throws IOException {
        LocalParts.Part part = parts.write(tenant, segment, rows);
        parts.add(part);
        return part;
    }

    /** Every row of the tenant in the object store, through the index, as "labels|ts|line". */
    private List<String> stored(String tenant) throws IOException {
        List<String> out = new ArrayList<>();
        for (SeriesChunks s : index.chunks(tenant, List.of(), Long.MIN_VALUE, Long.MAX_VALUE)) {
            for (ChunkRef ref : s.chunks()) {
                ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(store, ref.objectKey()));
                int stream = reader.directory().indexOf(s.labels());
                for (LogEntry e : reader.entries(stream, ref.fromNanos(), ref.throughNanos())) {
                    out.add(s.labels() + "|" + e.timestampNanos() + "|" + e.line());
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void merge_uploadsOneObject_indexesEverySeriesInIt_andRemovesTheParts() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        LocalParts.Part p1 = add(parts, "t", 3, rows(A, 0, 50));
        add(parts, "t", 4, rows(B, 0, 30));
        add(parts, "t", 5, rows(A, 50, 50));
        add(parts, "u", 5, rows(A, 0, 5));

        PartMerger merger = merger(parts, 5);
        PartMerger.Outcome outcome = merger.merge("t");

        assertThat(outcome.partsMerged()).isEqualTo(3);
        assertThat(outcome.streams()).isEqualTo(2);
        assertThat(outcome.rows()).isEqualTo(130);
        assertThat(memory.list("t/objects/")).containsExactly(outcome.objectKey());
        assertThat(parts.parts("t")).isEmpty();
        assertThat(p1.file()).as("kept for queries that listed it, until its grace ends").exists();
        assertThat(merger.deleteRetired(false)).isEqualTo(3);
        assertThat(p1.file()).doesNotExist();
        assertThat(parts.parts("u")).hasSize(1);
        List<SeriesChunks> indexed = index.chunks("t", List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(indexed).extracting(SeriesChunks::labels).containsExactlyInAnyOrder(A, B);
        for (SeriesChunks s : indexed) {
            assertThat(s.chunks()).singleElement().satisfies(ref -> {
                assertThat(ref.isColumnar()).isTrue();
                assertThat(ref.objectKey()).isEqualTo(outcome.objectKey());
                assertThat(ref.entries()).isEqualTo(s.labels().equals(A) ? 100 : 30);
            });
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add(A + "|" + (1_000 + i) + "|a line " + i);
        }
        for (int i = 0; i < 30; i++) {
            expected.add(B + "|" + (1_000 + i) + "|b line " + i);
        }
        expected.sort(null);
        assertThat(stored("t")).isEqualTo(expected);
        try (var files = Files.list(dir.resolve("parts"))) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("merge-"))).isEmpty();
        }
    }

    @Test
    void merge_throughASequence_leavesLaterParts_newestMergeableNamesTheBound() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        LocalParts.Part first = add(parts, "t", 3, rows(A, 0, 5));
        LocalParts.Part second = add(parts, "t", 4, rows(B, 0, 5));
        PartMerger merger = merger(parts, 4);
        assertThat(merger.newestMergeable("t")).isEqualTo(second.sequence());
        assertThat(merger.newestMergeable("u")).isEqualTo(Long.MIN_VALUE);
        LocalParts.Part later = add(parts, "t", 4, rows(A, 5, 5));

        PartMerger.Outcome outcome = merger.merge("t", Long.MAX_VALUE, second.sequence());

        assertThat(outcome.partsMerged()).isEqualTo(2);
        assertThat(parts.parts("t")).containsExactly(later);
        assertThat(merger.merge("t", Long.MAX_VALUE, second.sequence())).as("nothing left through that sequence").isNull();
        assertThat(first.sequence()).isLessThan(second.sequence());
    }

    @Test
    void merge_takesOnlyPartsWhoseWalSegmentsAreReleased() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        add(parts, "t", 3, rows(A, 0, 5));
        add(parts, "t", 7, rows(A, 5, 5));

        assertThat(merger(parts, 2).merge("t")).isNull();
        PartMerger.Outcome outcome = merger(parts, 6).merge("t");

        assertThat(outcome.partsMerged()).isEqualTo(1);
        assertThat(parts.parts("t")).extracting(LocalParts.Part::walSegment).containsExactly(7L);
    }

    @Test
    void crashBeforeIndexing_recoverDeletesTheObject_andThePartsAreMergedAgain() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        add(parts, "t", 1, rows(A, 0, 10));
        add(parts, "t", 2, rows(B, 0, 10));
        store.failPutPrefix = "index/";
        assertThatThrownBy(() -> merger(parts, 2).merge("t")).isInstanceOf(IOException.class);
        assertThat(memory.list("t/objects/")).hasSize(1);
        assertThat(parts.parts("t")).hasSize(2); // still visible: the swap never happened
        store.failPutPrefix = null;

        LocalParts reopened = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        PartMerger restarted = merger(reopened, 2);
        assertThat(restarted.recover()).isEqualTo(1);

        assertThat(memory.list("t/objects/")).isEmpty();
        assertThat(reopened.parts("t")).hasSize(2);
        assertThat(restarted.merge("t").rows()).isEqualTo(20);
        assertThat(stored("t")).hasSize(20);
    }

    @Test
    void crashAfterIndexing_recoverDeletesThePartsSoNoRowIsStoredTwice() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        LocalParts.Part part = add(parts, "t", 1, rows(A, 0, 10));
        PartMerger merger = merger(parts, 1);
        PartMerger.Outcome outcome = merger.merge("t");
        merger.deleteRetired(true);
        // a crash between the index write and the part deletion: put the part file and manifest back
        LocalParts again = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        LocalParts.Part copy = add(again, "t", 1, rows(A, 0, 10));
        Files.writeString(dir.resolve("parts").resolve("merge-crashed.json"), "{\"tenant\":\"t\",\"objectKey\":\""
                + outcome.objectKey() + "\",\"minTimeNanos\":1000,\"maxTimeNanos\":1009,\"partFiles\":[\""
                + copy.file() + "\"]}");

        LocalParts reopened = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        assertThat(merger(reopened, 1).recover()).isEqualTo(1);

        assertThat(reopened.parts("t")).isEmpty();
        assertThat(copy.file()).doesNotExist();
        assertThat(part.file()).doesNotExist();
        assertThat(stored("t")).hasSize(10);
    }

    @Test
    void merge_indexWrittenButPutAnswersAnError_nextMergeRetiresTheParts_rowsStoredOnce() throws IOException {
        AmbiguousPutStore ambiguous = new AmbiguousPutStore(memory);
        PersistedIndex ambiguousIndex = new PersistedIndex(ambiguous, IndexConfig.defaults(),
                new IndexFileCache(ambiguous, IndexConfig.defaults()));
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        add(parts, "t", 1, rows(A, 0, 40));
        add(parts, "t", 2, rows(B, 0, 20));
        PartMerger merger = new PartMerger(parts, dir.resolve("parts"), ambiguous,
                new IndexWriter(ambiguous, IndexConfig.defaults(), Clock.systemUTC(), "test"), ambiguousIndex,
                IndexConfig.defaults(), ColumnarConfig.defaults(), () -> 5, new ReentrantLock(), "w1",
                new SeriesBloomWriter(new io.logbloom.tokens.BloomTokenizer(io.logbloom.tokens.BloomTokenizerConfig.defaults()),
                        io.logbloom.bloom.BloomConfig.defaults(), new SeriesBloomStore(ambiguous), 1 << 20),
                Duration.ZERO, null, 1, CrashHook.NONE);

        ambiguous.failAfterPutPrefix = "index/";
        assertThatThrownBy(() -> merger.merge("t")).hasMessageContaining("timed out after storing index/");
        assertThat(stored("t")).as("the index file was written").hasSize(60);
        assertThat(parts.parts("t")).as("the merger cannot know yet").hasSize(2);

        ambiguous.failAfterPutPrefix = null;
        assertThat(merger.merge("t")).as("nothing left to merge once the failed merge is decided").isNull();
        assertThat(parts.parts("t")).isEmpty();
        assertThat(merger.deleteRetired(true)).isEqualTo(2);
        assertThat(memory.list("t/objects/")).hasSize(1);
        assertThat(stored("t")).hasSize(60).doesNotHaveDuplicates();
    }

    @Test
    void merge_objectPutFails_nextMergeDeletesTheFailedObject_andMergesThePartsAgain() throws IOException {
        LocalParts parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
        add(parts, "t", 1, rows(A, 0, 40));
        PartMerger merger = merger(parts, 5);
        store.failPutPrefix = "blooms/";
        assertThatThrownBy(() -> merger.merge("t")).hasMessageContaining("put refused for blooms/");
        assertThat(memory.list("t/objects/")).as("uploaded before the bloom put failed").hasSize(1);
        String failed = memory.list("t/objects/").get(0);

        store.down = true;
        assertThatThrownBy(() -> merger.merge("t")).as("undecided until the store answers")
                .hasMessageContaining("object store down");
        store.down = false;
        store.failPutPrefix = null;
        add(parts, "t", 2, rows(A, 40, 10));
        PartMerger.Outcome outcome = merger.merge("t");

        assertThat(outcome.partsMerged()).isEqualTo(2);
        assertThat(memory.list("t/objects/")).containsExactly(outcome.objectKey());
        assertThat(outcome.objectKey()).isEqualTo(failed).as("same first part and time: same key, rewritten");
        assertThat(stored("t")).hasSize(50).doesNotHaveDuplicates();
        assertThat(Files.list(dir.resolve("parts")).filter(f -> f.getFileName().toString().startsWith("merge-")))
                .hasSize(1);
    }

    /**
     * The merge streams each series from its parts (a k-way merge by time); the object and the series blooms
     * must be exactly what collecting every part's rows of a series in part order and sorting them stably (the
     * writer's {@code add}) gives: same rows in the same order, including equal timestamps across parts, same
     * blocks, same bytes, same bloom tokens.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void merge_ofOverlappingParts_isByteIdenticalToCollectingAndSortingEachStream(long seed) throws IOException {
        Random random = new Random(seed);
        ColumnarConfig format = new ColumnarConfig(1 + random.nextInt(100), 200 + random.nextInt(8000), 3);
        LocalParts parts = new LocalParts(dir.resolve("parts"), format);
        List<Labels> labels = List.of(A, B, Labels.of("app", "c"));
        Map<Labels, ColumnarRows> collected = new HashMap<>();
        int partCount = 2 + random.nextInt(6);
        for (int p = 0; p < partCount; p++) {
            Map<Labels, ColumnarRows> part = new HashMap<>();
            for (Labels l : labels) {
                if (random.nextInt(4) == 0) {
                    continue;
                }
                ColumnarRows rows = new ColumnarRows();
                int n = 1 + random.nextInt(300);
                for (int i = 0; i < n; i++) {
                    long ts = 1_000 + random.nextInt(200); // overlapping ranges, many equal timestamps
                    String line = l.get("app") + " part " + p + " row " + i + " " + "x".repeat(random.nextInt(60));
                    List<Label> metadata = random.nextBoolean() ? List.of()
                            : List.of(new Label("trace_id", Integer.toHexString(random.nextInt(50))));
                    rows.append(ts, line, metadata);
                    collected.computeIfAbsent(l, k -> new ColumnarRows()).append(ts, line, metadata);
                }
                part.put(l, rows);
            }
            if (!part.isEmpty()) {
                add(parts, "t", 1, part);
            }
        }

        PartMerger.Outcome outcome = merger(parts, 1, format).merge("t");

        InMemoryObjectStore expectedStore = new InMemoryObjectStore();
        SeriesBloomWriter expectedBlooms = bloomWriter(expectedStore);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(expected, format)) {
            List<Labels> order = new ArrayList<>(collected.keySet());
            order.sort(ColumnarDirectory.STREAM_ORDER);
            for (Labels l : order) {
                ColumnarRows rows = collected.get(l);
                long min = Long.MAX_VALUE;
                for (int r = 0; r < rows.size(); r++) {
                    min = Math.min(min, rows.timestampNanos(r));
                }
                SeriesBloomWriter.ObjectTokens tokens = expectedBlooms.start("t", l.fingerprint(), min,
                        outcome.objectKey());
                writer.add(l, rows, tokens); // which finishes the tokens
            }
            writer.finish();
        }
        expectedBlooms.persist();

        assertThat(outcome.streams()).isEqualTo(collected.size());
        assertThat(memory.get(outcome.objectKey())).isEqualTo(expected.toByteArray());
        for (Labels l : collected.keySet()) {
            String bloomKey = SeriesBloomStore.key("t", l.fingerprint(), 0);
            assertThat(memory.get(bloomKey)).as("bloom of %s", l).isEqualTo(expectedStore.get(bloomKey));
        }
    }

    /** Stores every put, but answers a put of a key with {@code failAfterPutPrefix} with an error, as a timed-out request may. */
    private static final class AmbiguousPutStore extends io.logbloom.chunks.ForwardingObjectStore {
        volatile String failAfterPutPrefix;

        AmbiguousPutStore(io.logbloom.chunks.ObjectStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String key, byte[] data) throws IOException {
            super.put(key, data);
            String prefix = failAfterPutPrefix;
            if (prefix != null && key.startsWith(prefix)) {
                throw new IOException("timed out after storing " + key);
            }
        }
    }
}
