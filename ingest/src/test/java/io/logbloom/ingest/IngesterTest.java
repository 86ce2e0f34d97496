package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.FlakyObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.logbloom.tokens.WordTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class IngesterTest {
    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private ObjectStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new FileSystemObjectStore(dir.resolve("store"));
    }

    private List<PushStream> sample() {
        return List.of(
                new PushStream("{app=\"api\", env=\"prod\"}", List.of(
                        new LogEntry(fx.ts(1), "GET /users 200", List.of(new Label("trace_id", "abc123"))),
                        new LogEntry(fx.ts(2), "GET /orders 500", List.of(new Label("trace_id", "def456"))))),
                new PushStream("{app=\"db\"}", List.of(LogEntry.of(fx.ts(3), "slow query ✓"))));
    }

    @Test
    void goldenProtobufAndJsonPushes_flushed_readableFromStorage() throws Exception {
        PushDecoder decoder = new PushDecoder();
        String json = "{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[[\"" + fx.ts(4)
                + "\",\"hello\",{\"user\":\"bob\"}]]}]}";
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            PushResult pb = ingester.push("tenant-a", decoder.decode(PushBodies.protobuf(sample()), "application/x-protobuf"));
            PushResult js = ingester.push("tenant-a", decoder.decode(json.getBytes(StandardCharsets.UTF_8), "application/json"));
            assertThat(pb).isEqualTo(new PushResult(3, 0, List.of(), false));
            assertThat(js.ok()).isTrue();
            assertThat(ingester.unflushed("tenant-a", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).hasSize(3);
            assertThat(ingester.unflushed("other", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();

            ingester.flushAll();

            assertThat(ingester.unflushed("tenant-a", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();
            List<LogEntry> stored = IngesterFixture.stored(ingester, store, "tenant-a");
            assertThat(stored).extracting(LogEntry::line)
                    .containsExactly("GET /users 200", "GET /orders 500", "slow query ✓", "hello");
            assertThat(stored.get(0).metadata()).containsExactly(new Label("trace_id", "abc123"));
            assertThat(store.list("index/tenant-a/")).isNotEmpty();
        }
    }

    @Test
    void flush_writesSeriesBloomsWithoutFalseNegatives() throws Exception {
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                entries.add(new LogEntry(fx.ts(i), "line w" + i, List.of(new Label("trace_id", "t" + i))));
            }
            ingester.push("t", List.of(new PushStream("{app=\"api\"}", entries)));
            ingester.flushAll();
            Labels labels = Labels.of("app", "api");
            List<ChunkRef> refs = IngesterFixture.refs(ingester, "t");
            assertThat(refs).hasSize(1);
            ChunkRef ref = refs.get(0);
            String scope = io.logbloom.chunks.ColumnarDirectory.blockScope(ref.objectKey(), 0); // one block
            SeriesBloom bloom = ingester.blooms().load("t", labels.fingerprint(), SeriesBloom.periodNumber(ref.fromNanos()))
                    .orElseThrow();
            assertThat(bloom.covers(ref)).isTrue();
            assertThat(bloom.ngramEnabled()).isFalse();
            assertThat(bloom.wordTokens()).isTrue();
            assertThat(bloom.mightContain(ref.objectKey(), WordTokens.wordHash(scope, "line"))).isTrue();
            for (int i = 0; i < 300; i++) {
                assertThat(bloom.mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(scope, "trace_id=t" + i))).isTrue();
                assertThat(bloom.mightContain(ref.objectKey(), WordTokens.wordHash(scope, "w" + i))).isTrue();
            }
            assertThat(bloom.mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(scope, "trace_id"))).isTrue();
            int falsePositives = 0;
            for (int i = 0; i < 1000; i++) {
                if (bloom.mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(scope, "trace_id=absent" + i))) {
                    falsePositives++;
                }
            }
            assertThat(falsePositives).isLessThan(50);
        }
    }

    @Test
    void ngramMode_linesTokenizedChunkScoped() throws Exception {
        IngestConfig config = IngesterFixture.config(dir).withTokenizer(new BloomTokenizerConfig(true, true, 4, 0, true));
        try (Ingester ingester = fx.open(config, store)) {
            ingester.push("t", List.of(new PushStream("{app=\"api\"}",
                    List.of(LogEntry.of(fx.ts(1), "user=alice action=login")))));
            ingester.flushAll();
            ChunkRef ref = IngesterFixture.refs(ingester, "t").get(0);
            String scope = io.logbloom.chunks.ColumnarDirectory.blockScope(ref.objectKey(), 0); // one block
            SeriesBloom bloom = ingester.blooms().load("t", ref.fingerprint(), SeriesBloom.periodNumber(ref.fromNanos()))
                    .orElseThrow();
            assertThat(bloom.ngramEnabled()).isTrue();
            assertThat(bloom.ngramLength()).isEqualTo(4);
            for (String gram : BloomTokenizer.ngramAlignments("alice", 4, 0).get(0)) {
                assertThat(bloom.mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(scope, gram))).isTrue();
            }
        }
    }

    @Test
    void bloomOverSizeLimit_chunkNotCovered_butEarlierChunksStayCovered() throws Exception {
        // filters of at most 128 bytes: the first small chunk's few tokens fit, the 600 of the second cannot
        BloomConfig tiny = new BloomConfig(64, 0.01, 2, 0.5, 128, true);
        try (Ingester ingester = fx.open(IngesterFixture.config(dir).withBloom(tiny), store)) {
            ingester.push("t", List.of(new PushStream("{app=\"api\"}",
                    List.of(new LogEntry(fx.ts(1), "a", List.of(new Label("k", "v")))))));
            ingester.flushAll();
            List<LogEntry> many = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                many.add(new LogEntry(fx.ts(10 + i), "b" + i, List.of(new Label("id", "x" + i))));
            }
            ingester.push("t", List.of(new PushStream("{app=\"api\"}", many)));
            ingester.flushAll();
            List<ChunkRef> refs = IngesterFixture.refs(ingester, "t");
            assertThat(refs).hasSize(2);
            SeriesBloom bloom = ingester.blooms().load("t", refs.get(0).fingerprint(),
                    SeriesBloom.periodNumber(refs.get(0).fromNanos())).orElseThrow();
            ChunkRef small = refs.stream().filter(r -> r.entries() == 1).findFirst().orElseThrow();
            ChunkRef big = refs.stream().filter(r -> r.entries() == 200).findFirst().orElseThrow();
            assertThat(bloom.covers(small)).isTrue();
            assertThat(bloom.covers(big)).as("a chunk whose filter exceeds the size limit is never claimed covered").isFalse();
            assertThat(bloom.mightContain(small.objectKey(), BloomTokenizer.chunkScopedHash(io.logbloom.chunks.ColumnarDirectory.blockScope(small.objectKey(), 0), "k=v"))).isTrue();
        }
    }

    @Test
    void duplicates_storedOnce_alsoAcrossWalReplay() throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        first.push("t", sample());
        first.push("t", sample());
        first.halt();
        try (Ingester second = fx.open(config, store)) {
            assertThat(second.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).hasSize(3);
            PushResult retry = second.push("t", sample());
            assertThat(retry.acceptedEntries()).isEqualTo(3);
            second.flushAll();
            assertThat(IngesterFixture.stored(second, store, "t")).hasSize(3);
        }
    }

    @Test
    void retryAfterFlush_withinTenMinutes_storedOnce_laterStoredAgain() throws Exception {
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            ingester.push("t", sample());
            ingester.flushAll();
            PushResult retry = ingester.push("t", sample());
            assertThat(retry).isEqualTo(new PushResult(3, 0, List.of(), false));
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(3);
            fx.clock.advance(Duration.ofMinutes(11));
            List<PushStream> again = new ArrayList<>(sample());
            again.add(new PushStream("{app=\"db\"}", List.of(LogEntry.of(fx.ts(4), "new line"))));
            ingester.push("t", again);
            ingester.flushAll();
            // beyond the window a retry is stored again (queries drop identical entries when merging)
            assertThat(IngesterFixture.stored(ingester, store, "t")).extracting(LogEntry::line)
                    .containsExactly("GET /users 200", "GET /users 200", "GET /orders 500", "GET /orders 500",
                            "slow query ✓", "slow query ✓", "new line");
        }
    }

    @Test
    void duplicatesOlderAndNewerThanStreamsNewest_storedOnce() throws Exception {
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            ingester.push("t", List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(fx.ts(5), "five")))));
            ingester.push("t", List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(fx.ts(3), "three")))));
            PushResult retry = ingester.push("t", List.of(new PushStream("{app=\"a\"}", List.of(
                    LogEntry.of(fx.ts(3), "three"), LogEntry.of(fx.ts(5), "five"), LogEntry.of(fx.ts(6), "six")))));
            assertThat(retry).isEqualTo(new PushResult(3, 0, List.of(), false));
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).extracting(LogEntry::line)
                    .containsExactly("three", "five", "six");
        }
    }

    @Test
    void manyEntriesWithOneTimestamp_repeatsWithinPushStoredOnce() throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            entries.add(LogEntry.of(fx.ts(1), "line " + (i % 25)));
        }
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            PushResult result = ingester.push("t", List.of(new PushStream("{app=\"a\"}", entries)));
            assertThat(result).isEqualTo(new PushResult(60, 0, List.of(), false));
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).extracting(LogEntry::line).doesNotHaveDuplicates().hasSize(25);
        }
    }

    @Test
    void mixedPush_walRecordHoldsExactlyTheStoredEntries_acrossReplay() throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        first.push("t", List.of(new PushStream("{app=\"b\"}", List.of(LogEntry.of(fx.ts(0), "newest b")))));
        fx.clock.advance(Duration.ofHours(3));
        first.push("t", List.of(new PushStream("{app=\"b\"}", List.of(LogEntry.of(fx.ts(3 * 3600), "later b")))));
        PushResult result = first.push("t", List.of(
                new PushStream("{app=\"a\"}", List.of(LogEntry.of(fx.ts(3 * 3600 + 2), "a2 ✓"),
                        LogEntry.of(fx.ts(3 * 3600 + 1), "a1"), LogEntry.of(fx.ts(3 * 3600 + 2), "a2 ✓"))),
                new PushStream("{app=\"b\"}", List.of(LogEntry.of(fx.ts(60), "too far behind"),
                        new LogEntry(fx.ts(3 * 3600 + 5), "b5", List.of(new Label("trace_id", "t5"))))),
                new PushStream("{app=\"c\"}", List.of(LogEntry.of(fx.ts(3 * 3600 + 3), "c3")))));
        assertThat(result.acceptedEntries()).isEqualTo(5);
        assertThat(result.rejectedEntries()).isEqualTo(1);
        first.halt();
        try (Ingester second = fx.open(config, store)) {
            assertThat(second.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).extracting(LogEntry::line)
                    .containsExactly("a1", "a2 ✓", "newest b", "later b", "b5", "c3");
            assertThat(second.unflushed("t", List.of(ANY_APP), fx.ts(3 * 3600 + 5), Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).extracting(LogEntry::metadata)
                    .containsExactly(List.of(new Label("trace_id", "t5")));
        }
    }

    @Test
    void walRecordBuffer_reusedAcrossPushesOfEverySize_replayRestoresEachPushExactly() throws Exception {
        // the record buffer is reused from push to push: a big record, small ones after it, one past the size kept
        // (dropped after use) and small ones again must each be written as they were, with nothing of an earlier one
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        List<LogEntry> expected = new java.util.ArrayList<>();
        int[] linesPerPush = {2000, 3, 1, 40, 60_000, 2, 500};
        long nanos = fx.ts(0);
        for (int push = 0; push < linesPerPush.length; push++) {
            List<LogEntry> entries = new java.util.ArrayList<>();
            for (int i = 0; i < linesPerPush[push]; i++) {
                entries.add(new LogEntry(nanos++, "push " + push + " line " + i + " " + "x".repeat(push * 7),
                        List.of(new Label("trace_id", Long.toHexString(push * 1_000_003L + i)))));
            }
            assertThat(first.push("t", List.of(new PushStream("{app=\"a\"}", entries))).acceptedEntries())
                    .isEqualTo(entries.size());
            expected.addAll(entries);
        }
        first.halt();
        try (Ingester reopened = fx.open(config, store)) {
            assertThat(IngesterFixture.unflushedRows(reopened, "t")).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void repeatedMetadataName_rejectsThatEntryOnly_othersStoredAndReplayed() throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        PushResult result = first.push("t", List.of(new PushStream("{app=\"a\"}", List.of(
                new LogEntry(fx.ts(1), "kept", List.of(new Label("k", "1"), new Label("j", "2"))),
                new LogEntry(fx.ts(2), "repeated", List.of(new Label("k", "1"), new Label("j", "2"), new Label("k", "3"))),
                new LogEntry(fx.ts(3), "kept too", List.of(new Label("k", "4")))))));
        assertThat(result.acceptedEntries()).isEqualTo(2);
        assertThat(result.rejectedEntries()).isEqualTo(1);
        assertThat(result.errors()).containsExactly(
                "entry for stream '{app=\"a\"}' has duplicate structured metadata name: 'k'");
        assertThat(IngesterFixture.unflushedRows(first, "t")).extracting(LogEntry::line).containsExactly("kept", "kept too");
        first.halt();
        try (Ingester second = fx.open(config, store)) {
            assertThat(IngesterFixture.unflushedRows(second, "t")).containsExactly(
                    new LogEntry(fx.ts(1), "kept", List.of(new Label("k", "1"), new Label("j", "2"))),
                    new LogEntry(fx.ts(3), "kept too", List.of(new Label("k", "4"))));
        }
    }

    @Test
    void crashBeforeFlush_replayRestoresEveryAcknowledgedEntry_thenWalCheckpointed() throws Exception {
        IngestConfig config = IngesterFixture.config(dir);
        Ingester first = fx.open(config, store);
        for (int i = 0; i < 50; i++) {
            first.push("t", List.of(new PushStream("{app=\"s" + (i % 5) + "\"}", List.of(LogEntry.of(fx.ts(i), "line " + i)))));
        }
        first.halt();
        try (Ingester second = fx.open(config, store)) {
            second.flushAll();
            assertThat(IngesterFixture.stored(second, store, "t")).hasSize(50);
            assertThat(Wal.segmentIds(dir.resolve("wal"))).as("old segments deleted after flush").hasSize(1);
        }
        try (Ingester third = fx.open(config, store)) {
            assertThat(third.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();
            third.flushAll();
            assertThat(IngesterFixture.stored(third, store, "t")).as("nothing stored twice").hasSize(50);
        }
    }

    @Test
    void storeDown_flushFailsWithoutLoss_thenSucceedsWhenBack() throws Exception {
        FlakyObjectStore flaky = new FlakyObjectStore(store);
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), flaky)) {
            ingester.push("t", sample());
            flaky.down = true;
            assertThatThrownBy(ingester::flushAll).isInstanceOf(IOException.class)
                    .hasMessageContaining("object store down");
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).as("sealed into parts, kept on disk").hasSize(3);
            flaky.down = false;
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(3);
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();
        }
    }

    @Test
    void read_whileSealsAndMergesRun_seesEveryRowExactlyOnce() throws Exception {
        IngestConfig config = IngesterFixture.config(dir).withFlush(new FlushConfig(Duration.ofMinutes(30),
                Duration.ofHours(2), Duration.ofMillis(5), Duration.ofMillis(1), Duration.ofMillis(5))
                .withParts(Duration.ofMillis(3), 2048));
        try (Ingester ingester = fx.open(config, store)) {
            int pushed = 0;
            for (int round = 0; round < 150; round++) {
                List<LogEntry> entries = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    entries.add(LogEntry.of(fx.ts(0) + pushed + i, "row " + (pushed + i) + " " + "x".repeat(40)));
                }
                ingester.push("t", List.of(new PushStream("{app=\"r\"}", entries)));
                pushed += 10;
                List<String> seen = new ArrayList<>();
                try (Ingester.ReadView view = ingester.read("t", List.of(ANY_APP), 0, Long.MAX_VALUE)) {
                    for (var series : view.indexed()) {
                        for (ChunkRef ref : series.chunks()) {
                            var reader = new io.logbloom.chunks.ColumnarObjectReader(
                                    io.logbloom.chunks.RangeSource.ofObject(store, ref.objectKey()));
                            reader.entries(reader.directory().indexOf(series.labels()), Long.MIN_VALUE, Long.MAX_VALUE)
                                    .forEach(e -> seen.add(e.line()));
                        }
                    }
                    for (StreamSnapshot s : view.unflushed().streams()) {
                        s.allEntries().forEach(e -> seen.add(e.line()));
                    }
                }
                assertThat(seen).as("round " + round).hasSize(pushed).doesNotHaveDuplicates();
            }
            assertThat(IngesterFixture.refs(ingester, "t")).as("merges ran meanwhile").isNotEmpty();
        }
    }
    @Test
    void objectBlocksCutAtChunkBlockSize() throws Exception {
        IngestConfig config = IngesterFixture.config(dir)
                .withChunk(new ChunkConfig(1024, 2048, ChunkEncoding.NONE));
        try (Ingester ingester = fx.open(config, store)) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                entries.add(LogEntry.of(fx.ts(i), "a fairly long log line number " + i + " with some padding text"));
            }
            ingester.push("t", List.of(new PushStream("{app=\"api\"}", entries)));
            ingester.flushAll();
            List<ChunkRef> refs = IngesterFixture.refs(ingester, "t");
            assertThat(refs).singleElement().satisfies(ref -> assertThat(ref.isColumnar()).isTrue());
            var directory = new io.logbloom.chunks.ColumnarObjectReader(
                    io.logbloom.chunks.RangeSource.ofObject(store, refs.get(0).objectKey())).directory();
            // ~12 KB of lines in blocks of at most 1 KB raw
            assertThat(directory.blocks().size()).isGreaterThan(10);
            assertThat(directory.blocks()).allSatisfy(b -> assertThat(b.rawBytes()).isLessThanOrEqualTo(1024 + 80));
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(200);
        }
    }
    @Test
    void partsSealedWithFastEncodings_mergedObjectWithSmallest() throws Exception {
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            List<LogEntry> entries = new ArrayList<>();
            java.util.SplittableRandom random = new java.util.SplittableRandom(3);
            for (int i = 0; i < 300; i++) {
                entries.add(new LogEntry(fx.ts(i), "level=info msg=\"request done\" status=200 took=" + i + "ms",
                        List.of(new Label("trace_id", Long.toHexString(random.nextLong() | Long.MIN_VALUE)))));
            }
            ingester.push("t", List.of(new PushStream("{app=\"api\"}", entries)));
            ingester.seal();
            java.nio.file.Path partFile;
            try (var files = java.nio.file.Files.list(dir.resolve("wal").resolve("parts").resolve("t"))) {
                partFile = files.filter(f -> f.toString().endsWith(LocalParts.SUFFIX)).findFirst().orElseThrow();
            }
            try (var source = io.logbloom.chunks.RangeSource.ofFile(partFile)) {
                var block = new io.logbloom.chunks.ColumnarObjectReader(source).directory().blocks().get(0);
                assertThat(block.lines().encoding()).isEqualTo(io.logbloom.chunks.ColumnarEncoding.LINES);
                assertThat(block.metadata("trace_id").encoding()).isEqualTo(io.logbloom.chunks.ColumnarEncoding.METADATA_RAW);
            }
            ingester.flushAll();
            ChunkRef ref = IngesterFixture.refs(ingester, "t").get(0);
            var block = new io.logbloom.chunks.ColumnarObjectReader(
                    io.logbloom.chunks.RangeSource.ofObject(store, ref.objectKey())).directory().blocks().get(0);
            assertThat(block.lines().encoding()).isEqualTo(io.logbloom.chunks.ColumnarEncoding.LINES_TOKENIZED_RANGES);
            assertThat(block.metadata("trace_id").encoding()).isEqualTo(io.logbloom.chunks.ColumnarEncoding.METADATA_HEX);
            assertThat(IngesterFixture.stored(ingester, store, "t")).containsExactlyElementsOf(entries);
        }
    }

    @Test
    void flushLoop_idleChunkFlushedByPolicy() throws Exception {
        IngestConfig config = IngesterFixture.config(dir).withFlush(new FlushConfig(Duration.ofMinutes(30),
                Duration.ofHours(2), Duration.ofMillis(20), Duration.ofMillis(1), Duration.ofMillis(5))
                .withParts(Duration.ofMillis(20), FlushConfig.DEFAULT_MERGE_MIN_BYTES));
        try (Ingester ingester = fx.openWithMetrics(config, store)) {
            ingester.push("t", sample());
            ingester.seal();
            Thread.sleep(100);
            assertThat(IngesterFixture.refs(ingester, "t")).as("not idle yet").isEmpty();
            // a part is idle chunk_idle_period after the merge loop first saw it; on a loaded machine the loop
            // may first see it only after the clock moved, so the clock moves again (3 x 31 min stays below
            // max_chunk_age, 2h, so the reason stays idle)
            for (int step = 0; step < 3 && IngesterFixture.refs(ingester, "t").size() < 2; step++) {
                fx.clock.advance(Duration.ofMinutes(31));
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (IngesterFixture.refs(ingester, "t").size() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
            assertThat(IngesterFixture.refs(ingester, "t")).hasSize(2);
            // the merge publishes its refs, then counts them: the counter may trail the refs by a moment
            String flushedIdle = "logbloom_ingest_chunks_flushed_total{reason=\"idle\"} 2.0";
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!fx.scrape().contains(flushedIdle) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(fx.scrape()).contains(flushedIdle);
        }
    }

    @Test
    void partialFlush_thenCrash_replayKeepsOnlyUnflushedStream_nothingStoredTwice() throws Exception {
        Ingester first = fx.openWithMetrics(IngesterFixture.config(dir), store);
        first.push("t", List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(fx.clock.nanos(), "from a")))));
        first.flushAll();
        fx.clock.advance(Duration.ofMinutes(20));
        first.push("t", List.of(new PushStream("{app=\"b\"}", List.of(LogEntry.of(fx.clock.nanos(), "from b")))));
        first.seal(); // b is in a part, not in the store
        first.push("t", List.of(new PushStream("{app=\"c\"}", List.of(LogEntry.of(fx.clock.nanos(), "from c")))));
        first.halt(); // c is only in the WAL
        try (Ingester second = fx.open(IngesterFixture.config(dir), store)) {
            assertThat(second.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).extracting(s -> s.labels().get("app"))
                    .containsExactly("b", "c");
            second.flushAll();
            assertThat(IngesterFixture.stored(second, store, "t")).extracting(LogEntry::line)
                    .containsExactly("from a", "from b", "from c");
        }
    }
    @Test
    void closeFlushesEverything_withShutdownReason() throws Exception {
        Ingester ingester = fx.openWithMetrics(IngesterFixture.config(dir), store);
        ingester.push("t", sample());
        ingester.close();
        assertThat(fx.scrape()).contains("logbloom_ingest_chunks_flushed_total{reason=\"shutdown\"} 2.0");
        assertThatThrownBy(() -> ingester.push("t", sample())).isInstanceOf(IllegalStateException.class);
        try (Ingester reopened = fx.open(IngesterFixture.config(dir), store)) {
            assertThat(IngesterFixture.stored(reopened, store, "t")).hasSize(3);
            assertThat(reopened.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();
        }
    }

    @Test
    void metricsAlreadyRegistered_constructorFails_walReleased() throws Exception {
        try (Ingester first = fx.openWithMetrics(IngesterFixture.config(dir), store)) {
            assertThatThrownBy(() -> fx.openWithMetrics(IngesterFixture.config(dir.resolve("second")), store))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already registered");
            first.push("t", sample());
        }
    }

    @Test
    void tailListener_receivesAcceptedEntries() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        TailListener listener = (tenant, labels, entries) -> entries.forEach(e -> seen.add(tenant + labels + e.line()));
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            ingester.addTailListener(listener);
            ingester.push("t", sample());
            ingester.removeTailListener(listener);
            ingester.push("t", List.of(new PushStream("{app=\"db\"}", List.of(LogEntry.of(fx.ts(9), "late")))));
        }
        assertThat(seen).containsExactly("t{app=\"api\", env=\"prod\"}GET /users 200",
                "t{app=\"api\", env=\"prod\"}GET /orders 500", "t{app=\"db\"}slow query ✓");
    }

    @Test
    void metrics_exposedWithContractNames() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(IngesterFixture.config(dir), store)) {
            ingester.push("t", sample());
            ingester.push("t", List.of(new PushStream("{app=\"x\"}", List.of(LogEntry.of(1, "ancient")))));
            String before = fx.scrape();
            assertThat(before).contains("logbloom_ingest_lines_total 3.0", "logbloom_ingest_active_streams 2.0",
                    "logbloom_ingest_rejected_lines_total{reason=\"greater_than_max_sample_age\"} 1.0",
                    "logbloom_ingest_bytes_total 71.0");
            assertThat(before).containsPattern("logbloom_ingest_wal_bytes [1-9]");
            ingester.flushAll();
            String after = fx.scrape();
            assertThat(after).contains("logbloom_ingest_active_streams 0.0", "logbloom_bloom_objects 2.0",
                    "logbloom_ingest_chunks_flushed_total{reason=\"forced\"} 2.0", "logbloom_ingest_flush_duration_seconds_count 2");
            assertThat(after).containsPattern("logbloom_bloom_memory_bytes [1-9]")
                    .containsPattern("logbloom_bloom_items [1-9]").containsPattern("logbloom_bloom_capacity [1-9]")
                    .containsPattern("logbloom_bloom_subfilters [1-9]");
        }
    }
}
