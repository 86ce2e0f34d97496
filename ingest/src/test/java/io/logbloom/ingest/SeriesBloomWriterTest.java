package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomStats;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SeriesBloomWriterTest {
    private static final Labels SERIES = Labels.of("app", "api");
    private static final long T0 = 1_760_000_000_000_000_000L;

    @TempDir
    Path dir;

    private SeriesBloomStore store;
    private SeriesBloomWriter writer;

    @BeforeEach
    void setUp() throws IOException {
        store = new SeriesBloomStore(new FileSystemObjectStore(dir));
        writer = new SeriesBloomWriter(new BloomTokenizer(BloomTokenizerConfig.defaults()), BloomConfig.defaults(), store,
                1 << 20);
    }

    /** Writes {@code rows} lines with a unique id each (and the same words) into object {@code key} with its tokens. */
    private void writeObject(String key, int rows) throws IOException {
        ColumnarRows columns = new ColumnarRows();
        for (int i = 0; i < rows; i++) {
            columns.append(T0 + i, "GET /users completed", List.of(new Label("trace_id", key + "-" + i)));
        }
        try (ColumnarObjectWriter object = new ColumnarObjectWriter(new ByteArrayOutputStream(), ColumnarConfig.defaults())) {
            SeriesBloomWriter.ObjectTokens tokens = writer.start("t", SERIES.fingerprint(), T0, key);
            object.add(SERIES, columns, tokens); // which finishes the tokens
            object.finish();
        }
        writer.persist();
    }

    private SeriesBloom stored() throws IOException {
        return store.load("t", SERIES.fingerprint(), SeriesBloom.periodNumber(T0)).orElseThrow();
    }

    @Test
    void oneObject_oneFilterSizedForItsDistinctTokens() throws IOException {
        writeObject("t/objects/a.lbo", 5_000);
        SeriesBloom bloom = stored();
        assertThat(bloom.coveredChunkKeys()).containsExactly("t/objects/a.lbo");
        ScalableBloomFilter filter = bloom.filters().get("t/objects/a.lbo");
        BloomStats stats = filter.stats();
        // 5000 `trace_id=…` plus the key `trace_id` and the words GET, users, completed (one block): 5004 distinct
        assertThat(stats.capacity()).isEqualTo(5_004);
        // an add whose bits were all set already (a false positive at insert time) is not counted as an item
        assertThat(stats.itemsInserted()).isBetween(4_950L, 5_004L);
        assertThat(stats.subFilters()).isEqualTo(1);
        assertThat(stats.sizeBytes()).isLessThan((long) (SeriesBloomWriter.exactSizeBytes(5_004, 0.01) * 1.1));
        String scope = ColumnarDirectory.blockScope("t/objects/a.lbo", 0);
        for (int i = 0; i < 5_000; i++) {
            assertThat(bloom.mightContain("t/objects/a.lbo",
                    BloomTokenizer.chunkScopedHash(scope, "trace_id=t/objects/a.lbo-" + i))).isTrue();
        }
        int falsePositives = 0;
        for (int i = 0; i < 10_000; i++) {
            if (bloom.mightContain("t/objects/a.lbo", BloomTokenizer.chunkScopedHash(scope, "trace_id=absent-" + i))) {
                falsePositives++;
            }
        }
        assertThat(falsePositives).as("error rate 0.01 of 10000 probes").isBetween(40, 200);
    }

    /**
     * The writer splits the lines into words as it tokenizes them (LineWords) and the blooms take those: the filter
     * holds exactly the tokens of scanning each block's lines and metadata by the tokenizer, for lines of every kind of
     * word (several runs, digits only, non-ASCII), over many blocks.
     */
    @Test
    void wordsSplitByTheWriter_sameTokensAsScanningTheLines() throws IOException {
        String[] pieces = {"GET", "users", "duration_ms", "25ms", "007", "42", "x1y2", "1234567890123456789012", " ",
            "=", "-", ":", "é", "日本", "😀", "ü-ö", "vol-12", "_", "\t", "trace0x", "level=error"};
        java.util.Random random = new java.util.Random(7);
        ColumnarRows columns = new ColumnarRows();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder line = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                line.append(pieces[random.nextInt(pieces.length)]);
            }
            line.append(' ').append(Integer.toString(random.nextInt(5_000), 36)); // words fresh in later blocks
            columns.append(T0 + i, line.toString(), random.nextBoolean() ? List.of()
                    : List.of(new Label("trace_id", Integer.toHexString(random.nextInt()))));
        }
        String key = "t/objects/words.lbo";
        BloomTokenizer tokenizer = new BloomTokenizer(BloomTokenizerConfig.defaults());
        java.util.Set<Long> expected = new java.util.HashSet<>();
        int[] blocksWithWords = {0, 0};
        try (ColumnarObjectWriter object = new ColumnarObjectWriter(new ByteArrayOutputStream(),
                ColumnarConfig.defaults().withMaxRawBytesPerBlock(64 * 1024))) {
            SeriesBloomWriter.ObjectTokens tokens = writer.start("t", SERIES.fingerprint(), T0, key);
            object.add(SERIES, columns, new ColumnarObjectWriter.BlockSink() {
                @Override
                public void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to,
                        io.logbloom.chunks.LineWords words) {
                    blocksWithWords[0]++;
                    blocksWithWords[1] += words == null ? 0 : 1;
                    tokens.block(blockIndex, rows, order, from, to, words);
                    BloomTokenizer.ChunkTokens reference = tokenizer.chunk(ColumnarDirectory.blockScope(key, blockIndex),
                            expected::add);
                    for (int i = from; i < to; i++) {
                        rows.forEachMetadata(order[i], reference::metadata);
                        reference.line(rows.line(order[i]));
                    }
                }

                @Override
                public io.logbloom.chunks.LineWords.Rule wordRule() {
                    return tokens.wordRule();
                }
            });
            tokens.finish();
            object.finish();
        }
        writer.persist();
        assertThat(blocksWithWords[0]).isGreaterThan(10);
        assertThat(blocksWithWords[1]).as("blocks whose words the writer split").isEqualTo(blocksWithWords[0]);
        ScalableBloomFilter filter = stored().filters().get(key);
        assertThat(filter.stats().capacity()).as("distinct tokens").isEqualTo(expected.size());
        for (long hash : expected) {
            assertThat(filter.mightContain(hash)).isTrue();
        }
    }

    @Test
    void secondObject_ownFilter_forgetDropsOnlyTheReplacedOne() throws IOException {
        writeObject("t/objects/a.lbo", 100);
        writeObject("t/objects/b.lbo", 3_000);
        SeriesBloom bloom = stored();
        assertThat(bloom.coveredChunkKeys()).containsExactlyInAnyOrder("t/objects/a.lbo", "t/objects/b.lbo");
        assertThat(bloom.filters().get("t/objects/a.lbo").stats().capacity()).isEqualTo(104);
        assertThat(bloom.filters().get("t/objects/b.lbo").stats().capacity()).isEqualTo(3_004);

        writer.forget("t", SERIES.fingerprint(), SeriesBloom.periodNumber(T0), Set.of("t/objects/a.lbo"));
        writer.persist();
        assertThat(stored().coveredChunkKeys()).containsExactly("t/objects/b.lbo");
    }

    /** The memory total admission reads is kept up to date through writes, replacements, forgets and evictions. */
    @Test
    void memoryBytes_followsTheBloomsHeld() throws IOException {
        assertThat(writer.memoryBytes()).isZero();
        writeObject("t/objects/a.lbo", 100);
        assertThat(writer.memoryBytes()).isEqualTo(stored().sizeBytes()).isPositive();
        writeObject("t/objects/b.lbo", 3_000);
        long both = stored().sizeBytes();
        assertThat(writer.memoryBytes()).isEqualTo(both);
        writer.forget("t", SERIES.fingerprint(), SeriesBloom.periodNumber(T0), Set.of("t/objects/b.lbo"));
        assertThat(writer.memoryBytes()).isLessThan(both);
        writer.persist();
        assertThat(writer.memoryBytes()).isEqualTo(stored().sizeBytes());
        writer.evict(T0); // the period is current: kept
        assertThat(writer.memoryBytes()).isEqualTo(stored().sizeBytes());
        writer.evict(T0 + 3 * 86_400_000_000_000L); // two periods later, persisted: evicted
        assertThat(writer.memoryBytes()).isZero();
    }
}
