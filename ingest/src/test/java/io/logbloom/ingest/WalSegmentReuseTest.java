package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Released WAL segment files written over by later segments, and format-1 segments left by older versions. */
final class WalSegmentReuseTest {
    @TempDir
    Path dir;

    private WalConfig config() {
        return WalConfig.defaults(dir);
    }

    private static WalRecord.Entries entries(String line) {
        return new WalRecord.Entries("t", List.of(new WalRecord.StreamEntries("{a=\"b\"}", List.of(LogEntry.of(5, line)))));
    }

    private Path segment(long id) {
        return WalFiles.segment(dir, id);
    }

    private List<String> fileNames() throws IOException {
        return WalFiles.fileNames(dir);
    }

    private List<WalRecord> reopen(long expectedCorruptions) throws IOException {
        return WalFiles.replay(config(), expectedCorruptions);
    }

    /** Segment 1 holds many records, is released, and its file becomes segment 3 with one short record. */
    private long reuseSegmentOneAsThree(String... recordsOfThree) throws IOException {
        long bigSize;
        try (Wal wal = Wal.open(config(), r -> {})) {
            for (int i = 0; i < 20; i++) {
                wal.append(entries("old " + i + " " + "x".repeat(2000)));
            }
            wal.rotate();
            bigSize = Files.size(segment(1));
            wal.append(entries("two"));
            assertThat(wal.releaseSegmentsBefore(2)).isEqualTo(1);
            assertThat(fileNames()).containsExactly("00000000000000000001.free", "00000000000000000002.wal");
            assertThat(wal.rotate()).isEqualTo(3);
            assertThat(wal.reusedSegmentsTotal()).isEqualTo(1);
            for (String line : recordsOfThree) {
                wal.append(entries(line));
            }
            assertThat(wal.sizeBytes()).as("counted to the records' end, not the reused file's size")
                    .isLessThan(bigSize / 4);
        }
        assertThat(fileNames()).containsExactly("00000000000000000002.wal", "00000000000000000003.wal");
        assertThat(Files.size(segment(3))).as("written over, not recreated").isEqualTo(bigSize);
        return bigSize;
    }

    @Test
    void releasedSegmentReused_recordsOfItsEarlierUseNeverReplayed() throws IOException {
        // as long as the first record of segment 1: the stale records behind it start exactly where a next record would
        String three = "new 0 " + "x".repeat(2000);
        reuseSegmentOneAsThree(three);
        assertThat(reopen(0)).containsExactly(entries("two"), entries(three));
        assertThat(reopen(0)).as("the newest was sealed at the last open").containsExactly(entries("two"), entries(three));
    }

    @Test
    void tornLastRecordInReusedFile_recordsEndThere_notDamage() throws IOException {
        reuseSegmentOneAsThree("kept", "torn by the crash");
        long size = Files.size(segment(3));
        // the last record's bytes stop short: what follows is the file's earlier use
        byte[] data = Files.readAllBytes(segment(3));
        int lastRecordAt = recordOffsets(data, 3).get(1);
        WalFiles.flipByte(segment(3), lastRecordAt + 20);
        assertThat(reopen(0)).containsExactly(entries("two"), entries("kept"));
        assertThat(reopen(0)).containsExactly(entries("two"), entries("kept"));
        assertThat(Files.size(segment(3))).as("not truncated: the file stays allocated").isEqualTo(size);
    }

