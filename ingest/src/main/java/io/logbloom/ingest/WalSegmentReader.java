package io.logbloom.ingest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the records of one WAL segment file ({@link WalFormat}; format 1 too) and finds where
 * they end.
 *
 * <p>A record whose frame is whole but whose checksum (or payload layout) is wrong is damage when an
 * intact frame of the same segment follows it: it is skipped, counted and logged at ERROR, and replay
 * goes on (Loki's ingester also keeps starting on WAL corruption and counts it). Otherwise the records
 * end there: in the newest segment that is where a crash tore the last write (or where the bytes of
 * an earlier use of a reused file begin), which is not damage; a closed format-2 segment ends with its
 * seal, so one that ends before it lost its last records to damage, which is counted (unless its records
 * end exactly with the file: a start on a full volume cuts a segment there instead of sealing it).
 *
 * <p>Not thread-safe: one reader per {@link Wal#openWithSegments}.
 */
final class WalSegmentReader {
    private static final Logger LOG = LoggerFactory.getLogger(WalSegmentReader.class);
    /** {@link #frameAt}: the seal. */
    private static final int SEAL = 0;
    /** {@link #frameAt}: no intact frame of the segment. */
    private static final int NONE = -1;

    private long corruptions;

    /**
     * What replay found in one segment.
     *
     * @param format2 the file is a format-2 segment (else format 1, or empty and not the newest)
     * @param end where its records end (format 2: the offset of its seal, or where a seal belongs)
     * @param sealed a format-2 seal was found at {@code end}
     * @param headerMatches a format-2 header naming this segment's id is intact
     */
    record Segment(boolean format2, long end, boolean sealed, boolean headerMatches) {
        /** Bytes that belong to the segment: its records with header and seal (format 1: the file). */
        long logicalBytes() {
            return format2 ? end + WalFormat.FRAME_BYTES : end;
        }
    }

    /** Damaged records or segment tails found so far (each logged at ERROR). */
    long corruptions() {
        return corruptions;
    }

    /**
     * Feeds every intact record of segment {@code segmentId} in {@code file} to {@code replay} in order.
     * A format-1 newest segment's torn tail is truncated away here; a format-2 one is left for the
     * caller to seal at {@link Segment#end}.
     */
    Segment read(Path file, long segmentId, boolean newest, Consumer<WalRecord> replay) throws IOException {
        byte[] data = Files.readAllBytes(file);
        if (data.length == 0 && !newest) {
            return new Segment(false, 0, false, false);
        }
        if (!WalFormat.isFormat2(data)) {
            readFormat1(file, data, newest, replay);
            return new Segment(false, Files.size(file), false, false);
        }
        return readFormat2(file, data, segmentId, newest, replay);
    }

    private Segment readFormat2(Path file, byte[] data, long id, boolean newest, Consumer<WalRecord> replay) {
        boolean intact = WalFormat.intactHeader(data);
        boolean headerMatches = intact && WalFormat.headerSegmentId(data) == id;
        if (data.length >= WalFormat.HEADER_BYTES && !intact) {
            damaged(file, 0, WalFormat.HEADER_BYTES, "damaged segment header; its records are still read");
        }
        // an intact header of another id is a reused file whose new header a crash did not let reach the disk:
        // no record of this id can be in it, and the checksums below find none
        ByteBuffer in = ByteBuffer.wrap(data);
        int at = WalFormat.HEADER_BYTES;
        while (true) {
            int frame = frameAt(data, at, id);
            if (frame == SEAL) {
                return new Segment(true, at, true, headerMatches);
            }
            if (frame > 0) {
                decodeAndReplay(file, data, at, frame, replay);
                at += WalFormat.FRAME_BYTES + frame;
                continue;
            }
            int length = data.length - at >= WalFormat.FRAME_BYTES ? in.getInt(at) : -1;
            if (plausible(length, data.length - at) && frameAt(data, at + WalFormat.FRAME_BYTES + length, id) != NONE) {
                damaged(file, at, WalFormat.FRAME_BYTES + (long) length, "checksum mismatch; record skipped");
                at += WalFormat.FRAME_BYTES + length;
                continue;
            }
            if (newest || at == data.length) {
                // a closed segment ending with its file was cut there at a start that could not seal it (a full volume)
                if (at < data.length) {
                    LOG.info("WAL segment {} ends at offset {}; the {} bytes after it are a write a crash tore or "
                            + "records of an earlier use of the file, and are not replayed", file, at, data.length - at);
                }
            } else {
                damaged(file, at, Math.max(0, data.length - at),
                        "the segment ends without its seal (a damaged record or length); rest of segment skipped");
            }
            return new Segment(true, Math.max(at, WalFormat.HEADER_BYTES), false, headerMatches);
        }
    }

    /**
     * The frame at {@code at} if it is intact for segment {@code id}: its payload length, {@link #SEAL}
     * for the seal, {@link #NONE} for anything else (damage, a torn write, stale bytes, the end).
     */
    private static int frameAt(byte[] data, int at, long id) {
        if (at < 0 || data.length - at < WalFormat.FRAME_BYTES) {
            return NONE;
        }
        ByteBuffer in = ByteBuffer.wrap(data);
        int length = in.getInt(at);
        int crc = in.getInt(at + 4);
        if (length == 0) {
            return WalFormat.recordCrc(id, data, 0, 0) == crc ? SEAL : NONE;
        }
        if (!plausible(length, data.length - at)) {
            return NONE;
        }
        return WalFormat.recordCrc(id, data, at + WalFormat.FRAME_BYTES, length) == crc ? length : NONE;
    }

    /** Whether a frame at a position with {@code remaining} bytes can hold a payload of {@code length}. */
    private static boolean plausible(int length, int remaining) {
        return length >= 0 && length <= WalFormat.MAX_RECORD_BYTES && length <= remaining - WalFormat.FRAME_BYTES;
    }

    private void decodeAndReplay(Path file, byte[] data, int at, int length, Consumer<WalRecord> replay) {
        byte[] payload = new byte[length];
        System.arraycopy(data, at + WalFormat.FRAME_BYTES, payload, 0, length);
        WalRecord record;
        try {
            record = WalCodec.decode(payload);
        } catch (IllegalArgumentException e) {
            damaged(file, at, length + (long) WalFormat.FRAME_BYTES, "invalid record (" + e.getMessage() + "); record skipped");
            return;
        }
        replay.accept(record);
    }

    /**
     * Format 1: records back to back up to the end of the file. A frame whose length is implausible
     * cannot be stepped over: the rest of the segment is skipped (in the newest segment, where a crash
     * can tear the tail, it is truncated away; a tail that merely ends early is a torn write, not damage).
     */
    private void readFormat1(Path file, byte[] data, boolean newest, Consumer<WalRecord> replay) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(data);
        while (in.hasRemaining()) {
            int start = in.position();
            if (in.remaining() < WalFormat.FRAME_BYTES) {
                tornTail(file, newest, start, data.length, "truncated record header");
                return;
            }
            int length = in.getInt();
            int crc = in.getInt();
            if (length < 1 || length > WalFormat.MAX_RECORD_BYTES) {
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
            int payloadAt = in.position();
            in.position(payloadAt + length);
            if (WalFormat.format1Crc(data, payloadAt, length) != crc) {
                if (newest && !in.hasRemaining()) {
                    // the last record of the newest segment: a crash can leave its length written but not its bytes
                    tornTail(file, true, start, data.length, "checksum mismatch in the last record");
                    return;
                }
                damaged(file, start, length + 8L, "checksum mismatch; record skipped");
                continue;
            }
            decodeAndReplay(file, data, start, length, replay);
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
}
