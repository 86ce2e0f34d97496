package io.logbloom.chunks;

import java.util.List;
import java.util.zip.CRC32C;

/**
 * The versioned binary chunk layout, shared by the writer ({@link MemChunk#encode}) and the reader
 * ({@link Chunk#decode}). Integers are little-endian. Thread-safe (stateless).
 *
 * <pre>
 * offset      size  field
 * 0           4     magic "LBCK"
 * 4           1     version (1)
 * 5           1     encoding id ({@link ChunkEncoding#id()})
 * 6           8     min timestamp (ns)
 * 14          8     max timestamp (ns)
 * 22          4     entry count
 * 26          4     block count n
 * 30          4     symbol table stored length
 * 34          4     symbol table uncompressed length
 * 38          4     symbol table CRC32C (of its stored bytes)
 * 42          36*n  block metas: min ts 8, max ts 8, entries 4, offset 4, stored length 4,
 *                   uncompressed length 4, CRC32C of stored bytes 4
 * 42+36n      4     header CRC32C of bytes [0, 42+36n)
 * 46+36n      ...   symbol table (compressed), then the blocks (compressed), back to back, to the end
 * </pre>
 *
 * Unlike Loki's MemChunk (block metas at the end, found through a trailing offset), the metas sit in
 * the header so a reader can fetch and check the header with one small ranged read and then decide
 * which blocks it needs. Every byte is covered by a checksum: the header by its own CRC32C, the symbol
 * table and each block by theirs; the whole chunk's CRC32C is the checksum in its {@link ChunkRef}.
 * Bump {@link #VERSION} whenever the layout changes; readers reject versions they do not know.
 */
final class ChunkLayout {
    static final byte[] MAGIC = {'L', 'B', 'C', 'K'};
    /** Bump when the layout changes. */
    static final int VERSION = 1;
    static final int FIXED_HEADER_BYTES = 42;
    static final int BLOCK_META_BYTES = 36;
    static final int CRC_BYTES = 4;
    /**
     * Bound on any decompressed section a reader allocates: the largest block a writer produces is one
     * block size plus one entry, and Loki's max line size is far below this.
     */
    static final int MAX_UNCOMPRESSED_SECTION_BYTES = 256 * 1024 * 1024;

    private ChunkLayout() {}

    static int headerLength(int blockCount) {
        return FIXED_HEADER_BYTES + BLOCK_META_BYTES * blockCount + CRC_BYTES;
    }

    static int crc32c(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    /** One compressed block as the writer holds it. */
    record StoredBlock(long minTimeNanos, long maxTimeNanos, int entries, byte[] stored, int uncompressedLength,
            int crc32c) {}

    /** Writes a whole chunk. */
    static byte[] write(ChunkEncoding encoding, long minTimeNanos, long maxTimeNanos, int entryCount,
            byte[] symbolsStored, int symbolsUncompressedLength, List<StoredBlock> blocks) {
        int headerLength = headerLength(blocks.size());
        long total = (long) headerLength + symbolsStored.length;
        for (StoredBlock block : blocks) {
            total += block.stored().length;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("encoded chunk would be " + total + " bytes, over 2 GiB");
        }
        ByteSink out = new ByteSink((int) total);
        out.writeBytes(MAGIC, 0, MAGIC.length);
        out.writeByte(VERSION);
        out.writeByte(encoding.id());
        out.writeLong(minTimeNanos);
        out.writeLong(maxTimeNanos);
        out.writeInt(entryCount);
        out.writeInt(blocks.size());
        out.writeInt(symbolsStored.length);
        out.writeInt(symbolsUncompressedLength);
        out.writeInt(crc32c(symbolsStored, 0, symbolsStored.length));
        int offset = headerLength + symbolsStored.length;
        for (StoredBlock block : blocks) {
            out.writeLong(block.minTimeNanos());
            out.writeLong(block.maxTimeNanos());
            out.writeInt(block.entries());
            out.writeInt(offset);
            out.writeInt(block.stored().length);
            out.writeInt(block.uncompressedLength());
            out.writeInt(block.crc32c());
            offset += block.stored().length;
        }
        out.writeInt(crc32c(out.array(), 0, out.size()));
        out.writeBytes(symbolsStored, 0, symbolsStored.length);
        for (StoredBlock block : blocks) {
            out.writeBytes(block.stored(), 0, block.stored().length);
        }
        return out.toByteArray();
    }
}