    @Test
    void damagedLastRecordOfSealedSegment_countedAndSkipped() throws IOException {
        long lastAt;
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("a"));
            lastAt = wal.currentSegmentBytes();
            wal.append(entries("b (damaged)"));
            wal.rotate();
            wal.append(entries("c"));
        }
        WalFiles.flipByte(segment(1), lastAt + 20);
        assertThat(reopen(1)).containsExactly(entries("a"), entries("c"));
    }

    @Test
    void crashBetweenReuseRenameAndHeader_fileHoldsNoRecordOfItsNewId() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("released"));
            wal.rotate();
            wal.append(entries("live"));
            wal.releaseSegmentsBefore(2);
        }
        // a rotation sealed segment 2, renamed the free file for segment 3, then died before its header reached the disk
        sealByHand(2);
        Files.move(dir.resolve("00000000000000000001.free"), segment(3));
        assertThat(reopen(0)).containsExactly(entries("live"));
        try (Wal wal = Wal.open(config(), r -> {})) {
            assertThat(wal.currentSegment()).as("the open above started segment 4").isEqualTo(5);
            wal.append(entries("after"));
        }
        assertThat(reopen(0)).containsExactly(entries("live"), entries("after"));
    }

    @Test
    void crashBeforeNewSegmentsHeader_emptyNewestSegmentSealed() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("live"));
        }
        sealByHand(1); // a rotation sealed segment 1 and died writing the header of segment 2
        Files.write(segment(2), new byte[] {0x4C, 0x42});
        assertThat(reopen(0)).containsExactly(entries("live"));
        assertThat(reopen(0)).containsExactly(entries("live"));
    }

    @Test
    void nextSegmentIdsStayAboveFreeFiles() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("1"));
            wal.rotate();
            wal.rotate();
            wal.releaseSegmentsBefore(3);
        }
        for (long id : Wal.segmentIds(dir)) {
            Files.delete(segment(id));
        }
        assertThat(fileNames()).containsExactly("00000000000000000001.free", "00000000000000000002.free");
        try (Wal wal = Wal.open(config(), r -> {})) {
            assertThat(wal.currentSegment()).as("a reused file never meets its own id again").isEqualTo(3);
            assertThat(wal.reusedSegmentsTotal()).isEqualTo(1);
        }
    }

    @Test
    void atMostTwoFreeFilesKept_largerThanASegmentDeleted() throws IOException {
        WalConfig small = new WalConfig(dir, WalConfig.FsyncPolicy.PER_REQUEST, Duration.ofSeconds(1),
                WalConfig.MIN_SEGMENT_SIZE_BYTES);
        try (Wal wal = Wal.open(small, r -> {})) {
            wal.append(entries("x".repeat((int) WalConfig.MIN_SEGMENT_SIZE_BYTES * 2))); // one record past the size
            for (int i = 0; i < 4; i++) {
                wal.rotate();
                wal.append(entries("small " + i));
            }
            assertThat(wal.currentSegment()).isEqualTo(5);
            assertThat(wal.releaseSegmentsBefore(5)).isEqualTo(4);
        }
        assertThat(fileNames()).containsExactly("00000000000000000002.free", "00000000000000000003.free",
                "00000000000000000005.wal");
    }

    @Test
    void releasedSegmentThatCannotBeRenamed_deletedInstead() throws IOException {
        try (Wal wal = Wal.open(config(), r -> {})) {
            wal.append(entries("released"));
            wal.rotate();
            wal.append(entries("live"));
            Files.createDirectories(dir.resolve("00000000000000000001.free").resolve("in the way"));
            assertThat(wal.releaseSegmentsBefore(2)).isEqualTo(1);
            assertThat(Files.exists(segment(1))).isFalse();
            assertThat(wal.rotate()).isEqualTo(3);
            assertThat(wal.reusedSegmentsTotal()).as("nothing was kept to reuse").isZero();
            wal.append(entries("after"));
        }
        Files.delete(dir.resolve("00000000000000000001.free").resolve("in the way"));
        Files.delete(dir.resolve("00000000000000000001.free"));
        assertThat(reopen(0)).containsExactly(entries("live"), entries("after"));
    }

    @Test
    void format1Segments_replayedTornTailTruncated_deletedNotReused() throws IOException {
        Files.createDirectories(dir);
        Files.write(segment(1), format1(entries("r1"), entries("r2")));
        byte[] second = format1(entries("r3"), entries("torn"));
        Files.write(segment(2), java.util.Arrays.copyOf(second, second.length - 3));
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config(), replayed::add)) {
            assertThat(wal.corruptions()).isZero();
            assertThat(wal.currentSegment()).isEqualTo(3);
            wal.append(entries("r4"));
            assertThat(wal.releaseSegmentsBefore(3)).isEqualTo(2);
        }
        assertThat(replayed).containsExactly(entries("r1"), entries("r2"), entries("r3"));
        assertThat(fileNames()).as("format-1 files are not reused").containsExactly("00000000000000000003.wal");
        assertThat(reopen(0)).containsExactly(entries("r4"));
    }

    @Test
    void format1OlderSegmentWithFlippedByte_recordSkippedAndCounted() throws IOException {
        Files.createDirectories(dir);
        byte[] first = format1(entries("r1"), entries("r2 (damaged)"), entries("r3"));
        int secondAt = 8 + WalCodec.encode(entries("r1")).length;
        first[secondAt + 12] ^= (byte) 0x80;
        Files.write(segment(1), first);
        Files.write(segment(2), format1(entries("r4")));
        assertThat(reopen(1)).containsExactly(entries("r1"), entries("r3"), entries("r4"));
    }

    @Test
    void volumeOutOfSpaceAmidRotationsAndReuse_freeFilesDeleted_everyAcknowledgedUnreleasedRecordReplayed()
            throws IOException {
        Configuration small = Configuration.unix().toBuilder().setBlockSize(4096).setMaxSize(512 * 1024).build();
        try (FileSystem fs = Jimfs.newFileSystem(small)) {
            Path walDir = fs.getPath("/wal");
            WalConfig config = new WalConfig(walDir, WalConfig.FsyncPolicy.PER_REQUEST, Duration.ofSeconds(1),
                    WalConfig.MIN_SEGMENT_SIZE_BYTES);
            Path filler = fs.getPath("/filler");
            Files.write(filler, new byte[380 * 1024]);
            Map<WalRecord, Long> acknowledged = new java.util.LinkedHashMap<>();
            long releasedBefore = 0;
            int refusals = 0;
            try (Wal wal = Wal.open(config, r -> {})) {
                for (int i = 0; i < 400; i++) {
                    if (i == 300) {
                        Files.delete(filler);
                    }
                    WalRecord record = entries("record " + i + " " + "x".repeat(3000 + i * 7));
                    try {
                        acknowledged.put(record, wal.append(record));
                    } catch (WalWriteException e) {
                        assertThat(e.outOfSpace()).isTrue();
                        assertThat(i).as("refused while releases stop, space returns at 300").isBetween(100, 299);
                        refusals++;
                        try (Stream<Path> files = Files.list(walDir)) {
                            assertThat(files.map(Path::toString)).as("free files deleted").noneMatch(n -> n.endsWith(".free"));
                        }
                    }
                    // a seal releases everything before the current segment; from 100 to 200 none does (the segments
                    // then take new space: with releases, the reused files hold it flat)
                    if (i % 5 == 4 && (i < 100 || i >= 200)) {
                        releasedBefore = wal.currentSegment();
                        wal.releaseSegmentsBefore(releasedBefore);
                    }
                }
                assertThat(refusals).as("the volume filled up").isPositive();
                assertThat(wal.reusedSegmentsTotal()).isPositive();
            }
            long cut = releasedBefore;
            List<WalRecord> expected = acknowledged.entrySet().stream().filter(e -> e.getValue() >= cut)
                    .map(Map.Entry::getKey).toList();
            assertThat(expected).isNotEmpty();
            assertThat(WalFiles.replay(config, 0)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void openOnAFullVolume_segmentCutInsteadOfSealed_writesRefusedUntilSpaceReturns_nothingLost() throws IOException {
        Configuration small = Configuration.unix().toBuilder().setBlockSize(4096).setMaxSize(256 * 1024).build();
        try (FileSystem fs = Jimfs.newFileSystem(small)) {
            WalConfig config = WalConfig.defaults(fs.getPath("/wal"));
            // one record filling the segment's first block: its seal would need a block of its own
            String line = "x";
            while (WalFormat.HEADER_BYTES + WalFormat.FRAME_BYTES + WalCodec.encode(entries(line)).length < 4096) {
                line += "x";
            }
            assertThat(WalFormat.HEADER_BYTES + WalFormat.FRAME_BYTES + WalCodec.encode(entries(line)).length)
                    .isEqualTo(4096);
            try (Wal wal = Wal.open(config, r -> {})) {
                wal.append(entries(line));
            }
            Path filler = fs.getPath("/filler");
            try (java.io.OutputStream out = Files.newOutputStream(filler)) {
                for (int i = 0; i < 1024; i++) {
                    out.write(new byte[4096]);
                }
            } catch (IOException full) {
                // the volume is full
            }
            List<WalRecord> replayed = new ArrayList<>();
            try (Wal wal = Wal.open(config, replayed::add)) {
                assertThat(replayed).containsExactly(entries(line));
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> wal.append(entries("refused")))
                        .isInstanceOfSatisfying(WalWriteException.class, e -> assertThat(e.outOfSpace()).isTrue());
                Files.delete(filler);
                wal.append(entries("after space returned"));
            }
            assertThat(WalFiles.replay(config, 0)).containsExactly(entries(line), entries("after space returned"));
        }
    }

    @Test
    void concurrentWritersWhileSegmentsAreReleasedAndReused_replayHoldsExactlyTheUnreleasedRecords() throws Exception {
        WalConfig small = new WalConfig(dir, WalConfig.FsyncPolicy.PER_REQUEST, Duration.ofSeconds(1),
                WalConfig.MIN_SEGMENT_SIZE_BYTES);
        Map<WalRecord, Long> written = new ConcurrentHashMap<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        long cut;
        try (Wal wal = Wal.open(small, r -> {})) {
            AtomicBoolean done = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int id = t;
                writers.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 150; i++) {
                            WalRecord record = entries("w" + id + "-" + i + "-" + "y".repeat(1500));
                            Wal.Position p = wal.write(record);
                            wal.syncTo(p.sequence());
                            written.put(record, p.segment());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            Thread releaser = new Thread(() -> {
                try {
                    while (!done.get()) {
                        wal.releaseSegmentsBefore(wal.rotate() - 1);
                        Thread.sleep(1);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.forEach(Thread::start);
            releaser.start();
            for (Thread w : writers) {
                w.join();
            }
            done.set(true);
            releaser.join();
            assertThat(failures).isEmpty();
            assertThat(wal.reusedSegmentsTotal()).isGreaterThan(5);
            cut = wal.oldestSegment();
        }
        long oldest = cut;
        assertThat(WalFiles.replay(small, 0)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
                written.entrySet().stream().filter(e -> e.getValue() >= oldest).map(Map.Entry::getKey).toList());
    }

    /** Appends the seal a rotation writes to segment {@code id} (closing a WAL leaves the current segment open). */
    private void sealByHand(long id) throws IOException {
        Files.write(segment(id), WalFormat.seal(id).array(), java.nio.file.StandardOpenOption.APPEND);
    }

    /** Segment bytes in format 1: each record framed by its length and the CRC32C of its payload alone. */
    private static byte[] format1(WalRecord... records) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (WalRecord r : records) {
            byte[] payload = WalCodec.encode(r);
            out.writeBytes(ByteBuffer.allocate(8).putInt(payload.length)
                    .putInt(WalFormat.format1Crc(payload, 0, payload.length)).array());
            out.writeBytes(payload);
        }
        return out.toByteArray();
    }

    /** Offsets of the intact records of segment {@code id} in a format-2 file, up to the first frame that is not. */
    private static List<Integer> recordOffsets(byte[] data, long id) {
        List<Integer> offsets = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(data);
        int at = WalFormat.HEADER_BYTES;
        while (at + 8 <= data.length) {
            int length = in.getInt(at);
            if (length <= 0 || at + 8 + length > data.length
                    || WalFormat.recordCrc(id, data, at + 8, length) != in.getInt(at + 4)) {
                break;
            }
            offsets.add(at);
            at += 8 + length;
        }
        return offsets;
    }
}
