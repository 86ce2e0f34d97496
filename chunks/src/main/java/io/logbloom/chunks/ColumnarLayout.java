package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The versioned byte layout of a columnar object (chunk format v2), shared by
 * {@link ColumnarObjectWriter} and {@link ColumnarObjectReader}. Fixed-width integers are
 * little-endian; "uvarint" is unsigned LEB128, "zvarint" a zigzag-encoded signed LEB128.
 *
 * <pre>
 * object:
 *   0     4   magic "LBCO"
 *   4     1   version (4; 2 and 3 are read too; v1 is the row chunk "LBCK")
 *   5     ... column data: for each block in directory order, its columns back to back
 *             (timestamps, lines, then one per metadata key in key order), no gaps
 *   D     L   directory (below); D = end of the last column
 *   D+L   25  footer
 *
 * footer (fixed, the last 25 bytes):
 *   0     8   directory offset D
 *   8     4   directory length L
 *   12    4   CRC32C of the directory bytes
 *   16    1   version (repeated, so a tail read alone identifies the layout)
 *   17    4   CRC32C of footer bytes [0, 17)
 *   21    4   magic "LBCO"
 *
 * directory:
 *   uvarint key count K, then K strings (uvarint length + UTF-8), sorted
 *   uvarint stream count S, then per stream:
 *     uvarint label count, (name string, value string)*, 8-byte fingerprint,
 *     uvarint first block, uvarint block count, zvarint min time, uvarint (max - min),
 *     uvarint rows, uvarint raw bytes
 *   uvarint block count B, then per block:
 *     uvarint stream index, uvarint rows, zvarint min time, uvarint (max - min), uvarint raw bytes,
 *     uvarint flags (version 3 on; bit 0: timestamps strictly increase from row to row, so no two rows can
 *     repeat a (timestamp, line) pair; other bits 0), uvarint column count C, then per column:
 *       uvarint column id (0 timestamps, 1 lines, 2 + k metadata key k), 1 byte encoding id
 *       (bit 7: zstd), uvarint stored length, 4-byte CRC32C of the stored bytes,
 *       uvarint decoded payload size
 * </pre>
 *
 * Column offsets are implicit (each column starts where the previous ended, the first at byte 5),
 * which keeps the directory about 12 bytes per column; a reader fetches the footer and directory
 * with one read of the object's tail ({@link #TAIL_READ_BYTES}) and then only the block ranges it
 * needs. Every byte a reader trusts is covered by a checksum: the footer, the directory, each column.
 * Bump {@link #VERSION} whenever the layout changes; readers reject versions they do not know. The
 * design follows the footer-plus-directory shape of Parquet and of Loki's {@code pkg/dataobj}
 * (columnar sections with pages and a metadata section found from the end of the object), with one
 * stream per block as VictoriaLogs' block does so a stream selector maps to a contiguous block run.
 * Thread-safe (stateless).
 */
final class ColumnarLayout {
    static final byte[] MAGIC = {'L', 'B', 'C', 'O'};
    /**
     * Bump when the layout changes; the version written. 4: line columns are written as
     * {@link ColumnarEncoding#LINES_TOKENIZED_RANGES} (a payload section more), which a version-3 reader does not know.
     */
    static final int VERSION = 4;
    /** The oldest version still read: 2 has no block flags. */
    static final int OLDEST_READ_VERSION = 2;
    /** The first version whose block entries carry a flags uvarint. */
    static final int BLOCK_FLAGS_VERSION = 3;
    /** Block flag: the block's timestamps strictly increase. */
    static final int FLAG_DISTINCT_TIMESTAMPS = 1;
    static final int HEAD_BYTES = 5;
    static final int FOOTER_BYTES = 25;
    /**
     * The first read of a reader: 64 KiB holds the directory of objects up to ~5000 columns (about
     * 400 MB of load-test logs at 256 KiB blocks), and costs no more than a small ranged GET.
     */
    static final int TAIL_READ_BYTES = 64 * 1024;
    /** Bound on a directory a reader accepts: 1.5 GB of blocks at ~12 bytes per column fit in 64 MiB. */
    static final int MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;
    /** Bound on one decoded column payload a reader allocates: a block's raw bytes are capped far below this. */
    static final int MAX_DECODED_COLUMN_BYTES = 256 * 1024 * 1024;
    static final int ZSTD_FLAG = 0x80;

    private ColumnarLayout() {}

    static int crc32c(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    static void writeHead(ByteSink out) {
        out.writeBytes(MAGIC, 0, MAGIC.length);
        out.writeByte(VERSION);
    }

    /*
     * One method per stream, block and column, not one method with nested loops: C2 compiled the single method
     * with every write inlined into each loop (5 KB of bytecode, 20 KB of code), 0.5-0.9 s a time, and again
     * for each of its loops on stack replacement and after each branch the warm-up had not taken; a seal or
     * merge writes a directory, so those compiles fell into the pushes. Small methods compile once each and
     * the loops call them.
     */
    static void writeDirectory(ByteSink out, List<String> keys, List<ColumnarStreamInfo> streams,
            List<ColumnarBlockInfo> blocks) {
        out.writeUvarint(keys.size());
        for (String key : keys) {
            out.writeString(key);
        }
        out.writeUvarint(streams.size());
        for (ColumnarStreamInfo stream : streams) {
            writeStream(out, stream);
        }
        out.writeUvarint(blocks.size());
        for (ColumnarBlockInfo block : blocks) {
            writeBlock(out, keys, block);
        }
    }

    private static void writeStream(ByteSink out, ColumnarStreamInfo stream) {
        List<Label> labels = stream.labels().list();
        out.writeUvarint(labels.size());
        for (Label label : labels) {
            out.writeString(label.name());
            out.writeString(label.value());
        }
        out.writeLong(stream.fingerprint());
        out.writeUvarint(stream.firstBlock());
        out.writeUvarint(stream.blockCount());
        writeTimeRange(out, stream.minTimeNanos(), stream.maxTimeNanos());
        out.writeUvarint(stream.rows());
        out.writeUvarint(stream.rawBytes());
    }

    private static void writeBlock(ByteSink out, List<String> keys, ColumnarBlockInfo block) {
        out.writeUvarint(block.stream());
        out.writeUvarint(block.rows());
        writeTimeRange(out, block.minTimeNanos(), block.maxTimeNanos());
        out.writeUvarint(block.rawBytes());
        out.writeUvarint(block.distinctTimestamps() ? FLAG_DISTINCT_TIMESTAMPS : 0);
        out.writeUvarint(block.columns().size());
        for (ColumnarColumnInfo column : block.columns()) {
            writeColumn(out, keys, column);
        }
    }

    private static void writeColumn(ByteSink out, List<String> keys, ColumnarColumnInfo column) {
        out.writeUvarint(switch (column.kind()) {
            case TIMESTAMPS -> 0;
            case LINES -> 1;
            case METADATA -> 2 + keyIndex(keys, column.key());
        });
        out.writeByte(column.encoding().id() | (column.zstd() ? ZSTD_FLAG : 0));
        out.writeUvarint(column.length());
        out.writeInt(column.crc32c());
        out.writeUvarint(column.decodedSize());
    }

    private static int keyIndex(List<String> keys, String key) {
        int index = java.util.Collections.binarySearch(keys, key);
        if (index < 0) {
            throw new IllegalStateException("BUG: metadata key '" + key + "' missing from the directory's key table");
        }
        return index;
    }

    private static void writeTimeRange(ByteSink out, long min, long max) {
        out.writeUvarint((min << 1) ^ (min >> 63));
        out.writeUvarint(max - min);
    }

    static void writeFooter(ByteSink out, long directoryOffset, int directoryLength, int directoryCrc) {
        int start = out.size();
        out.writeLong(directoryOffset);
        out.writeInt(directoryLength);
        out.writeInt(directoryCrc);
        out.writeByte(VERSION);
        out.writeInt(crc32c(out.array(), start, 17));
        out.writeBytes(MAGIC, 0, MAGIC.length);
    }

    /** The footer fields a reader needs. */
    record Footer(long directoryOffset, int directoryLength, int directoryCrc, int version) {}

    /**
     * Parses the footer in {@code tail[tail.length - 25, tail.length)} of an object of {@code objectSize} bytes.
     */
    static Footer readFooter(String name, byte[] tail, long objectSize) throws ChunkFormatException {
        int f = tail.length - FOOTER_BYTES;
        for (int i = 0; i < MAGIC.length; i++) {
            if (tail[f + 21 + i] != MAGIC[i]) {
                throw new ChunkFormatException("object " + name + " is not a columnar object: footer magic is not "
                        + "'LBCO' (bytes " + hex(tail, f + 21, 4) + " at offset " + (objectSize - 4) + ")");
            }
        }
        int version = tail[f + 16] & 0xFF;
        if (version < OLDEST_READ_VERSION || version > VERSION) {
            throw new ChunkFormatException("object " + name + " has unsupported columnar version " + version
                    + " (this reader knows " + OLDEST_READ_VERSION + " to " + VERSION + ")");
        }
        int stored = readInt(tail, f + 17);
        int computed = crc32c(tail, f, 17);
        if (stored != computed) {
            throw new ChunkFormatException(String.format("object %s: footer checksum mismatch: stored %08x, computed %08x",
                    name, stored, computed));
        }
        long directoryOffset = readLong(tail, f);
        int directoryLength = readInt(tail, f + 8);
        if (directoryLength < 0 || directoryLength > MAX_DIRECTORY_BYTES || directoryOffset < HEAD_BYTES
                || directoryOffset + directoryLength != objectSize - FOOTER_BYTES) {
            throw new ChunkFormatException("object " + name + ": footer places the directory at [" + directoryOffset
                    + ", +" + directoryLength + ") which does not end at the footer of a " + objectSize
                    + "-byte object");
        }
        return new Footer(directoryOffset, directoryLength, readInt(tail, f + 12), version);
    }

    /** The message for an object whose first bytes are {@code head} when its footer is not ours. */
    static String describeHead(byte[] head) {
        if (head.length >= 5 && head[0] == 'L' && head[1] == 'B' && head[2] == 'C' && head[3] == 'K') {
            return "it is a v1 row chunk ('LBCK' version " + (head[4] & 0xFF)
                    + "), which the columnar reader does not read; use Chunk.decode";
        }
        return "its first bytes are " + hex(head, 0, Math.min(5, head.length));
    }

    static ColumnarDirectory readDirectory(String name, byte[] data, int offset, Footer footer)
            throws ChunkFormatException {
        int crc = crc32c(data, offset, footer.directoryLength());
        if (crc != footer.directoryCrc()) {
            throw new ChunkFormatException(String.format(
                    "object %s: directory checksum mismatch: stored %08x, computed %08x", name,
                    footer.directoryCrc(), crc));
        }
        String where = "object " + name + " directory";
        ByteSource in = new ByteSource(data, offset, footer.directoryLength(), where);
        int keyCount = in.readLength(footer.directoryLength(), "key count");
        List<String> keys = new ArrayList<>(keyCount);
        for (int i = 0; i < keyCount; i++) {
            keys.add(in.readString("key"));
        }
        int streamCount = in.readLength(footer.directoryLength(), "stream count");
        List<ColumnarStreamInfo> streams = new ArrayList<>(streamCount);
        for (int s = 0; s < streamCount; s++) {
            int labelCount = in.readLength(footer.directoryLength(), "label count");
            List<Label> labels = new ArrayList<>(labelCount);
            for (int i = 0; i < labelCount; i++) {
                labels.add(new Label(in.readString("label name"), in.readString("label value")));
            }
            Labels parsed;
            try {
                parsed = Labels.of(labels);
            } catch (IllegalArgumentException e) {
                throw new ChunkFormatException(where + ": stream " + s + " has invalid labels: " + e.getMessage(), e);
            }
            long fingerprint = in.readLong();
            if (fingerprint != parsed.fingerprint()) {
                throw new ChunkFormatException(where + ": stream " + s + " fingerprint does not match its labels");
            }
            int firstBlock = in.readLength(Integer.MAX_VALUE, "first block");
            int blockCount = in.readLength(Integer.MAX_VALUE, "block count");
            long min = readZigzag(in);
            long max = min + in.readUvarint();
            streams.add(new ColumnarStreamInfo(parsed, firstBlock, blockCount, min, max, in.readUvarint(),
                    in.readUvarint()));
        }
        int blockCount = in.readLength(footer.directoryLength(), "block count");
        List<ColumnarBlockInfo> blocks = new ArrayList<>(blockCount);
        long position = HEAD_BYTES;
        for (int b = 0; b < blockCount; b++) {
            int stream = in.readLength(streamCount - 1, "block " + b + " stream index");
            int rows = in.readLength(ColumnarConfig.MAX_ROWS_PER_BLOCK, "block " + b + " rows");
            long min = readZigzag(in);
            long max = min + in.readUvarint();
            long rawBytes = in.readUvarint();
            long flags = footer.version() >= BLOCK_FLAGS_VERSION ? in.readUvarint() : 0;
            if ((flags & ~FLAG_DISTINCT_TIMESTAMPS) != 0) {
                throw new ChunkFormatException(where + ": block " + b + " has unknown flags " + Long.toBinaryString(flags));
            }
            int columnCount = in.readLength(keyCount + 2, "block " + b + " column count");
            List<ColumnarColumnInfo> columns = new ArrayList<>(columnCount);
            for (int c = 0; c < columnCount; c++) {
                int id = in.readLength(keyCount + 1, "block " + b + " column id");
                int encodingByte = in.readByte();
                ColumnarEncoding encoding = ColumnarEncoding.fromId(encodingByte & ~ZSTD_FLAG);
                if (encoding == null) {
                    throw new ChunkFormatException(where + ": block " + b + " column " + c + " has unknown encoding "
                            + (encodingByte & ~ZSTD_FLAG));
                }
                int length = in.readLength(Integer.MAX_VALUE, "column length");
                int columnCrc = in.readInt();
                int decoded = in.readLength(MAX_DECODED_COLUMN_BYTES, "column decoded size");
                ColumnarColumnInfo.Kind kind = id == 0 ? ColumnarColumnInfo.Kind.TIMESTAMPS
                        : id == 1 ? ColumnarColumnInfo.Kind.LINES : ColumnarColumnInfo.Kind.METADATA;
                if ((c == 0) != (id == 0) || (c == 1) != (id == 1)) {
                    throw new ChunkFormatException(where + ": block " + b + " column " + c + " has id " + id
                            + "; timestamps and lines must come first");
                }
                columns.add(new ColumnarColumnInfo(kind, id >= 2 ? keys.get(id - 2) : "", encoding,
                        (encodingByte & ZSTD_FLAG) != 0, position, length, columnCrc, decoded));
                position += length;
            }
            if (columnCount < 2) {
                throw new ChunkFormatException(where + ": block " + b + " has " + columnCount + " columns, needs 2");
            }
            blocks.add(new ColumnarBlockInfo(stream, rows, min, max, rawBytes,
                    (flags & FLAG_DISTINCT_TIMESTAMPS) != 0, columns));
        }
        if (in.hasRemaining()) {
            throw new ChunkFormatException(where + ": trailing bytes at offset " + in.position());
        }
        if (position != footer.directoryOffset()) {
            throw new ChunkFormatException(where + ": columns end at " + position + " but the directory starts at "
                    + footer.directoryOffset());
        }
        int expectedFirst = 0;
        for (int s = 0; s < streamCount; s++) {
            ColumnarStreamInfo stream = streams.get(s);
            if (stream.firstBlock() != expectedFirst || (long) stream.firstBlock() + stream.blockCount() > blockCount) {
                throw new ChunkFormatException(where + ": stream " + s + " claims blocks [" + stream.firstBlock()
                        + ", +" + stream.blockCount() + ") out of order or past " + blockCount + " blocks");
            }
            for (int b = stream.firstBlock(); b < stream.firstBlock() + stream.blockCount(); b++) {
                if (blocks.get(b).stream() != s) {
                    throw new ChunkFormatException(where + ": block " + b + " names stream " + blocks.get(b).stream()
                            + " but lies in stream " + s + "'s run");
                }
            }
            expectedFirst += stream.blockCount();
        }
        if (expectedFirst != blockCount) {
            throw new ChunkFormatException(where + ": streams cover " + expectedFirst + " of " + blockCount + " blocks");
        }
        return new ColumnarDirectory(streams, blocks, footer.directoryOffset(), footer.directoryLength());
    }

    private static long readZigzag(ByteSource in) throws ChunkFormatException {
        long v = in.readUvarint();
        return (v >>> 1) ^ -(v & 1);
    }

    static int readInt(byte[] data, int offset) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (data[offset + i] & 0xFF) << (8 * i);
        }
        return v;
    }

    static long readLong(byte[] data, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (data[offset + i] & 0xFFL) << (8 * i);
        }
        return v;
    }

    private static String hex(byte[] data, int offset, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = offset; i < offset + length; i++) {
            sb.append(String.format("%02x", data[i] & 0xFF));
        }
        return sb.toString();
    }
}
