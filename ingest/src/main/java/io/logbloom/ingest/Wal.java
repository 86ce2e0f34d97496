package io.logbloom.ingest;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: numbered segment files {@code <20-digit id>.wal} in one directory, each a
 * sequence of framed records.
 *
 * <pre>
 * record := length:u32 crc32c(payload):u32 payload[length]      (big-endian; payload per WalCodec)
 * </pre>
 *
 * <p>Durability: with {@link WalConfig.FsyncPolicy#PER_REQUEST} every {@link #append} forces the
 * channel before it returns, so an acknowledged push survives {@code kill -9} and power loss. A
 * crash can only tear the tail of the newest segment (older ones were forced before rotation):
 * replay stops there and truncates the torn bytes. Damage anywhere else (a flipped bit on disk) is
 * logged at ERROR naming segment and offset, counted ({@link #corruptions}) and stepped over, as
 * Loki's ingester keeps starting on WAL corruption and counts it: one damaged record must not keep
 * every intact one (and the server) down.
 *
 * <p>A failed write (the volume out of space, an I/O error) throws {@link WalWriteException} and
 * leaves no torn record behind: the segment is truncated back to its last whole record, at once or
 * before the next write, so later records never follow damage; the next write that succeeds ends the
 * refusal. Nothing refused was acknowledged, nothing acknowledged is touched.
 *
 * <p>Checkpointing is segment deletion: the owner rotates and deletes every segment older than
 * the oldest one still holding unflushed entries ({@link #deleteSegmentsBefore}).
 *
 * <p>Thread-safe: every method except {@link #syncTo} synchronizes on this object, which guards the
 * open channel, its segment id and size and the written/synced sequence numbers; {@code syncLock}
 * serializes group-commit forces.
 */
final class Wal implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Wal.class);
    private static final String SUFFIX = ".wal";
    /** Largest accepted record: bounds the allocation a damaged length field can trigger. */
    static final int MAX_RECORD_BYTES = 512 << 20;

    private final WalConfig config;
    /** The segment receiving appends; null after a failed rotation until the next write opens it. */
    private FileChannel channel;
    /** Where a failed write may have left a torn record in the current segment, or -1. */
    private long tornAt = -1;
    /** Records refused in a row (the first one is logged, the recovery after them too). */
    private long refusedWrites;
    private long refusedWritesTotal;
    private long corruptions;
    private long segmentId;
    private long segmentBytes;
    private long olderSegmentsBytes;
    private boolean dirty;
    private long writtenSeq;
    private long syncedSeq;
    private final Object syncLock = new Object();

    private Wal(WalConfig config) {
        this.config = config;
    }

    /** Receives replayed records with the id of the segment that holds them. */
    @FunctionalInterface
    interface SegmentReplay {
        /** One intact record of segment {@code segmentId}, in log order. */
        void accept(long segmentId, WalRecord record);
    }

    /** Opens the WAL in {@code config.directory()}, feeding every intact record to {@code replay} in order. */
    static Wal open(WalConfig config, Consumer<WalRecord> replay) throws IOException {
        return openWithSegments(config, (segment, record) -> replay.accept(record));
    }

    /** Opens the WAL, feeding every intact record and its segment id to {@code replay} in order. */
    static Wal openWithSegments(WalConfig config, SegmentReplay replay) throws IOException {
        Files.createDirectories(config.directory());
        Wal wal = new Wal(config);
        List<Long> ids = segmentIds(config.directory());
        long total = 0;
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            Path file = wal.segmentPath(id);
            wal.replaySegment(file, i == ids.size() - 1, record -> replay.accept(id, record));
            total += Files.size(file);
        }
        wal.olderSegmentsBytes = total;
        wal.segmentId = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        wal.openSegment();
        return wal;
    }

    /**
     * Replays one segment. A record whose frame is whole but whose checksum (or payload layout) is wrong
     * is skipped and counted, and replay goes on with the next frame. A frame whose length is
     * implausible cannot be stepped over: the rest of the segment is skipped and counted (in the newest
     * segment, where a crash can tear the tail, it is truncated away; a tail that merely ends early is a
     * torn write, not damage). Damaged segments are otherwise left as they are for inspection; the
     * checkpoint deletes them once their intact entries are flushed.
     */
    private void replaySegment(Path file, boolean newest, Consumer<WalRecord> replay) throws IOException {
        byte[] data = Files.readAllBytes(file);
        ByteBuffer in = ByteBuffer.wrap(data);
        while (in.hasRemaining()) {
            int start = in.position();
            if (in.remaining() < 8) {
                tornTail(file, newest, start, data.length, "truncated record header");
                return;
            }
            int length = in.getInt();
            int crc = in.getInt();
            if (length < 1 || length > MAX_RECORD_BYTES) {
                damaged(file, start, data.length - start, "invalid record length " + length + "; rest of segment skipped");
                if (newest) {
                    truncate(file, start);
                }
                return;
            }
            if (length > in.remaining()) {
                tornTail(file, newest, start, data.length, "record of " + length + " bytes truncated to " + in.remaining());
                return;
            }
            byte[] payload = new byte[length];
            in.get(payload);
            if (crc32c(payload) != crc) {
                if (newest && !in.hasRemaining()) {
                    // the last record of the newest segment: a crash can leave its length written but not its bytes
                    tornTail(file, true, start, data.length, "checksum mismatch in the last record");
                    return;
                }
                damaged(file, start, length + 8L, "checksum mismatch; record skipped");
                continue;
            }
            WalRecord record;
            try {
                record = WalCodec.decode(payload);
            } catch (IllegalArgumentException e) {
                damaged(file, start, length + 8L, "invalid record (" + e.getMessage() + "); record skipped");
                continue;
            }
            replay.accept(record);
        }
    }

    private void tornTail(Path file, boolean newest, int start, int size, String problem) throws IOException {
        if (!newest) {
            damaged(file, start, size - start, problem + " in a sealed segment; rest of segment skipped");
            return;
        }
        LOG.warn("WAL segment {} has a torn tail at offset {} ({}); truncating {} bytes", file, start, problem,
                size - start);
        truncate(file, start);
    }

    private void damaged(Path file, long offset, long bytes, String problem) {
        corruptions++;
        LOG.error("WAL segment {} is damaged at offset {}: {} ({} bytes); entries in them are lost", file, offset,
                problem, bytes);
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(true);
        }
    }

    /** Damaged records or segment tails found by replay (each logged at ERROR), for the corruption metric. */
    synchronized long corruptions() {
        return corruptions;
    }

    /** Records refused since open because the WAL could not be written, for the refused-writes metric. */
    synchronized long refusedWritesTotal() {
        return refusedWritesTotal;
    }

    /** Where a record was written: its segment and its sequence number for {@link #syncTo}. */
    record Position(long segment, long sequence) {}

    /** Appends one record; returns the id of the segment holding it. Forces to disk per the fsync policy. */
    synchronized long append(WalRecord record) throws IOException {
        return appendAll(List.of(record));
    }

    /**
     * Writes one record without forcing it; the caller must {@link #syncTo} its sequence before
     * acknowledging it. Several writers then share one fsync (group commit).
     */
    synchronized Position write(WalRecord record) throws IOException {
        writeRecord(record);
        return new Position(segmentId, writtenSeq);
    }

    /**
     * Returns once every record up to {@code sequence} is on disk. One caller forces the channel for
     * all records written so far while the others wait on {@code syncLock}, then find their record
     * already synced. Lock order: {@code syncLock} before this object's monitor, never the reverse.
     */
    void syncTo(long sequence) throws IOException {
        synchronized (syncLock) {
            FileChannel ch;
            long target;
            synchronized (this) {
                if (syncedSeq >= sequence) {
                    return;
                }
                ch = channel;
                target = writtenSeq;
                if (ch == null) {
                    throw new IOException("BUG: WAL record " + sequence + " unsynced but no segment is open");
                }
            }
            try {
                ch.force(false);
            } catch (java.nio.channels.ClosedChannelException e) {
                // rotate() and close() force a channel before closing it, and record their progress below
                synchronized (this) {
                    if (syncedSeq >= sequence) {
                        return;
                    }
                }
                throw new IOException("WAL channel closed before record " + sequence + " was synced", e);
            }
            synchronized (this) {
                syncedSeq = Math.max(syncedSeq, target);
            }
        }
    }

    /** Appends records with one force at the end (per the fsync policy); returns the last record's segment id. */
    synchronized long appendAll(List<? extends WalRecord> records) throws IOException {
        for (WalRecord record : records) {
            writeRecord(record);
        }
        if (config.fsync() == WalConfig.FsyncPolicy.PER_REQUEST) {
            sync();
        }
        return segmentId;
    }

    /**
     * Writes one already encoded payload ({@code payload[0, length)}, as {@link WalCodec} lays it out)
     * without forcing it; see {@link #write}. Lets the caller encode outside its own locks.
     */
    synchronized Position writePayload(byte[] payload, int length) throws IOException {
        writeFramed(payload, length);
        return new Position(segmentId, writtenSeq);
    }

    private void writeRecord(WalRecord record) throws IOException {
        byte[] payload = WalCodec.encode(record);
        writeFramed(payload, payload.length);
    }

    private void writeFramed(byte[] payload, int length) throws IOException {
        if (length > MAX_RECORD_BYTES) {
            throw new IOException("WAL record of " + length + " bytes exceeds " + MAX_RECORD_BYTES);
        }
        try {
            if (tornAt >= 0) {
                repairTail();
            }
            if (segmentBytes > 0 && segmentBytes + length + 8 > config.segmentSizeBytes()) {
                rotate();
            }
            if (channel == null) {
                openSegment(); // a rotation or an earlier reopen failed after closing the previous segment
            }
        } catch (IOException e) {
            throw refused(e, length + 8L);
        }
        CRC32C crc = new CRC32C();
        crc.update(payload, 0, length);
        ByteBuffer header = ByteBuffer.allocate(8).putInt(length).putInt((int) crc.getValue()).flip();
        ByteBuffer body = ByteBuffer.wrap(payload, 0, length);
        ByteBuffer[] buffers = {header, body};
        long start = segmentBytes;
        try {
            while (body.hasRemaining()) {
                channel.write(buffers);
            }
        } catch (IOException e) {
            // part of the record may be on disk: cut it off now, or before the next write, so no later
            // record ever follows a torn one (replay would stop at the tear and drop them)
            tornAt = start;
            try {
                repairTail();
            } catch (IOException repair) {
                e.addSuppressed(repair);
            }
            throw refused(e, length + 8L);
        }
        segmentBytes += length + 8;
        writtenSeq++;
        dirty = true;
        if (refusedWrites > 0) {
            LOG.info("WAL writes succeed again in {} after {} refused records", config.directory(), refusedWrites);
            refusedWrites = 0;
        }
    }

    /** Truncates the current segment back to the end of its last whole record and moves the write position there. */
    private void repairTail() throws IOException {
        channel.truncate(tornAt);
        channel.position(tornAt);
        tornAt = -1;
    }

    /** The exception refusing one record, telling out-of-space apart from other I/O failures; logs the first of a run. */
    private WalWriteException refused(IOException cause, long recordBytes) {
        boolean outOfSpace = outOfSpace(cause, recordBytes);
        refusedWritesTotal++;
        if (refusedWrites++ == 0) {
            LOG.error("WAL write failed in {} ({}); refusing writes until it succeeds again: {}", config.directory(),
                    outOfSpace ? "volume out of space" : "I/O error", cause.toString());
        }
        return new WalWriteException(outOfSpace, "cannot write " + recordBytes + " bytes to the WAL in "
                + config.directory() + ": " + cause.getMessage(), cause);
    }

    private boolean outOfSpace(IOException cause, long recordBytes) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("No space left on device") || message.contains("Disk quota exceeded")) {
                return true;
            }
        }
        try {
            return Files.getFileStore(config.directory()).getUsableSpace() < recordBytes;
        } catch (IOException | RuntimeException unknown) {
            return false;
        }
    }

    /** Forces appended records to disk. */
    synchronized void sync() throws IOException {
        if (dirty && channel != null) {
            channel.force(false);
            dirty = false;
        }
        syncedSeq = writtenSeq;
    }

    /** Closes the current segment (forced) and starts the next; returns the new segment's id. */
    synchronized long rotate() throws IOException {
        if (channel != null) {
            if (tornAt >= 0) {
                repairTail();
            }
            sync();
            channel.close();
            channel = null;
            olderSegmentsBytes += segmentBytes;
            segmentBytes = 0;
            segmentId++;
        }
        openSegment();
        return segmentId;
    }

    /** The id of the oldest segment on disk: the current one when no older segment is left. */
    synchronized long oldestSegment() throws IOException {
        List<Long> ids = segmentIds(config.directory());
        return ids.isEmpty() ? segmentId : Math.min(ids.get(0), segmentId);
    }

    /** The id of the segment receiving appends. */
    synchronized long currentSegment() {
        return segmentId;
    }

    /** Deletes every segment with an id below {@code segmentIdExclusive} (never the current one). */
    synchronized int deleteSegmentsBefore(long segmentIdExclusive) throws IOException {
        int deleted = 0;
        for (long id : segmentIds(config.directory())) {
            if (id < segmentIdExclusive && id < segmentId) {
                Path file = segmentPath(id);
                long size = Files.size(file);
                Files.delete(file);
                olderSegmentsBytes -= size;
                deleted++;
            }
        }
        if (deleted > 0) {
            syncDirectory();
        }
        return deleted;
    }

    /** Bytes in the segment receiving appends. */
    synchronized long currentSegmentBytes() {
        return segmentBytes;
    }

    /** Bytes in all segment files. */
    synchronized long sizeBytes() {
        return olderSegmentsBytes + segmentBytes;
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null && channel.isOpen()) {
            if (tornAt >= 0) {
                repairTail();
            }
            sync();
            channel.close();
        }
    }

    private void openSegment() throws IOException {
        channel = FileChannel.open(segmentPath(segmentId), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        segmentBytes = 0;
        syncDirectory();
    }

    private void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(config.directory(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            LOG.debug("directory fsync not supported for {}: {}", config.directory(), e.toString());
        }
    }

    private Path segmentPath(long id) {
        return config.directory().resolve(String.format("%020d%s", id, SUFFIX));
    }

    static List<Long> segmentIds(Path dir) throws IOException {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                String digits = name.substring(0, name.length() - SUFFIX.length());
                try {
                    ids.add(Long.parseLong(digits));
                } catch (NumberFormatException e) {
                    throw new IOException("unexpected file in WAL directory: " + f, e);
                }
            }
        }
        ids.sort(null);
        return ids;
    }

    private static int crc32c(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        return (int) crc.getValue();
    }
}
