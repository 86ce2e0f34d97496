package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class ColumnarFormatTest {
    private static final ColumnarConfig SMALL_BLOCKS = new ColumnarConfig(64, 4096, 3);

    private static ColumnarObjectReader reader(byte[] bytes) {
        return new ColumnarObjectReader(RangeSource.ofBytes("test-object", bytes));
    }

    private static void assertRoundTrip(Map<Labels, List<LogEntry>> streams, ColumnarConfig config)
            throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(config, ColumnarTestData.rows(streams));
        ColumnarObjectReader reader = reader(bytes);
        ColumnarDirectory directory = reader.directory();
        assertThat(directory.streams()).hasSize(streams.size());
        List<Labels> order = new ArrayList<>(streams.keySet());
        order.sort(ColumnarDirectory.STREAM_ORDER);
        long rows = 0;
        for (int s = 0; s < order.size(); s++) {
            Labels labels = order.get(s);
            ColumnarStreamInfo stream = directory.streams().get(s);
            assertThat(stream.labels()).isEqualTo(labels);
            assertThat(directory.indexOf(labels)).isEqualTo(s);
            List<LogEntry> expected = ColumnarTestData.expected(streams.get(labels));
            assertThat(reader.entries(s, Long.MIN_VALUE, Long.MAX_VALUE)).containsExactlyElementsOf(expected);
            assertThat(stream.rows()).isEqualTo(expected.size());
            assertThat(stream.minTimeNanos()).isEqualTo(expected.get(0).timestampNanos());
            assertThat(stream.maxTimeNanos()).isEqualTo(expected.get(expected.size() - 1).timestampNanos());
            for (ColumnarBlockInfo block : directory.blocksOf(s)) {
                assertThat(block.stream()).isEqualTo(s);
                assertThat(block.rows()).isLessThanOrEqualTo(config.maxRowsPerBlock());
                assertThat(block.rawBytes() <= config.maxRawBytesPerBlock() || block.rows() == 1).isTrue();
            }
            rows += expected.size();
        }
        assertThat(directory.rows()).isEqualTo(rows);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void roundTrip_randomStreams(long seed) throws IOException {
        Random random = new Random(seed);
        assertRoundTrip(ColumnarTestData.streams(random, 1 + random.nextInt(40), 400), SMALL_BLOCKS);
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void roundTrip_fastEffort(long seed) throws IOException {
        Random random = new Random(seed);
        assertRoundTrip(ColumnarTestData.streams(random, 1 + random.nextInt(40), 400),
                SMALL_BLOCKS.withZstdLevel(1).withEffort(ColumnarConfig.Effort.FAST));
    }

    @Test
    void fastEffort_storesLinesPlainAndMetadataConstantOrRaw() throws IOException {
        Random random = new Random(5);
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            entries.add(new LogEntry(1_000_000L * i, "level=info status=200 took=" + random.nextInt(1000) + "ms",
                    List.of(new Label("constant", "same"), new Label("dictionary", "value-" + random.nextInt(3)),
                            new Label("trace_id", ColumnarTestData.hex(random, 16, false)))));
        }
        ColumnarConfig fast = ColumnarConfig.defaults().withZstdLevel(1).withEffort(ColumnarConfig.Effort.FAST);
        byte[] bytes = ColumnarObjectWriter.write(fast, Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = reader(bytes);
        ColumnarBlockInfo block = reader.directory().blocks().get(0);
        assertThat(block.lines().encoding()).isEqualTo(ColumnarEncoding.LINES);
        assertThat(block.lines().zstd()).isTrue();
        assertThat(block.metadata("constant").encoding()).isEqualTo(ColumnarEncoding.METADATA_CONSTANT);
        assertThat(block.metadata("dictionary").encoding()).isEqualTo(ColumnarEncoding.METADATA_RAW);
        assertThat(block.metadata("trace_id").encoding()).isEqualTo(ColumnarEncoding.METADATA_RAW);
        assertThat(reader.entries(0, Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactlyElementsOf(ColumnarTestData.expected(entries));
        byte[] smallest = ColumnarObjectWriter.write(fast.withEffort(ColumnarConfig.Effort.SMALLEST),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        assertThat(reader(smallest).directory().blocks().get(0).lines().encoding())
                .isEqualTo(ColumnarEncoding.LINES_TOKENIZED_RANGES);
    }

    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void roundTrip_uncompressedEffort(long seed) throws IOException {
        Random random = new Random(seed);
        assertRoundTrip(ColumnarTestData.streams(random, 1 + random.nextInt(40), 400),
                SMALL_BLOCKS.withEffort(ColumnarConfig.Effort.UNCOMPRESSED));
    }

    @Test
    void uncompressedEffort_fastEncodingsAndNoColumnCompressed() throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            entries.add(new LogEntry(1_000_000L * i, "level=info status=200 took=" + (i % 7) + "ms",
                    List.of(new Label("constant", "same"), new Label("dictionary", "value-" + i % 3))));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults().withEffort(ColumnarConfig.Effort.UNCOMPRESSED),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = reader(bytes);
        for (ColumnarBlockInfo block : reader.directory().blocks()) {
            assertThat(block.lines().encoding()).isEqualTo(ColumnarEncoding.LINES);
            assertThat(block.metadata("constant").encoding()).isEqualTo(ColumnarEncoding.METADATA_CONSTANT);
            assertThat(block.metadata("dictionary").encoding()).isEqualTo(ColumnarEncoding.METADATA_RAW);
            assertThat(block.columns()).allSatisfy(column -> assertThat(column.zstd()).as(column.kind() + " " + column.key())
                    .isFalse());
        }
        assertThat(reader.entries(0, Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactlyElementsOf(ColumnarTestData.expected(entries));
    }

    @Test
    void roundTrip_defaultConfig_manyStreams() throws IOException {
        assertRoundTrip(ColumnarTestData.streams(new Random(99), 150, 300), ColumnarConfig.defaults());
    }

    @Test
    void roundTrip_oneRow() throws IOException {
        assertRoundTrip(Map.of(Labels.of("a", "b"), List.of(LogEntry.of(5, "only"))), ColumnarConfig.defaults());
    }

    @Test
    void roundTrip_emptyLineAndEmptyValueDistinctFromAbsent() throws IOException {
        List<LogEntry> entries = List.of(
                new LogEntry(1, "", List.of(new Label("k", ""))),
                new LogEntry(2, "", List.of()),
                new LogEntry(3, "x", List.of(new Label("k", "v"))));
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(), Map.of(Labels.of("a", "b"),
                ColumnarRows.of(entries)));
        ColumnarValues values = reader(bytes).readMetadata(0, "k");
        assertThat(values.value(0)).isEmpty();
        assertThat(values.isPresent(1)).isFalse();
        assertThat(values.value(1)).isNull();
        assertThat(values.value(2)).isEqualTo("v");
        assertThat(reader(bytes).readMetadata(0, "missing").isPresent(0)).isFalse();
        assertThat(reader(bytes).entries(0)).containsExactlyElementsOf(entries);
    }

    @Test
    void hugeRows_getBlocksOfTheirOwn() throws IOException {
        String huge = "é".repeat(10_000);
        List<LogEntry> entries = List.of(LogEntry.of(1, "small"), LogEntry.of(2, huge), LogEntry.of(3, huge),
                LogEntry.of(4, "small"));
        Map<Labels, List<LogEntry>> streams = Map.of(Labels.of("a", "b"), entries);
        assertRoundTrip(streams, SMALL_BLOCKS);
        ColumnarDirectory directory = reader(ColumnarObjectWriter.write(SMALL_BLOCKS, ColumnarTestData.rows(streams)))
                .directory();
        assertThat(directory.blocks()).extracting(ColumnarBlockInfo::rows).containsExactly(1, 1, 1, 1);
    }

    @Test
    void blocks_cutAtMaxRows() throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            entries.add(LogEntry.of(i, "l" + i));
        }
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS, Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        assertThat(reader(bytes).directory().blocks()).extracting(ColumnarBlockInfo::rows).containsExactly(64, 64, 22);
    }

    @Test
    void almostHexValues_notHexEncoded_roundTripExactly() throws IOException {
        // each key's values are hex but for one row: mixed case, odd length, a byte outside [0-9a-fA-F] (also a
        // non-ASCII one), so the hex encoding (which drops the case and pairs digits) must not be chosen
        Map<String, String> spoilers = Map.of("mixed_case", "00aB", "odd_length", "0a1", "not_hex", "0g",
                "non_ascii", "0é", "dash", "00-1");
        Random random = new Random(11);
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            List<Label> metadata = new ArrayList<>();
            for (String key : new java.util.TreeSet<>(spoilers.keySet())) {
                metadata.add(new Label(key, i == 40 ? spoilers.get(key) : ColumnarTestData.hex(random, 2, false)));
            }
            entries.add(new LogEntry(1_000_000_000L + i, "line " + i, metadata));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(), Map.of(Labels.of("a", "b"),
                ColumnarRows.of(entries)));
        ColumnarDirectory directory = reader(bytes).directory();
        ColumnarBlockInfo block = directory.blocksOf(0).get(0);
        for (String key : spoilers.keySet()) {
            assertThat(block.metadata(key).encoding()).as(key).isNotEqualTo(ColumnarEncoding.METADATA_HEX);
        }
        assertThat(reader(bytes).entries(0, Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactlyElementsOf(ColumnarTestData.expected(entries));
    }

    @Test
    void everyEncoding_isChosenForTheDataItFits() throws IOException {
        Random random = new Random(7);
        List<LogEntry> entries = new ArrayList<>();
        long ts = 1_000_000_000L;
        for (int i = 0; i < 500; i++) {
            ts += 1_000_000; // regular: delta-of-delta wins
            List<Label> metadata = new ArrayList<>();
            metadata.add(new Label("constant", "same"));
            metadata.add(new Label("dictionary", "value-" + random.nextInt(3)));
            metadata.add(new Label("hex_lower", ColumnarTestData.hex(random, 16, false)));
            metadata.add(new Label("hex_upper", ColumnarTestData.hex(random, 1 + random.nextInt(8), true)));
            metadata.add(new Label("raw", Long.toString(random.nextLong(), 36) + "ü"));
            String line = "level=" + (random.nextBoolean() ? "info" : "warn") + " path=/api/" + random.nextInt(100_000)
                    + " status=" + (200 + random.nextInt(5)) + " took=" + random.nextInt(1000) + "ms "
                    + ColumnarTestData.line(random);
            entries.add(new LogEntry(ts, line, metadata));
        }
        List<LogEntry> irregular = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < 50; i++) {
            at += random.nextInt(120); // random gaps under 128: one-byte deltas, their zigzag differences often two bytes
            irregular.add(LogEntry.of(at, "x"));
        }
        List<LogEntry> noise = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            noise.add(LogEntry.of(i, ColumnarTestData.hex(random, 40, false) + Long.toString(random.nextLong(), 36)));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(), Map.of(Labels.of("a", "b"),
                ColumnarRows.of(entries), Labels.of("a", "c"), ColumnarRows.of(irregular), Labels.of("a", "d"),
                ColumnarRows.of(noise)));
        ColumnarDirectory directory = reader(bytes).directory();
        ColumnarBlockInfo block = directory.blocksOf(directory.indexOf(Labels.of("a", "b"))).get(0);
        assertThat(block.timestamps().encoding()).isEqualTo(ColumnarEncoding.TIMESTAMP_DELTA_OF_DELTA);
        assertThat(block.lines().encoding()).isEqualTo(ColumnarEncoding.LINES_TOKENIZED_RANGES);
        ColumnarBlockInfo noiseBlock = directory.blocksOf(directory.indexOf(Labels.of("a", "d"))).get(0);
        assertThat(noiseBlock.lines().encoding()).isEqualTo(ColumnarEncoding.LINES);
        assertThat(noiseBlock.lines().zstd()).isTrue();
        assertThat(block.metadata("constant").encoding()).isEqualTo(ColumnarEncoding.METADATA_CONSTANT);
        assertThat(block.metadata("dictionary").encoding()).isEqualTo(ColumnarEncoding.METADATA_DICTIONARY);
        assertThat(block.metadata("hex_lower").encoding()).isEqualTo(ColumnarEncoding.METADATA_HEX);
        assertThat(block.metadata("hex_lower").zstd()).isFalse();
        assertThat(block.metadata("hex_upper").encoding()).isEqualTo(ColumnarEncoding.METADATA_HEX);
        assertThat(block.metadata("raw").encoding()).isEqualTo(ColumnarEncoding.METADATA_RAW);
        ColumnarBlockInfo other = directory.blocksOf(directory.indexOf(Labels.of("a", "c"))).get(0);
        assertThat(other.timestamps().encoding()).isEqualTo(ColumnarEncoding.TIMESTAMP_DELTA);
        Set<ColumnarEncoding> seen = EnumSet.noneOf(ColumnarEncoding.class);
        for (ColumnarBlockInfo b : directory.blocks()) {
            b.columns().forEach(c -> seen.add(c.encoding()));
        }
        // every encoding but the tokenized lines without ranges, which version 4 no longer writes (read: v3 fixture)
        Set<ColumnarEncoding> written = EnumSet.allOf(ColumnarEncoding.class);
        written.remove(ColumnarEncoding.LINES_TOKENIZED);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(written);
        ColumnarObjectReader reader = reader(bytes);
        int s = directory.indexOf(Labels.of("a", "b"));
        assertThat(reader.entries(s, Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactlyElementsOf(ColumnarTestData.expected(entries));
        int n = directory.indexOf(Labels.of("a", "d"));
        assertThat(reader.entries(n, Long.MIN_VALUE, Long.MAX_VALUE)).containsExactlyElementsOf(noise);
    }

    @Test
    void flippedByte_inEveryColumn_isDetectedAndNamed() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS,
                ColumnarTestData.rows(ColumnarTestData.streams(new Random(3), 3, 200)));
        ColumnarDirectory directory = reader(bytes).directory();
        int checked = 0;
        for (int b = 0; b < directory.blocks().size(); b++) {
            for (ColumnarColumnInfo column : directory.blocks().get(b).columns()) {
                for (long at : new long[] {column.offset(), column.offset() + column.length() - 1}) {
                    ColumnarObjectReader reader = withFlippedByte(bytes, directory, at);
                    int block = b;
                    assertThatThrownBy(() -> read(reader, block, column))
                            .isInstanceOf(ChunkFormatException.class)
                            .hasMessageContaining("object test-object block " + b + " column " + column.displayName())
                            .hasMessageContaining("checksum mismatch");
                    assertThatThrownBy(() -> reader.readBlock(block)).isInstanceOf(ChunkFormatException.class);
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(20);
    }

    @Test
    void timestampsAndLines_readTheirColumnsOnly_andADamagedMetadataColumnDoesNotStopThem() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS,
                ColumnarTestData.rows(ColumnarTestData.streams(new Random(8), 3, 200)));
        ColumnarDirectory directory = reader(bytes).directory();
        int withMetadata = 0;
        for (int b = 0; b < directory.blocks().size(); b++) {
            ColumnarBlockInfo info = directory.blocks().get(b);
            assertThat(info.timestampsAndLinesLength())
                    .isEqualTo(info.timestamps().length() + info.lines().length()).isLessThanOrEqualTo(info.length());
            ColumnarBlock whole = reader(bytes).readBlock(b);
            // a source that refuses every byte outside the block's first two columns
            long from = info.offset();
            long to = from + info.timestampsAndLinesLength();
            RangeSource firstTwoColumns = new RangeSource() {
                @Override
                public String name() {
                    return "test-object";
                }

                @Override
                public long size() {
                    return bytes.length;
                }

                @Override
                public byte[] read(long offset, int length) {
                    assertThat(offset).as("read start").isGreaterThanOrEqualTo(from);
                    assertThat(offset + length).as("read end").isLessThanOrEqualTo(to);
                    return java.util.Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
                }
            };
            int block = b;
            ColumnarBlock counted = new ColumnarObjectReader(firstTwoColumns, directory).readTimestampsAndLines(b);
            assertSameTimestampsAndLines(counted, whole);
            assertThat(counted.keys()).isEmpty();
            if (info.columns().size() < 3) {
                continue;
            }
            withMetadata++;
            ColumnarColumnInfo metadata = info.columns().get(2);
            ColumnarObjectReader damagedReader = withFlippedByte(bytes, directory,
                    metadata.offset() + metadata.length() / 2);
            assertThatThrownBy(() -> damagedReader.readBlock(block)).isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("checksum mismatch");
            assertSameTimestampsAndLines(damagedReader.readTimestampsAndLines(block), whole);
            ColumnarObjectReader linesReader = withFlippedByte(bytes, directory,
                    info.lines().offset() + info.lines().length() / 2);
            assertThatThrownBy(() -> linesReader.readTimestampsAndLines(block)).isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("column " + info.lines().displayName());
        }
        assertThat(withMetadata).isGreaterThan(2);
    }

    /** A reader of a copy of the object {@code bytes} with the byte at {@code at} flipped. */
    private static ColumnarObjectReader withFlippedByte(byte[] bytes, ColumnarDirectory directory, long at) {
        byte[] corrupt = bytes.clone();
        corrupt[(int) at] ^= 0x10;
        return new ColumnarObjectReader(RangeSource.ofBytes("test-object", corrupt), directory);
    }

    private static void assertSameTimestampsAndLines(ColumnarBlock actual, ColumnarBlock expected) {
        assertThat(actual.rows()).isEqualTo(expected.rows());
        for (int row = 0; row < expected.rows(); row++) {
            assertThat(actual.timestampNanos(row)).isEqualTo(expected.timestampNanos(row));
            assertThat(actual.lines().line(row)).isEqualTo(expected.lines().line(row));
        }
    }

    private static Object read(ColumnarObjectReader reader, int block, ColumnarColumnInfo column) throws IOException {
        return switch (column.kind()) {
            case TIMESTAMPS -> reader.readTimestamps(block);
            case LINES -> reader.readLines(block);
            case METADATA -> reader.readMetadata(block, column.key());
        };
    }

    @Test
    void flippedByte_inDirectoryOrFooter_isDetected() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS,
                ColumnarTestData.rows(ColumnarTestData.streams(new Random(4), 5, 100)));
        ColumnarDirectory directory = reader(bytes).directory();
        for (long at = directory.directoryOffset(); at < bytes.length; at++) {
            byte[] corrupt = bytes.clone();
            corrupt[(int) at] ^= 0x01;
            assertThatThrownBy(() -> reader(corrupt).directory())
                    .isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("test-object");
        }
    }

    @Test
    void truncated_atManyPoints_isRejected() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS,
                ColumnarTestData.rows(ColumnarTestData.streams(new Random(5), 4, 100)));
        for (int length = 0; length < bytes.length; length += Math.max(1, length / 7)) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> reader(truncated).directory())
                    .as("truncated to %d of %d bytes", length, bytes.length)
                    .isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("test-object");
        }
    }

    @Test
    void unknownVersion_rejectedWithClearMessage() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(List.of(LogEntry.of(1, "x")))));
        bytes[bytes.length - 25 + 16] = 5;
        assertThatThrownBy(() -> reader(bytes).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("unsupported columnar version 5")
                .hasMessageContaining("knows 2 to 4");
        bytes[bytes.length - 25 + 16] = 1;
        assertThatThrownBy(() -> reader(bytes).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("unsupported columnar version 1");
    }

    @Test
    void blockFlag_distinctTimestamps_trueOnlyWhenTimestampsStrictlyIncrease() throws IOException {
        Map<Labels, ColumnarRows> rows = new java.util.LinkedHashMap<>();
        rows.put(Labels.of("app", "inc"), ColumnarRows.of(List.of(LogEntry.of(1, "a"), LogEntry.of(2, "b"),
                LogEntry.of(3, "c"))));
        rows.put(Labels.of("app", "tie"), ColumnarRows.of(List.of(LogEntry.of(5, "a"), LogEntry.of(5, "b"))));
        // appended out of order: the writer sorts, and the sorted timestamps strictly increase
        rows.put(Labels.of("app", "unsorted"), ColumnarRows.of(List.of(LogEntry.of(9, "late"), LogEntry.of(7, "early"))));
        rows.put(Labels.of("app", "one"), ColumnarRows.of(List.of(LogEntry.of(11, "only"))));
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(), rows);
        assertThat(bytes[4]).isEqualTo((byte) 4);
        ColumnarDirectory directory = reader(bytes).directory();
        Map<String, Boolean> flags = new java.util.TreeMap<>();
        for (ColumnarBlockInfo block : directory.blocks()) {
            flags.put(directory.streams().get(block.stream()).labels().get("app"), block.distinctTimestamps());
        }
        assertThat(flags).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("inc", true, "tie", false,
                "unsorted", true, "one", true)));
    }

    @Test
    void version2Object_stillRead_withoutBlockFlags() throws IOException {
        // written by the version-2 writer (before block flags): one stream with increasing timestamps and a
        // trace_id column, one with two rows at the same timestamp
        byte[] bytes;
        try (java.io.InputStream in = ColumnarFormatTest.class.getResourceAsStream("/columnar/v2-object.bin")) {
            bytes = in.readAllBytes();
        }
        assertThat(bytes[4]).isEqualTo((byte) 2);
        ColumnarObjectReader reader = reader(bytes);
        ColumnarDirectory directory = reader.directory();
        assertThat(directory.blocks()).hasSize(2).allSatisfy(b -> assertThat(b.distinctTimestamps()).isFalse());
        int inc = directory.indexOf(Labels.of("app", "inc"));
        int dup = directory.indexOf(Labels.of("app", "dup"));
        List<LogEntry> incEntries = reader.readBlock(directory.streams().get(inc).firstBlock()).entries();
        assertThat(incEntries).hasSize(5);
        assertThat(incEntries.get(4)).isEqualTo(new LogEntry(1_004, "increasing 4", List.of(new Label("trace_id", "t4"))));
        assertThat(reader.readBlock(directory.streams().get(dup).firstBlock()).entries()).extracting(LogEntry::line)
                .containsExactly("same time a", "same time b", "later");
    }

    @Test
    void version3Object_tokenizedLinesWithoutRanges_stillReadAndSearched() throws IOException {
        // written by the version-3 writer: 40 rows "level=info path=/api/v1/users/{7i} status={500 every 5th, else 200}
        // bytes={1000 + 37i}", trace_id {i as 32 hex digits}
        byte[] bytes;
        String fixture = "/columnar/v3-tokenized-object.bin";
        try (java.io.InputStream in = ColumnarFormatTest.class.getResourceAsStream(fixture)) {
            bytes = in.readAllBytes();
        }
        assertThat(bytes[4]).isEqualTo((byte) 3);
        ColumnarObjectReader reader = reader(bytes);
        assertThat(reader.directory().blocks()).singleElement()
                .satisfies(b -> assertThat(b.lines().encoding()).isEqualTo(ColumnarEncoding.LINES_TOKENIZED));
        ColumnarBlock block = reader.readBlock(0);
        List<LogEntry> entries = block.entries();
        assertThat(entries).hasSize(40);
        assertThat(entries.get(5)).isEqualTo(new LogEntry(1_005,
                "level=info path=/api/v1/users/35 status=500 bytes=1185",
                List.of(new Label("trace_id", "0".repeat(31) + "5"))));
        boolean[] hits = block.rowsContaining("status=500 ".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (int i = 0; i < 40; i++) {
            assertThat(hits[i]).as("row %d", i).isEqualTo(i % 5 == 0);
        }
    }

    @Test
    void wrongMagic_rejected() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(List.of(LogEntry.of(1, "x")))));
        byte[] tail = bytes.clone();
        tail[tail.length - 1] = 'X';
        assertThatThrownBy(() -> reader(tail).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("not a columnar object");
        byte[] head = bytes.clone();
        head[0] = 'X';
        assertThatThrownBy(() -> reader(head).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("head is not 'LBCO'");
        assertThatThrownBy(() -> reader(new byte[100]).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("not a columnar object");
    }

    @Test
    void v1RowChunk_rejectedNamingIt() throws IOException {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        for (LogEntry entry : TestLogs.sorted(1, 100, 1_000_000)) {
            chunk.append(entry);
        }
        byte[] v1 = chunk.encode();
        assertThatThrownBy(() -> reader(v1).directory())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("v1 row chunk");
    }

    @Test
    void rangedReads_fetchOnlyTheDirectoryThenTheBlock() throws IOException {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS,
                ColumnarTestData.rows(ColumnarTestData.streams(new Random(6), 20, 300)));
        AtomicLong readBytes = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        RangeSource inner = RangeSource.ofBytes("counted", bytes);
        RangeSource counting = new RangeSource() {
            @Override
            public String name() {
                return inner.name();
            }

            @Override
            public long size() throws IOException {
                return inner.size();
            }

            @Override
            public byte[] read(long offset, int length) throws IOException {
                reads.incrementAndGet();
                readBytes.addAndGet(length);
                return inner.read(offset, length);
            }
        };
        ColumnarObjectReader reader = new ColumnarObjectReader(counting);
        ColumnarDirectory directory = reader.directory();
        assertThat(reads.get()).isEqualTo(1);
        assertThat(bytes.length).isGreaterThan(ColumnarLayout.TAIL_READ_BYTES);
        assertThat(readBytes.get()).isEqualTo(ColumnarLayout.TAIL_READ_BYTES);
        int block = directory.blocks().size() / 2;
        ColumnarBlockInfo info = directory.blocks().get(block);
        reads.set(0);
        readBytes.set(0);
        reader.readBlock(block);
        assertThat(reads.get()).isEqualTo(1);
        assertThat(readBytes.get()).isEqualTo(info.length());
        readBytes.set(0);
        reader.readLines(block);
        assertThat(readBytes.get()).isEqualTo(info.lines().length());
        assertThat(info.length()).isLessThan(bytes.length / 20);
    }

    @Test
    void largeDirectory_needsASecondRead() throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            entries.add(new LogEntry(i, "", List.of(new Label("k" + (i % 3), "v"))));
        }
        ColumnarConfig oneRowBlocks = new ColumnarConfig(1, 1024, 3);
        byte[] bytes = ColumnarObjectWriter.write(oneRowBlocks, Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarDirectory directory = reader(bytes).directory();
        assertThat(directory.directoryLength()).isGreaterThan(ColumnarLayout.TAIL_READ_BYTES);
        assertThat(directory.blocks()).hasSize(40_000);
        assertThat(reader(bytes).entries(0, 100, 102)).containsExactlyElementsOf(entries.subList(100, 103));
    }

    @Test
    void writer_streaming_matchesConvenience_andRejectsOutOfOrderStreams() throws IOException {
        Map<Labels, List<LogEntry>> streams = ColumnarTestData.streams(new Random(8), 5, 50);
        List<Labels> order = new ArrayList<>(streams.keySet());
        order.sort(ColumnarDirectory.STREAM_ORDER);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ColumnarDirectory written;
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(out, ColumnarConfig.defaults())) {
            for (Labels labels : order) {
                writer.add(labels, ColumnarRows.of(streams.get(labels)));
            }
            assertThatThrownBy(() -> writer.add(order.get(0), ColumnarRows.of(streams.get(order.get(0)))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("fingerprint order");
            assertThatThrownBy(() -> writer.add(Labels.of("z", "z"), new ColumnarRows()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no rows");
            written = writer.finish();
            assertThat(writer.bytesWritten()).isEqualTo(out.size());
        }
        assertThat(out.toByteArray()).isEqualTo(ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                ColumnarTestData.rows(streams)));
        assertThat(reader(out.toByteArray()).directory().blocks()).isEqualTo(written.blocks());
        assertThat(reader(out.toByteArray()).directory().streams()).isEqualTo(written.streams());
    }
}
