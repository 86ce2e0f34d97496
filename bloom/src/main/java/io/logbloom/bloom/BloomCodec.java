package io.logbloom.bloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The binary format of a {@link ScalableBloomFilter}: a header block, then one block per sub-filter.
 *
 * <p>All integers and doubles are little-endian; every block ends with the CRC32C of its own bytes,
 * so a flipped bit is caught in the block it hits and loading a filter is one pass plus a bulk copy
 * of the words (cheap, as RocksDB loads a file's filter block when it opens the file).
 *
 * <pre>
 * header (54 bytes)
 *   0  4  magic "LBSF"
 *   4  1  version = 1 (bump when the layout changes)
 *   5  1  flags: bit 0 = non-scaling, other bits 0
 *   6  8  initialCapacity        int64
 *  14  8  errorRate              float64
 *  22  8  expansion              float64
 *  30  8  tightening             float64
 *  38  8  maxSizeBytes           int64
 *  46  4  subFilterCount n ≥ 1   int32
 *  50  4  CRC32C of bytes 0..49
 * n sub-filter blocks, oldest first (40 + 8·k·w bytes each)
 *  +0  8  capacity               int64
 *  +8  8  errorRate              float64
 * +16  4  hashes k               int32
 * +20  4  wordsPerPartition w    int32
 * +24  8  itemsInserted          int64
 * +32  4  CRC32C of +0..+31 (checked before the shape is trusted to find the words)
 * +36  8·k·w  bit words          int64 each, partition after partition
 *  +.. 4  CRC32C of the words
 * </pre>
 *
 * Nothing may follow the last block. Stateless and thread-safe; encoding reads the words
 * atomically one by one, so a filter serialized while other threads add yields a valid filter
 * containing at least every item whose add completed before the call.
 */
final class BloomCodec {
    /** "LBSF" read as a big-endian int, as it appears in a hex dump. */
    static final int MAGIC = 0x4C425346;
    /** Current layout version; bump when the layout changes. */
    static final byte VERSION = 1;
    static final int HEADER_BYTES = 54;
    static final int SUB_FILTER_FIXED_BYTES = 32;
    private static final int CRC_BYTES = 4;
    private static final int FLAG_NON_SCALING = 1;

    private BloomCodec() {}

    static byte[] encode(BloomConfig config, PartitionedBloomFilter[] filters) {
        long total = HEADER_BYTES;
        for (PartitionedBloomFilter filter : filters) {
            total += SUB_FILTER_FIXED_BYTES + CRC_BYTES + (long) filter.wordCount() * Long.BYTES + CRC_BYTES;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("BUG: filter of " + total + " bytes exceeds a byte array");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        out.order(ByteOrder.BIG_ENDIAN).putInt(MAGIC).order(ByteOrder.LITTLE_ENDIAN);
        out.put(VERSION);
        out.put((byte) (config.nonScaling() ? FLAG_NON_SCALING : 0));
        out.putLong(config.initialCapacity());
        out.putDouble(config.errorRate());
        out.putDouble(config.expansion());
        out.putDouble(config.tightening());
        out.putLong(config.maxSizeBytes());
        out.putInt(filters.length);
        putCrc(out, 0);
        for (PartitionedBloomFilter filter : filters) {
            int start = out.position();
            PartitionLayout layout = filter.layout();
            out.putLong(layout.capacity());
            out.putDouble(layout.errorRate());
            out.putInt(layout.hashes());
            out.putInt(layout.wordsPerPartition());
            out.putLong(filter.itemsInserted());
            putCrc(out, start);
            int wordsStart = out.position();
            int words = filter.wordCount();
            for (int i = 0; i < words; i++) {
                out.putLong(filter.word(i));
            }
            putCrc(out, wordsStart);
        }
        return out.array();
    }

    static ScalableBloomFilter decode(byte[] bytes) throws BloomFormatException {
        if (bytes == null) {
            throw new BloomFormatException("no bytes: null input");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        need(in, 0, 5, "magic and version");
        int magic = in.order(ByteOrder.BIG_ENDIAN).getInt(0);
        in.order(ByteOrder.LITTLE_ENDIAN);
        if (magic != MAGIC) {
            throw new BloomFormatException(String.format(
                    "bad magic 0x%08X at offset 0, expected 0x%08X (\"LBSF\")", magic, MAGIC));
        }
        int version = bytes[4] & 0xFF;
        if (version != VERSION) {
            throw new BloomFormatException(
                    "unsupported version " + version + " at offset 4, this build reads version " + VERSION);
        }
        need(in, 0, HEADER_BYTES, "header");
        checkCrc(in, 0, HEADER_BYTES - CRC_BYTES, "header");
        int flags = bytes[5] & 0xFF;
        if ((flags & ~FLAG_NON_SCALING) != 0) {
            throw new BloomFormatException(String.format("unknown flags 0x%02X at offset 5", flags));
        }
        BloomConfig config;
        try {
            config = new BloomConfig(in.getLong(6), in.getDouble(14), in.getDouble(22), in.getDouble(30),
                    in.getLong(38), (flags & FLAG_NON_SCALING) != 0);
        } catch (IllegalArgumentException e) {
            throw new BloomFormatException("invalid config in header: " + e.getMessage());
        }
        int count = in.getInt(46);
        int maxCount = config.nonScaling() ? 1 : ScalableBloomFilter.MAX_SUB_FILTERS;
        if (count < 1 || count > maxCount) {
            throw new BloomFormatException(
                    "invalid sub-filter count " + count + " at offset 46, expected 1 to " + maxCount);
        }
        PartitionedBloomFilter[] filters = new PartitionedBloomFilter[count];
        int offset = HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            String block = "sub-filter " + i;
            need(in, offset, SUB_FILTER_FIXED_BYTES + CRC_BYTES, block + " fields");
            checkCrc(in, offset, SUB_FILTER_FIXED_BYTES, block + " fields");
            int hashes = in.getInt(offset + 16);
            int wordsPerPartition = in.getInt(offset + 20);
            long words = (long) hashes * wordsPerPartition;
            if (hashes < 1 || wordsPerPartition < 1 || words > PartitionLayout.MAX_WORDS) {
                throw new BloomFormatException("invalid " + block + " shape at offset " + (offset + 16) + ": "
                        + hashes + " hashes of " + wordsPerPartition + " words");
            }
            int wordsStart = offset + SUB_FILTER_FIXED_BYTES + CRC_BYTES;
            long blockBytes = SUB_FILTER_FIXED_BYTES + CRC_BYTES + words * Long.BYTES + CRC_BYTES;
            need(in, offset, blockBytes, block);
            checkCrc(in, wordsStart, (int) words * Long.BYTES, block + " words");
            long[] data = new long[(int) words];
            in.position(wordsStart);
            in.asLongBuffer().get(data);
            try {
                PartitionLayout layout = new PartitionLayout(
                        in.getLong(offset), in.getDouble(offset + 8), hashes, wordsPerPartition);
                filters[i] = PartitionedBloomFilter.restore(layout, data, in.getLong(offset + 24));
            } catch (IllegalArgumentException e) {
                throw new BloomFormatException("invalid " + block + " at offset " + offset + ": " + e.getMessage());
            }
            offset += (int) blockBytes;
        }
        if (offset != bytes.length) {
            throw new BloomFormatException(
                    "trailing " + (bytes.length - offset) + " bytes after the last sub-filter at offset " + offset);
        }
        return ScalableBloomFilter.restore(config, filters);
    }

    private static void need(ByteBuffer in, int offset, long length, String what) throws BloomFormatException {
        if (offset + length > in.limit()) {
            throw new BloomFormatException("truncated at offset " + in.limit() + ": " + what + " at offset " + offset
                    + " needs " + length + " bytes, only " + (in.limit() - offset) + " remain");
        }
    }

    private static void putCrc(ByteBuffer out, int start) {
        CRC32C crc = new CRC32C();
        crc.update(out.array(), start, out.position() - start);
        out.putInt((int) crc.getValue());
    }

    private static void checkCrc(ByteBuffer in, int start, int length, String what) throws BloomFormatException {
        CRC32C crc = new CRC32C();
        crc.update(in.array(), start, length);
        int computed = (int) crc.getValue();
        int stored = in.getInt(start + length);
        if (computed != stored) {
            throw new BloomFormatException(String.format("checksum mismatch in %s at offset %d: stored 0x%08X, computed 0x%08X",
                    what, start + length, stored, computed));
        }
    }
}
