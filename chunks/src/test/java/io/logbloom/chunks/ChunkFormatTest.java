package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Corruption, truncation and version handling of the encoded chunk format. */
final class ChunkFormatTest {
    private static byte[] sampleChunk(ChunkEncoding encoding) {
        MemChunk chunk = new MemChunk(new ChunkConfig(400, 1 << 20, encoding));
        TestLogs.sorted(5, 40, 1_000).forEach(chunk::append);
        return chunk.encode();
    }

    /** Decodes and reads everything; the checks that a reader would run. */
    private static List<LogEntry> readAll(byte[] bytes) throws ChunkFormatException {
        Chunk chunk = Chunk.decode(bytes);
        return chunk.entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD);
    }

    @ParameterizedTest
    @EnumSource(ChunkEncoding.class)
    void flippedByte_anywhere_detected(ChunkEncoding encoding) throws Exception {
        byte[] original = sampleChunk(encoding);
        assertThat(Chunk.decode(original).blocks()).hasSizeGreaterThan(2);
        for (int position = 0; position < original.length; position++) {
            for (int bit : new int[] {0x01, 0x80}) {
                byte[] corrupt = original.clone();
                corrupt[position] ^= (byte) bit;
                int at = position;
                assertThatThrownBy(() -> readAll(corrupt))
                        .as("flip of bit %x at offset %d", bit, at)
                        .isInstanceOf(ChunkFormatException.class);
            }
        }
    }

    @Test
    void flippedByte_messageNamesSectionAndOffsets() throws Exception {
        byte[] bytes = sampleChunk(ChunkEncoding.SNAPPY);
        Chunk chunk = Chunk.decode(bytes);
        ChunkBlock block = chunk.blocks().get(1);
        bytes[block.offset() + 3] ^= 1;
        assertThatThrownBy(() -> readAll(bytes))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("block 1 checksum mismatch")
                .hasMessageContaining("[" + block.offset() + ", " + (block.offset() + block.storedLength()) + ")");

        byte[] header = sampleChunk(ChunkEncoding.SNAPPY);
        header[10] ^= 1;
        assertThatThrownBy(() -> Chunk.decode(header)).hasMessageContaining("chunk header checksum mismatch");
    }

    @ParameterizedTest
    @EnumSource(ChunkEncoding.class)
    void truncation_atEveryLength_detected(ChunkEncoding encoding) {
        byte[] original = sampleChunk(encoding);
        for (int length = 0; length < original.length; length++) {
            byte[] truncated = Arrays.copyOf(original, length);
            assertThatThrownBy(() -> readAll(truncated))
                    .as("truncated to %d of %d bytes", length, original.length)
                    .isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void trailingBytes_detected() {
        byte[] original = sampleChunk(ChunkEncoding.SNAPPY);
        byte[] longer = Arrays.copyOf(original, original.length + 3);
        assertThatThrownBy(() -> Chunk.decode(longer))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("3 trailing bytes");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 7, 255})
    void unknownVersion_rejectedClearly(int version) {
        byte[] bytes = sampleChunk(ChunkEncoding.SNAPPY);
        bytes[4] = (byte) version;
        assertThatThrownBy(() -> Chunk.decode(bytes))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessage("unsupported chunk version " + version + " at offset 4 (this reader knows 1)");
    }

    @Test
    void currentVersion_isOne_andReadsBack() throws Exception {
        byte[] bytes = sampleChunk(ChunkEncoding.SNAPPY);
        assertThat(bytes[4]).isEqualTo((byte) 1);
        assertThat(readAll(bytes)).hasSize(Chunk.decode(bytes).entryCount());
    }

    /**
     * A version-1 chunk as written when the format was introduced (NONE encoding, so the bytes do not
     * depend on a compressor's version). Readers must keep reading it; if the writer's output changes,
     * the layout changed and {@code ChunkLayout.VERSION} must be bumped.
     */
    private static final String GOLDEN_V1 = "4c42434b0100e803000000000000d00700000000000003000000010000001300000013"
            + "000000b05fb55ce803000000000000d00700000000000003000000650000002800000028000000be512df1a182c5bc040874"
            + "726163655f696402743103706f6401700008666972737420c3bc01000105067365636f6e6400e3070a746869726420f09f9a"
            + "800200010203";

    private static List<LogEntry> goldenEntries() {
        return List.of(new LogEntry(1_000, "first ü", List.of(new Label("trace_id", "t1"))),
                LogEntry.of(1_005, "second"),
                new LogEntry(2_000, "third 🚀", List.of(new Label("trace_id", "t1"), new Label("pod", "p"))));
    }

    @Test
    void goldenVersion1_stillReadable() throws Exception {
        byte[] golden = java.util.HexFormat.of().parseHex(GOLDEN_V1);
        assertThat(readAll(golden)).isEqualTo(goldenEntries());
        assertThat(readAll(golden).get(2).metadataValue("pod")).isEqualTo("p");
    }

    @Test
    void writer_producesGoldenVersion1Bytes() {
        MemChunk chunk = new MemChunk(new ChunkConfig(64, 1024, ChunkEncoding.NONE));
        goldenEntries().forEach(chunk::append);
        assertThat(java.util.HexFormat.of().formatHex(chunk.encode())).isEqualTo(GOLDEN_V1);
    }

    @Test
    void badMagic_rejected() {
        byte[] bytes = sampleChunk(ChunkEncoding.SNAPPY);
        bytes[0] = 'X';
        assertThatThrownBy(() -> Chunk.decode(bytes))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("bad magic byte 0x58 at offset 0");
        assertThatThrownBy(() -> Chunk.decode("not a chunk at all".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("bad magic");
    }

    @Test
    void verify_findsCorruptBlockWithoutIterating() throws Exception {
        byte[] bytes = sampleChunk(ChunkEncoding.ZSTD);
        Chunk.decode(bytes).verify();
        ChunkBlock last = Chunk.decode(bytes).blocks().get(Chunk.decode(bytes).blocks().size() - 1);
        bytes[last.offset() + last.storedLength() - 1] ^= 0x10;
        Chunk chunk = Chunk.decode(bytes);
        assertThatThrownBy(chunk::verify).isInstanceOf(ChunkFormatException.class).hasMessageContaining("checksum");
    }

    @Test
    void iterator_wrapsCorruptionInUncheckedIOException() throws Exception {
        byte[] bytes = sampleChunk(ChunkEncoding.SNAPPY);
        bytes[Chunk.decode(bytes).blocks().get(0).offset()] ^= 1;
        var iterator = Chunk.decode(bytes).iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.BACKWARD);
        // backward reads the last block first, which is intact; the corrupt first block fails at the end
        assertThatThrownBy(() -> iterator.forEachRemaining(e -> { }))
                .isInstanceOf(java.io.UncheckedIOException.class)
                .hasCauseInstanceOf(ChunkFormatException.class);
    }
}
