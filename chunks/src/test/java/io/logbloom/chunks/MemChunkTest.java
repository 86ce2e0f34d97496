package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class MemChunkTest {
    private static final ChunkConfig SMALL_BLOCKS = new ChunkConfig(2048, 16 * 1024, ChunkEncoding.SNAPPY);

    private static List<LogEntry> collect(java.util.Iterator<LogEntry> iterator) {
        List<LogEntry> out = new ArrayList<>();
        iterator.forEachRemaining(out::add);
        return out;
    }

    @Test
    void appendDeduplicated_countsGivenSize_skipsHeadSearch_stillRejectsOutOfOrderAndNegativeSize() {
        MemChunk chunk = new MemChunk(SMALL_BLOCKS);
        LogEntry entry = new LogEntry(10, "héllo", List.of(new Label("k", "v")));
        chunk.appendDeduplicated(entry, MemChunk.rawSize(entry));
        chunk.appendDeduplicated(entry, MemChunk.rawSize(entry));
        assertThat(chunk.uncompressedBytes()).isEqualTo(16);
        assertThat(chunk.entryCount()).as("the caller owns deduplication").isEqualTo(2);
        assertThatThrownBy(() -> chunk.appendDeduplicated(LogEntry.of(11, "x"), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        chunk.cutBlock();
        assertThatThrownBy(() -> chunk.appendDeduplicated(LogEntry.of(9, "old"), 3))
                .isInstanceOf(OutOfOrderEntryException.class);
    }

    @ParameterizedTest
    @EnumSource(ChunkEncoding.class)
    void roundTrip_singleEntry(ChunkEncoding encoding) throws Exception {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults().withEncoding(encoding));
        LogEntry entry = new LogEntry(1_700_000_000_000_000_001L, "héllo wörld 🚀",
                List.of(new Label("trace_id", "abc"), new Label("pod", "p-1")));
        assertThat(chunk.append(entry)).isTrue();

        Chunk decoded = Chunk.decode(chunk.encode());

        assertThat(decoded.encoding()).isEqualTo(encoding);
        assertThat(decoded.entryCount()).isEqualTo(1);
        assertThat(decoded.minTimeNanos()).isEqualTo(entry.timestampNanos());
        assertThat(decoded.maxTimeNanos()).isEqualTo(entry.timestampNanos());
        assertThat(decoded.entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD)).containsExactly(entry);
    }

    @ParameterizedTest
    @EnumSource(ChunkEncoding.class)
    void roundTrip_manyEntriesOverManyBlocks(ChunkEncoding encoding) throws Exception {
        MemChunk chunk = new MemChunk(SMALL_BLOCKS.withEncoding(encoding));
        List<LogEntry> entries = TestLogs.sorted(7, 5_000, 1_000);
        for (LogEntry entry : entries) {
            chunk.append(entry);
        }
        byte[] bytes = chunk.encode();
        Chunk decoded = Chunk.decode(bytes);

        assertThat(decoded.blocks()).hasSizeGreaterThan(10);
        assertThat(decoded.entryCount()).isEqualTo(chunk.entryCount());
        List<LogEntry> distinct = entries.stream().distinct().toList();
        assertThat(decoded.entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD)).isEqualTo(distinct);
        assertThat(collect(chunk.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD))).isEqualTo(distinct);
        decoded.verify();
        ChunkRef ref = decoded.ref("tenant-a", 42L);
        assertThat(ref.checksum()).isEqualTo(Chunk.checksum(bytes));
        assertThat(ref.sizeBytes()).isEqualTo(bytes.length);
        assertThat(ref.entries()).isEqualTo(distinct.size());
        assertThat(ref.fromNanos()).isEqualTo(entries.get(0).timestampNanos());
        assertThat(ref.throughNanos()).isEqualTo(entries.get(entries.size() - 1).timestampNanos());
    }

    @Test
    void roundTrip_oneMillionEntries() throws Exception {
        MemChunk chunk = new MemChunk(new ChunkConfig(256 * 1024, 64 * 1024 * 1024, ChunkEncoding.SNAPPY));
        int count = 1_000_000;
        long base = 1_700_000_000_000_000_000L;
        for (int i = 0; i < count; i++) {
            List<Label> metadata = i % 10 == 0 ? List.of(new Label("trace_id", Integer.toHexString(i))) : List.of();
            assertThat(chunk.append(new LogEntry(base + i, "line " + i + " é", metadata))).isTrue();
        }
        Chunk decoded = Chunk.decode(chunk.encode());
        assertThat(decoded.entryCount()).isEqualTo(count);
        int[] seen = {0};
        decoded.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD).forEachRemaining(entry -> {
            int i = seen[0]++;
            if (entry.timestampNanos() != base + i || !entry.line().equals("line " + i + " é")
                    || entry.metadata().size() != (i % 10 == 0 ? 1 : 0)) {
                throw new AssertionError("entry " + i + " decoded as " + entry);
            }
        });
        assertThat(seen[0]).isEqualTo(count);
        LogEntry last = decoded.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.BACKWARD).next();
        assertThat(last).isEqualTo(LogEntry.of(base + count - 1, "line " + (count - 1) + " é"));
    }

    @Test
    void roundTrip_emptyChunk() throws Exception {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        Chunk decoded = Chunk.decode(chunk.encode());
        assertThat(decoded.entryCount()).isZero();
        assertThat(decoded.blocks()).isEmpty();
        assertThat(decoded.entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.BACKWARD)).isEmpty();
        assertThatThrownBy(chunk::minTimeNanos).isInstanceOf(IllegalStateException.class).hasMessage("chunk is empty");
    }

    @Test
    void rangeIteration_bothDirections_equalsBruteForce() throws Exception {
        Random random = new Random(11);
        for (int round = 0; round < 30; round++) {
            MemChunk chunk = new MemChunk(new ChunkConfig(512 + random.nextInt(4096), 1 << 20, ChunkEncoding.SNAPPY));
            List<LogEntry> appended = new ArrayList<>();
            long ts = random.nextInt(1000);
            int count = 1 + random.nextInt(2000);
            for (int i = 0; i < count; i++) {
                ts += random.nextInt(3) == 0 ? 0 : random.nextInt(100);
                // up to a few entries out of order inside the head block
                long at = random.nextInt(10) == 0 ? Math.max(0, ts - random.nextInt(50)) : ts;
                LogEntry entry = TestLogs.entry(random, at, i);
                try {
                    if (chunk.append(entry)) {
                        appended.add(entry);
                    }
                } catch (OutOfOrderEntryException e) {
                    assertThat(e.timestampNanos()).isEqualTo(at);
                }
            }
            // expected order: by time, equal times in append order (stable)
            List<LogEntry> expected = new ArrayList<>(appended);
            expected.sort(Comparator.comparingLong(LogEntry::timestampNanos));
            Chunk decoded = Chunk.decode(chunk.encode());
            for (int q = 0; q < 20; q++) {
                long from = random.nextInt((int) ts + 10) - 5;
                long through = from + random.nextInt((int) ts / 2 + 10);
                List<LogEntry> forward = expected.stream()
                        .filter(e -> e.timestampNanos() >= from && e.timestampNanos() < through).toList();
                List<LogEntry> backward = new ArrayList<>(forward);
                java.util.Collections.reverse(backward);
                assertThat(decoded.entries(from, through, Direction.FORWARD)).isEqualTo(forward);
                assertThat(decoded.entries(from, through, Direction.BACKWARD)).isEqualTo(backward);
                assertThat(collect(chunk.iterator(from, through, Direction.FORWARD))).isEqualTo(forward);
                assertThat(collect(chunk.iterator(from, through, Direction.BACKWARD))).isEqualTo(backward);
            }
        }
    }

    @Test
    void iterator_overHeadAndCutBlocks_unflushed() {
        MemChunk chunk = new MemChunk(SMALL_BLOCKS);
        List<LogEntry> entries = TestLogs.sorted(3, 300, 0).stream().distinct().toList();
        entries.forEach(chunk::append);
        assertThat(chunk.blockCount()).isPositive();
        assertThat(chunk.headBytes()).isPositive();
        assertThat(collect(chunk.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD))).isEqualTo(entries);
    }

    @Test
    void iterator_isSnapshot_unaffectedByLaterAppends() {
        MemChunk chunk = new MemChunk(SMALL_BLOCKS);
        chunk.append(LogEntry.of(1, "a"));
        var iterator = chunk.iterator(0, 100, Direction.FORWARD);
        chunk.append(LogEntry.of(2, "b"));
        assertThat(collect(iterator)).containsExactly(LogEntry.of(1, "a"));
    }

    @Test
    void append_unorderedInHead_sortedWhenCut() throws Exception {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        chunk.append(LogEntry.of(30, "c"));
        chunk.append(LogEntry.of(10, "a"));
        chunk.append(LogEntry.of(20, "b"));
        assertThat(chunk.minTimeNanos()).isEqualTo(10);
        assertThat(chunk.maxTimeNanos()).isEqualTo(30);
        assertThat(Chunk.decode(chunk.encode()).entries(0, 100, Direction.FORWARD))
                .extracting(LogEntry::line).containsExactly("a", "b", "c");
    }

    @Test
    void append_olderThanLastCutBlock_rejected() {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        chunk.append(LogEntry.of(100, "a"));
        assertThat(chunk.oldestAcceptedNanos()).isEqualTo(Long.MIN_VALUE);
        chunk.cutBlock();
        assertThat(chunk.oldestAcceptedNanos()).isEqualTo(100);
        chunk.append(LogEntry.of(100, "same time is fine"));
        assertThatThrownBy(() -> chunk.append(LogEntry.of(99, "late")))
                .isInstanceOf(OutOfOrderEntryException.class)
                .hasMessageContaining("99").hasMessageContaining("100");
        assertThat(chunk.entryCount()).isEqualTo(2);
    }

    @Test
    void append_exactDuplicate_dropped() {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        assertThat(chunk.append(LogEntry.of(5, "x"))).isTrue();
        assertThat(chunk.append(LogEntry.of(6, "y"))).isTrue();
        assertThat(chunk.append(LogEntry.of(5, "x"))).isFalse();
        assertThat(chunk.append(LogEntry.of(5, "x2"))).isTrue();
        assertThat(chunk.append(new LogEntry(5, "x", List.of(new Label("k", "v"))))).isTrue();
        assertThat(chunk.entryCount()).isEqualTo(4);
    }

    @Test
    void headCut_atBlockSize_andFull_atTargetSize() {
        MemChunk chunk = new MemChunk(new ChunkConfig(1000, 3000, ChunkEncoding.NONE));
        int i = 0;
        while (!chunk.isFull()) {
            chunk.append(LogEntry.of(i, "x".repeat(100) + i));
            i++;
            assertThat(chunk.headBytes()).isLessThan(1000);
        }
        assertThat(chunk.compressedBytes()).isGreaterThanOrEqualTo(3000);
        assertThat(chunk.blockCount()).isGreaterThanOrEqualTo(3);
        assertThat(chunk.uncompressedBytes()).isEqualTo(java.util.stream.IntStream.range(0, i)
                .mapToLong(n -> 100 + Integer.toString(n).length()).sum());
    }

    @Test
    void iteration_decodesOnlyOverlappingBlocks() throws Exception {
        MemChunk chunk = new MemChunk(new ChunkConfig(100, 1 << 20, ChunkEncoding.NONE));
        for (int i = 0; i < 100; i++) {
            chunk.append(LogEntry.of(i, "entry number " + i + " with padding " + "p".repeat(20)));
        }
        byte[] bytes = chunk.encode();
        Chunk clean = Chunk.decode(bytes);
        ChunkBlock last = clean.blocks().get(clean.blocks().size() - 1);
        bytes[last.offset() + 1] ^= 0x40; // corrupt only the last block
        Chunk corrupt = Chunk.decode(bytes);

        assertThat(corrupt.entries(0, last.minTimeNanos(), Direction.FORWARD)).hasSize((int) last.minTimeNanos());
        assertThatThrownBy(() -> corrupt.entries(0, 100, Direction.FORWARD))
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("block " + (clean.blocks().size() - 1) + " checksum mismatch");
    }
}
