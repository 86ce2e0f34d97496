package io.logbloom.ingest;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: numbered segment files {@code <20-digit id>.wal} in one directory, each a
 * header and a sequence of framed records closed by a seal ({@link WalFormat}).
 *
 * <p>Durability: with {@link WalConfig.FsyncPolicy#PER_REQUEST} every {@link #append} forces the
 * channel before it returns, so an acknowledged push survives {@code kill -9} and power loss. A
 * crash can only tear the tail of the newest segment (older ones were sealed and forced before
 * rotation): replay stops there and seals it. Damage anywhere else (a flipped bit on disk) is
 * logged at ERROR naming segment and offset, counted ({@link #corruptions}) and stepped over
 * ({@link WalSegmentReader}): one damaged record must not keep every intact one (and the server) down.
 *
 * <p>Released segments are reused: up to {@link #REUSED_SEGMENTS} of them wait as
 * {@code <id>.free} files and the next segments overwrite them from the start. Forcing an overwrite
 * of blocks the file already has skips the file-size and block-allocation updates that forcing an
 * append must journal, which cut the force a push waits for by about 40 % on ext4 (see docs/measurements.md,
 * "The WAL's force"). The segment id in every record's checksum keeps the older records behind the
 * new ones out of replay. Next ids stay above every id ever used, free files included.
 *
 * <p>A failed write (the volume out of space, an I/O error) throws {@link WalWriteException} and
 * leaves no torn record behind: the segment is truncated back to its last whole record, at once or
 * before the next write, so later records never follow damage; the next write that succeeds ends the
 * refusal. Nothing refused was acknowledged, nothing acknowledged is touched. Running out of space also
 * deletes the free files.
 *
 * <p>Checkpointing is segment release: the owner rotates and releases every segment older than
 * the oldest one still holding unflushed entries ({@link #releaseSegmentsBefore}).
 *
 * <p>Thread-safe: every method except {@link #syncTo} synchronizes on this object, which guards the
 * open channel, its segment id and size, the closed and free segments and the written/synced sequence
 * numbers; {@code syncLock} serializes group-commit forces.
 */
final class Wal implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(Wal.class);
    private static final String SUFFIX = ".wal";
    private static final String FREE_SUFFIX = ".free";
    /** Released segment files kept for reuse: rotation runs at every seal, and one seal is usually pending. */
    static final int REUSED_SEGMENTS = 2;

    private final WalConfig config;
    /** The segment receiving appends; null after a failed rotation until the next write opens it. */
    private FileChannel channel;
    /** Where a failed write may have left a torn record (or an unforced seal) in the current segment, or -1. */
    private long tornAt = -1;
    /** Records refused in a row (the first one is logged, the recovery after them too). */
    private long refusedWrites;
    private long refusedWritesTotal;
    private long corruptions;
    private long reusedSegmentsTotal;
    private long segmentId;
    private long segmentBytes;
    /** Segments before the current one still on disk, by id. */
    private final TreeMap<Long, ClosedSegment> closed = new TreeMap<>();
    private long closedBytes;
    /** Released segment files waiting to be reused, oldest first. */
    private final ArrayDeque<Path> free = new ArrayDeque<>();
    private boolean dirty;
    private long writtenSeq;
    private long syncedSeq;
    private final Object syncLock = new Object();

    /** A segment before the current one: its bytes up to its seal, and whether its file may be reused. */
    private record ClosedSegment(long bytes, boolean reusable) {}

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

    /**
     * Opens the WAL, feeding every intact record and its segment id to {@code replay} in order. The
     * newest segment is sealed where its records end (a crash leaves it open), and appends go to a
     * new segment.
     */
    static Wal openWithSegments(WalConfig config, SegmentReplay replay) throws IOException {
        Path dir = config.directory();
        Files.createDirectories(dir);
        List<Long> ids = ids(dir, SUFFIX);
        List<Long> freeIds = ids(dir, FREE_SUFFIX);
        Wal wal = new Wal(config);
        WalSegmentReader reader = new WalSegmentReader();
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            Path file = segmentPath(dir, id);
            boolean newest = i == ids.size() - 1;
            WalSegmentReader.Segment segment = reader.read(file, id, newest, record -> replay.accept(id, record));
            if (newest && segment.format2() && !segment.sealed()) {
                sealAtOpen(file, id, segment);
            }
            wal.closed.put(id, new ClosedSegment(segment.logicalBytes(), segment.format2()));
            wal.closedBytes += segment.logicalBytes();
        }
        wal.corruptions = reader.corruptions();
        for (int i = 0; i < freeIds.size(); i++) {
            Path file = freePath(dir, freeIds.get(i));
            if (i < freeIds.size() - REUSED_SEGMENTS) {
                Files.delete(file);
            } else {
                wal.free.add(file);
            }
        }
        // above every id in use, the kept files' included: a reused file must never meet its own id again
        wal.segmentId = Math.max(ids.isEmpty() ? 0 : ids.get(ids.size() - 1),
                freeIds.isEmpty() ? 0 : freeIds.get(freeIds.size() - 1)) + 1;
        try {
            wal.openSegment();
        } catch (IOException e) {
            // e.g. the volume is full: start anyway, as before; the first write opens it or is refused (507)
            LOG.warn("cannot start WAL segment {} in {}; the next write tries again: {}", wal.segmentId, dir,
                    e.toString());
        }
        return wal;
    }

    /**
     * Writes the header (unless intact) and the seal of a newest segment that a stop left open. Where that
     * cannot be written (the volume is full), cuts the file where its records end instead, which needs no
     * space: a closed segment whose records end with its file is read whole without a seal.
     */
    private static void sealAtOpen(Path file, long id, WalSegmentReader.Segment segment) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            try {
                if (!segment.headerMatches()) {
                    writeFully(ch, WalFormat.header(id), 0);
                }
                writeFully(ch, WalFormat.seal(id), segment.end());
            } catch (IOException e) {
                LOG.warn("cannot seal WAL segment {} ({}); cutting it where its records end instead", file,
                        e.toString());
                ch.truncate(segment.end());
            }
            ch.force(false);
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += ch.write(bytes, at);
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
        if (length > WalFormat.MAX_RECORD_BYTES) {
            throw new IOException("WAL record of " + length + " bytes exceeds " + WalFormat.MAX_RECORD_BYTES);
        }
        int framed = length + WalFormat.FRAME_BYTES;
        try {
            if (tornAt >= 0) {
                repairTail();
            }
            if (segmentBytes > WalFormat.HEADER_BYTES
                    && segmentBytes + framed + WalFormat.FRAME_BYTES > config.segmentSizeBytes()) {
                rotate();
            }
            if (channel == null) {
                openSegment(); // a rotation or an earlier reopen failed after closing the previous segment
            }
        } catch (IOException e) {
            throw refused(e, framed);
        }
        ByteBuffer header = WalFormat.frame(segmentId, payload, length);
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
            throw refused(e, framed);
        }
        segmentBytes += framed;
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
        if (outOfSpace) {
            deleteFreeSegments();
        }
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

    /** Seals the current segment (forced), closes it and starts the next; returns the new segment's id. */
    synchronized long rotate() throws IOException {
        if (channel != null) {
            if (tornAt >= 0) {
                repairTail();
            }
            long sealAt = segmentBytes;
            tornAt = sealAt; // until the seal is forced, the next write cuts it off again: no record may follow it
            ByteBuffer seal = WalFormat.seal(segmentId);
            while (seal.hasRemaining()) {
                channel.write(seal);
            }
            channel.force(false);
            dirty = false;
            syncedSeq = writtenSeq;
            try {
                channel.close();
            } finally {
                channel = null;
                tornAt = -1;
                ClosedSegment sealed = new ClosedSegment(sealAt + WalFormat.FRAME_BYTES, true);
                closed.put(segmentId, sealed);
                closedBytes += sealed.bytes();
                segmentBytes = 0;
                segmentId++;
            }
        }
        openSegment();
        return segmentId;
    }

    /** The id of the oldest segment on disk: the current one when no older segment is left. */
    synchronized long oldestSegment() {
        return closed.isEmpty() ? segmentId : Math.min(closed.firstKey(), segmentId);
    }

    /** The id of the segment receiving appends. */
    synchronized long currentSegment() {
        return segmentId;
    }

    /**
     * Releases every segment with an id below {@code segmentIdExclusive} (never the current one): keeps
     * the file for reuse while fewer than {@link #REUSED_SEGMENTS} wait and it is no larger than a
     * segment, else deletes it. Returns how many were released.
     */
    synchronized int releaseSegmentsBefore(long segmentIdExclusive) throws IOException {
        int released = 0;
        // every segment on disk before the current one is in closed: it was read at open or sealed since
        Map<Long, ClosedSegment> before = closed.headMap(Math.min(segmentIdExclusive, segmentId));
        for (Iterator<Map.Entry<Long, ClosedSegment>> it = before.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, ClosedSegment> e = it.next();
            Path file = segmentPath(config.directory(), e.getKey());
            boolean reusable = e.getValue().reusable() && free.size() < REUSED_SEGMENTS
                    && Files.size(file) <= config.segmentSizeBytes();
            if (!reusable || !keepForReuse(file, e.getKey())) {
                Files.delete(file);
            }
            it.remove(); // only once its file is gone: a failed delete leaves it counted and released next time
            closedBytes -= e.getValue().bytes();
            released++;
        }
        if (released > 0) {
            syncDirectory();
        }
        return released;
    }

    /** Renames a released segment to wait for reuse; false (the file stays as it was) where renaming fails. */
    private boolean keepForReuse(Path file, long id) {
        Path to = freePath(config.directory(), id);
        try {
            Files.move(file, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.debug("cannot keep WAL segment {} for reuse, deleting it: {}", file, e.toString());
            return false;
        }
        free.addLast(to);
        return true;
    }

    /** Deletes the files waiting for reuse (the volume ran out of space: they hold blocks parts may need). */
    private void deleteFreeSegments() {
        int deleted = 0;
        for (Path file; (file = free.pollFirst()) != null; ) {
            try {
                Files.deleteIfExists(file);
                deleted++;
            } catch (IOException e) {
                LOG.warn("cannot delete free WAL segment {}: {}", file, e.toString());
            }
        }
        if (deleted > 0) {
            LOG.info("deleted {} WAL segment files kept for reuse in {} to return their space", deleted,
                    config.directory());
        }
    }

    /** Segment files reused since open, for the reuse metric. */
    synchronized long reusedSegmentsTotal() {
        return reusedSegmentsTotal;
    }

    /** Bytes in the segment receiving appends. */
    synchronized long currentSegmentBytes() {
        return segmentBytes;
    }

    /** Bytes of all segments up to their seals (files kept for reuse and stale bytes behind a seal not counted). */
    synchronized long sizeBytes() {
        return closedBytes + segmentBytes;
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

    /** Opens segment {@code segmentId}, reusing a free file when one waits, and writes its header. */
    private void openSegment() throws IOException {
        Path target = segmentPath(config.directory(), segmentId);
        Path reuse = free.pollFirst();
        FileChannel ch = null;
        if (reuse != null) {
            try {
                Files.move(reuse, target, StandardCopyOption.ATOMIC_MOVE);
                ch = FileChannel.open(target, StandardOpenOption.WRITE);
                reusedSegmentsTotal++;
            } catch (IOException e) {
                LOG.warn("cannot reuse WAL segment file {} for {}; creating a new one: {}", reuse, target, e.toString());
                Files.deleteIfExists(reuse);
                Files.deleteIfExists(target);
            }
        }
        if (ch == null) {
            ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        try {
            syncDirectory(); // the name must be on disk before a record in the file is acknowledged
            ByteBuffer header = WalFormat.header(segmentId);
            while (header.hasRemaining()) {
                ch.write(header);
            }
        } catch (IOException e) {
            try {
                ch.close();
                Files.deleteIfExists(target); // holds nothing acknowledged; the next write starts it again
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        channel = ch;
        segmentBytes = WalFormat.HEADER_BYTES;
        dirty = true;
    }

    private void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(config.directory(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            LOG.debug("directory fsync not supported for {}: {}", config.directory(), e.toString());
        }
    }

    private static Path segmentPath(Path dir, long id) {
        return dir.resolve(String.format("%020d%s", id, SUFFIX));
    }

    private static Path freePath(Path dir, long id) {
        return dir.resolve(String.format("%020d%s", id, FREE_SUFFIX));
    }

    /** The ids of the segments on disk, ascending. */
    static List<Long> segmentIds(Path dir) throws IOException {
        return ids(dir, SUFFIX);
    }

    private static List<Long> ids(Path dir, String suffix) throws IOException {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + suffix)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                String digits = name.substring(0, name.length() - suffix.length());
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
}
