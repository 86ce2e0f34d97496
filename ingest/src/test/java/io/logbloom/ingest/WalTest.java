package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class WalTest {
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"", "ascii line=1", "abc ✓ then more", "é", "😀 surrogate pair",
        "\u007f\u0080 edge"})
    void bufferWriteString_isLengthAndUtf8Bytes(String s) {
        WalCodec.Buffer buffer = new WalCodec.Buffer(1);
        buffer.writeByte(9);
        buffer.writeString(s);
        buffer.writeByte(8);
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer expected = java.nio.ByteBuffer.allocate(1 + 4 + utf8.length + 1);
        expected.put((byte) 9).putInt(utf8.length).put(utf8).put((byte) 8);
        assertThat(buffer.toByteArray()).isEqualTo(expected.array());
    }

    @TempDir
    Path dir;

    private WalConfig config() {
        return WalConfig.defaults(dir);
    }

    private static WalRecord.Entries entries(String line) {
        return new WalRecord.Entries("t", List.of(new WalRecord.StreamEntries("{a=\"b\"}",
                List.of(new LogEntry(5, line, List.of(new Label("k", "v")))))));
    }

    @Test
    void appendThenReopen_replaysAllRecordsInOrder() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("one"));
            wal.append(new WalRecord.Flushed("t", "{a=\"b\"}", new long[] {5}, new long[] {99}));
            wal.rotate();
            wal.append(entries("two ✓"));
        }
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.currentSegment()).isEqualTo(3);
        }
        assertThat(replayed).hasSize(3);
        assertThat(replayed.get(0)).isEqualTo(entries("one"));
        assertThat(((WalRecord.Flushed) replayed.get(1)).lineHashes()).containsExactly(99);
        assertThat(replayed.get(2)).isEqualTo(entries("two ✓"));
    }

    @Test
    void writePayload_entriesEncodedOneByOne_sameBytesAsEncode_andReplayed() throws IOException {
        List<LogEntry> entries = List.of(new LogEntry(5, "one ✓", List.of(new Label("k", "v"))), LogEntry.of(7, "two"));
        WalRecord.Entries record = new WalRecord.Entries("t", List.of(new WalRecord.StreamEntries("{a=\"b\"}", entries)));
        WalCodec.Buffer spliced = new WalCodec.Buffer(1);
        spliced.writeByte(WalCodec.TYPE_ENTRIES);
        spliced.writeString("t");
        spliced.writeInt(1);
        spliced.writeString("{a=\"b\"}");
        spliced.writeInt(entries.size());
        for (LogEntry e : entries) {
            int start = spliced.size();
            WalCodec.writeEntry(spliced, e);
            // the buffers copy the line's UTF-8 bytes straight out of the encoded entry
            assertThat(new String(spliced.array(), WalCodec.entryLineOffset(start),
                    WalCodec.entryLineLength(spliced.array(), start), StandardCharsets.UTF_8)).isEqualTo(e.line());
        }
        assertThat(spliced.toByteArray()).isEqualTo(WalCodec.encode(record));
        for (LogEntry e : entries) {
            // the push path writes the line from the UTF-8 bytes admission encoded: same bytes as from the string
            WalCodec.Buffer fromString = new WalCodec.Buffer(1);
            WalCodec.writeEntry(fromString, e);
            WalCodec.Buffer fromBytes = new WalCodec.Buffer(1);
            WalCodec.writeEntry(fromBytes, e.timestampNanos(), e.line().getBytes(StandardCharsets.UTF_8), e.metadata());
            assertThat(fromBytes.toByteArray()).isEqualTo(fromString.toByteArray());
        }
        try (Wal wal = Wal.open(config(), r -> {})) {
            Wal.Position at = wal.writePayload(spliced.array(), spliced.size());
            wal.syncTo(at.sequence());
        }
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(replayed).containsExactly(record);
        }
    }

    @Test
    void tornTail_truncatedAndLaterAppendsSurvive() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("kept"));
            wal.append(entries("torn"));
        }
        Path segment = dir.resolve(String.format("%020d.wal", 1));
        long size = Files.size(segment);
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.setLength(size - 3);
        }
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            wal.append(entries("after restart"));
        }
        assertThat(replayed).containsExactly(entries("kept"));
        List<WalRecord> again = new ArrayList<>();
        Wal.open(config(), again::add).close();
        assertThat(again).containsExactly(entries("kept"), entries("after restart"));
    }

    @Test
    void flippedByteInNewestSegment_treatedAsTornTail() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("kept"));
            wal.append(entries("damaged"));
        }
        Path segment = dir.resolve(String.format("%020d.wal", 1));
        flipLastByte(segment);
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.corruptions()).as("a torn tail is not damage").isZero();
        }
        assertThat(replayed).containsExactly(entries("kept"));
        List<WalRecord> again = new ArrayList<>();
        try (Wal wal = Wal.open(config(), again::add)) {
            assertThat(wal.corruptions()).as("sealed where its records ended: no longer the newest, not damage").isZero();
        }
        assertThat(again).containsExactly(entries("kept"));
    }

    @Test
    void flippedByteInOlderSegment_thatRecordSkippedAndCounted_restReplayed() throws IOException {
        long secondRecordAt;
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("old 1"));
            secondRecordAt = wal.currentSegmentBytes();
            wal.append(entries("old 2 (damaged)"));
            wal.append(entries("old 3"));
            wal.rotate();
            wal.append(entries("new"));
        }
        WalFiles.flipByte(dir.resolve(String.format("%020d.wal", 1)), secondRecordAt + 20);
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.corruptions()).isEqualTo(1);
        }
        assertThat(replayed).containsExactly(entries("old 1"), entries("old 3"), entries("new"));
    }

    @Test
    void flippedByteInTheMiddleOfNewestSegment_onlyThatRecordSkipped() throws IOException {
        long secondRecordAt;
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("1"));
            secondRecordAt = wal.currentSegmentBytes();
            wal.append(entries("2 (damaged)"));
            wal.append(entries("3"));
        }
        WalFiles.flipByte(dir.resolve(String.format("%020d.wal", 1)), secondRecordAt + 9);
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.corruptions()).isEqualTo(1);
        }
        assertThat(replayed).containsExactly(entries("1"), entries("3"));
    }

    @Test
    void damagedLengthInOlderSegment_restOfSegmentSkipped_laterSegmentsReplayed() throws IOException {
        long secondRecordAt;
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("a"));
            secondRecordAt = wal.currentSegmentBytes();
            wal.append(entries("b"));
            wal.rotate();
            wal.append(entries("c"));
        }
        WalFiles.flipByte(dir.resolve(String.format("%020d.wal", 1)), secondRecordAt); // top byte of the length: implausible
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.corruptions()).isEqualTo(1);
        }
        assertThat(replayed).containsExactly(entries("a"), entries("c"));
    }

    @Test
    void volumeOutOfSpace_writeRefused_noTornRecord_acknowledgedKept_recoversWhenSpaceReturns() throws IOException {
        Configuration small = Configuration.unix().toBuilder().setBlockSize(4096).setMaxSize(256 * 1024).build();
        try (FileSystem fs = Jimfs.newFileSystem(small)) {
            Path walDir = fs.getPath("/wal");
            WalConfig config = WalConfig.defaults(walDir);
            Files.createDirectories(walDir);
            Path filler = fs.getPath("/filler");
            Files.write(filler, new byte[200 * 1024]);
            List<WalRecord> acknowledged = new ArrayList<>();
            WalWriteException refused = null;
            try (Wal wal = Wal.open(config, r -> {})) {
                for (int i = 0; i < 100 && refused == null; i++) {
                    WalRecord record = entries("record " + i + " " + "x".repeat(3000 + i));
                    try {
                        wal.append(record);
                        acknowledged.add(record);
                    } catch (WalWriteException e) {
                        refused = e;
                    }
                }
                assertThat(refused).as("the volume filled up").isNotNull();
                assertThat(refused.outOfSpace()).isTrue();
                assertThat(wal.refusedWritesTotal()).isEqualTo(1);
                assertThatThrownBy(() -> wal.append(entries("still full " + "x".repeat(5000))))
                        .isInstanceOf(WalWriteException.class);
                assertThat(acknowledged).isNotEmpty();

                Files.delete(filler);
                WalRecord afterRecovery = entries("after space returned");
                wal.append(afterRecovery);
                acknowledged.add(afterRecovery);
            }
            assertThat(WalFiles.replay(config, 0)).containsExactlyElementsOf(acknowledged);
        }
    }

    @Test
    void releaseSegmentsBefore_keepsCurrentAndNewer() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("1"));
            wal.rotate();
            wal.append(entries("2"));
            wal.rotate();
            assertThat(wal.releaseSegmentsBefore(Long.MAX_VALUE)).isEqualTo(2);
            assertThat(wal.sizeBytes()).as("the current segment's header").isEqualTo(WalFormat.HEADER_BYTES);
            assertThat(Wal.segmentIds(dir)).containsExactly(3L);
            assertThat(WalFiles.fileNames(dir)).containsExactlyInAnyOrder(
                    "00000000000000000001.free", "00000000000000000002.free", "00000000000000000003.wal");
        }
    }

    @Test
    void segmentRotatesAtConfiguredSize() throws IOException {
        WalConfig small = new WalConfig(dir, WalConfig.FsyncPolicy.INTERVAL, java.time.Duration.ofSeconds(1),
                WalConfig.MIN_SEGMENT_SIZE_BYTES);
        try (Wal wal = Wal.open(small, r -> {})) {
            String line = "x".repeat(10_000);
            for (int i = 0; i < 20; i++) {
                wal.append(entries(line));
            }
            wal.sync();
            assertThat(wal.currentSegment()).isGreaterThan(2);
        }
        List<WalRecord> replayed = new ArrayList<>();
        Wal.open(small, replayed::add).close();
        assertThat(replayed).hasSize(20);
    }

    @Test
    void groupCommit_concurrentWritersWithRotation_allRecordsDurableAndReplayed() throws Exception {
        WalConfig small = new WalConfig(dir, WalConfig.FsyncPolicy.PER_REQUEST, java.time.Duration.ofSeconds(1),
                WalConfig.MIN_SEGMENT_SIZE_BYTES);
        int threads = 4;
        int perThread = 100;
        try (Wal wal = Wal.open(small, r -> {})) {
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            Wal.Position p = wal.write(entries("w" + id + "-" + i + "-" + "x".repeat(1000)));
                            wal.syncTo(p.sequence());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (Thread w : workers) {
                w.join();
            }
            assertThat(failures).isEmpty();
            assertThat(wal.currentSegment()).as("rotated while writing").isGreaterThan(1);
        }
        List<WalRecord> replayed = new ArrayList<>();
        Wal.open(small, replayed::add).close();
        assertThat(replayed).hasSize(threads * perThread).doesNotHaveDuplicates();
    }

    private static void flipLastByte(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(f.length() - 1);
            int b = f.read();
            f.seek(f.length() - 1);
            f.write(b ^ 0xff);
        }
    }
}
