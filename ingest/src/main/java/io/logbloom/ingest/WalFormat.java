package io.logbloom.ingest;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The byte layout of a WAL segment file, format 2 (big-endian).
 *
 * <pre>
 * segment := header record* seal? bytes-of-an-older-use*
 * header  := magic "LBW2":u32 segmentId:u64 crc32c(magic segmentId):u32              (16 bytes)
 * record  := length:u32 crc32c(segmentId length payload):u32 payload[length]         (payload per WalCodec)
 * seal    := length 0:u32 crc32c(segmentId 0:u32):u32                                 (no record follows)
 * </pre>
 *
 * <p>A segment file is reused for a later segment once its records are released (see {@link Wal}):
 * the new records overwrite the old ones from the start and the rest of the file keeps bytes of its
 * earlier uses. The segment id in every checksum is what tells them apart: a record written under
 * another id fails the check. The seal marks where a closed segment's records end, so a damaged
 * last record or length field is told apart from that stale remainder.
 *
 * <p>Format 1 (before 2026-12) had no header and no seal, and checksummed the payload alone; such
 * segments are still replayed ({@link WalSegmentReader}) but never written or reused.
 *
 * <p>Stateless and thread-safe.
 */
final class WalFormat {
    /** "LBW2": its first byte (0x4C) can never start a format-1 segment, whose lengths stay below 0x20000000. */
    static final int MAGIC = 0x4C425732;
    static final int HEADER_BYTES = 16;
    /** Length and checksum before each payload; a seal is a frame alone. */
    static final int FRAME_BYTES = 8;
    /** Largest accepted record: bounds the allocation a damaged length field can trigger. */
    static final int MAX_RECORD_BYTES = 512 << 20;

    private WalFormat() {}

    static ByteBuffer header(long segmentId) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putLong(segmentId);
        CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, 12);
        return header.putInt((int) crc.getValue()).flip();
    }

    /** Whether {@code data} starts with an intact header; its id is then {@link #headerSegmentId}. */
    static boolean intactHeader(byte[] data) {
        if (data.length < HEADER_BYTES || ByteBuffer.wrap(data).getInt(0) != MAGIC) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(data, 0, 12);
        return (int) crc.getValue() == ByteBuffer.wrap(data).getInt(12);
    }

    static long headerSegmentId(byte[] data) {
        return ByteBuffer.wrap(data).getLong(4);
    }

    /**
     * Whether {@code data} is (the start of) a format-2 segment: it begins with the magic, or is shorter
     * than it and a prefix of it (a segment whose header a crash cut short).
     */
    static boolean isFormat2(byte[] data) {
        ByteBuffer magic = ByteBuffer.allocate(4).putInt(MAGIC);
        int n = Math.min(4, data.length);
        for (int i = 0; i < n; i++) {
            if (data[i] != magic.get(i)) {
                return false;
            }
        }
        return true;
    }

    static ByteBuffer frame(long segmentId, byte[] payload, int length) {
        return ByteBuffer.allocate(FRAME_BYTES).putInt(length).putInt(recordCrc(segmentId, payload, 0, length)).flip();
    }

    static ByteBuffer seal(long segmentId) {
        return ByteBuffer.allocate(FRAME_BYTES).putInt(0).putInt(recordCrc(segmentId, new byte[0], 0, 0)).flip();
    }

    /** The checksum of a record (or, with {@code length} 0, of the seal) of segment {@code segmentId}. */
    static int recordCrc(long segmentId, byte[] payload, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(12).putLong(segmentId).putInt(length).flip());
        crc.update(payload, offset, length);
        return (int) crc.getValue();
    }

    /** The checksum of a format-1 record: the payload alone. */
    static int format1Crc(byte[] payload, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(payload, offset, length);
        return (int) crc.getValue();
    }
}
