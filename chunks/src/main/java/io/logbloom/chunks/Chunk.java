package io.logbloom.chunks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A decoded (read-only) chunk: {@link #decode} checks the magic, version and header checksum and
 * parses the block metas eagerly; the symbol table and blocks are decompressed only when an
 * iteration needs them, and each block's CRC32C is verified before it is decompressed, so wrong
 * lines are never returned. The layout is described in {@code ChunkLayout}.
 *
 * <p>Thread-safe: immutable apart from the lazily decoded symbol table, which is published through a
 * volatile field (two threads may both decode it; both get equal tables). The byte array passed to
 * {@link #decode} is not copied and must not be modified afterwards.
 */
public final class Chunk {
    private final byte[] bytes;
    private final ChunkEncoding encoding;
    private final long minTimeNanos;
    private final long maxTimeNanos;
    private final int entryCount;
    private final int symbolsOffset;
    private final int symbolsStoredLength;
    private final int symbolsUncompressedLength;
    private final int symbolsCrc;
    private final List<ChunkBlock> blocks;
    private volatile String[] symbols;

    private Chunk(byte[] bytes, ChunkEncoding encoding, long minTimeNanos, long maxTimeNanos, int entryCount,
            int symbolsOffset, int symbolsStoredLength, int symbolsUncompressedLength, int symbolsCrc,
            List<ChunkBlock> blocks) {
        this.bytes = bytes;
        this.encoding = encoding;
        this.minTimeNanos = minTimeNanos;
        this.maxTimeNanos = maxTimeNanos;
        this.entryCount = entryCount;
        this.symbolsOffset = symbolsOffset;
        this.symbolsStoredLength = symbolsStoredLength;
        this.symbolsUncompressedLength = symbolsUncompressedLength;
        this.symbolsCrc = symbolsCrc;
        this.blocks = blocks;
    }

    /**
     * Parses and checks the header of an encoded chunk.
     *
     * @throws ChunkFormatException on a wrong magic, unknown version or encoding, header checksum
     *     mismatch, inconsistent metas, truncation or trailing bytes
     */
    public static Chunk decode(byte[] bytes) throws ChunkFormatException {
        if (bytes.length < ChunkLayout.MAGIC.length + 2) {
            throw new ChunkFormatException("chunk truncated: " + bytes.length + " bytes, shorter than magic and version");
        }
        for (int i = 0; i < ChunkLayout.MAGIC.length; i++) {
            if (bytes[i] != ChunkLayout.MAGIC[i]) {
                throw new ChunkFormatException(String.format(
                        "not a chunk: bad magic byte 0x%02x at offset %d (expected 'LBCK')", bytes[i] & 0xFF, i));
            }
        }
        int version = bytes[4] & 0xFF;
        if (version != ChunkLayout.VERSION) {
            throw new ChunkFormatException("unsupported chunk version " + version + " at offset 4 (this reader knows "
                    + ChunkLayout.VERSION + ")");
        }
        if (bytes.length < ChunkLayout.headerLength(0)) {
            throw new ChunkFormatException("chunk truncated: " + bytes.length + " bytes, header needs at least "
                    + ChunkLayout.headerLength(0));
        }
        ByteSource in = new ByteSource(bytes, 5, bytes.length - 5, "chunk header");
        int encodingId = in.readByte();
        long minTime = in.readLong();
        long maxTime = in.readLong();
        int entries = in.readInt();
        int blockCount = in.readInt();
        if (blockCount < 0 || (long) ChunkLayout.headerLength(0) + (long) ChunkLayout.BLOCK_META_BYTES * blockCount
                > bytes.length) {
            throw new ChunkFormatException("chunk truncated or corrupt: header declares " + Integer.toUnsignedString(
                    blockCount) + " blocks, which do not fit in " + bytes.length + " bytes");
        }
        int headerLength = ChunkLayout.headerLength(blockCount);
        int storedHeaderCrc = readIntAt(bytes, headerLength - ChunkLayout.CRC_BYTES);
        int actualHeaderCrc = ChunkLayout.crc32c(bytes, 0, headerLength - ChunkLayout.CRC_BYTES);
        if (storedHeaderCrc != actualHeaderCrc) {
            throw new ChunkFormatException(String.format(
                    "chunk header checksum mismatch: stored %08x, computed %08x over bytes [0, %d)",
                    storedHeaderCrc, actualHeaderCrc, headerLength - ChunkLayout.CRC_BYTES));
        }
        ChunkEncoding encoding;
        try {
            encoding = ChunkEncoding.fromId(encodingId);
        } catch (IllegalArgumentException e) {
            throw new ChunkFormatException("unknown chunk encoding id " + encodingId + " at offset 5", e);
        }
        int symbolsStored = in.readInt();
        int symbolsUncompressed = in.readInt();
        int symbolsCrc = in.readInt();
        checkSection("symbol table", symbolsStored, symbolsUncompressed);
        long expectedOffset = (long) headerLength + symbolsStored;
        List<ChunkBlock> blocks = new ArrayList<>(blockCount);
        long entriesInBlocks = 0;
        long previousMax = Long.MIN_VALUE;
        for (int i = 0; i < blockCount; i++) {
            ChunkBlock block = new ChunkBlock(in.readLong(), in.readLong(), in.readInt(), in.readInt(), in.readInt(),
                    in.readInt(), in.readInt());
            String name = "block " + i;
            checkSection(name, block.storedLength(), block.uncompressedLength());
            if (block.offset() != expectedOffset) {
                throw new ChunkFormatException(name + " offset " + block.offset() + " != expected " + expectedOffset);
            }
            if (block.entries() <= 0 || block.maxTimeNanos() < block.minTimeNanos() || block.minTimeNanos() < previousMax
                    || block.minTimeNanos() < minTime || block.maxTimeNanos() > maxTime) {
                throw new ChunkFormatException(name + " has inconsistent metadata " + block + " (chunk range ["
                        + minTime + ", " + maxTime + "])");
            }
            previousMax = block.maxTimeNanos();
            expectedOffset += block.storedLength();
            entriesInBlocks += block.entries();
            blocks.add(block);
        }
        if (entriesInBlocks != entries) {
            throw new ChunkFormatException("chunk header entry count " + entries + " != sum of block entries "
                    + entriesInBlocks);
        }
        if (expectedOffset != bytes.length) {
            throw new ChunkFormatException(expectedOffset > bytes.length
                    ? "chunk truncated: sections end at " + expectedOffset + " but chunk has " + bytes.length + " bytes"
                    : "chunk has " + (bytes.length - expectedOffset) + " trailing bytes after offset " + expectedOffset);
        }
        return new Chunk(bytes, encoding, minTime, maxTime, entries, headerLength, symbolsStored, symbolsUncompressed,
                symbolsCrc, List.copyOf(blocks));
    }

    private static void checkSection(String name, int stored, int uncompressed) throws ChunkFormatException {
        if (stored < 0 || uncompressed < 0 || uncompressed > ChunkLayout.MAX_UNCOMPRESSED_SECTION_BYTES) {
            throw new ChunkFormatException(name + " has invalid lengths: stored " + Integer.toUnsignedString(stored)
                    + ", uncompressed " + Integer.toUnsignedString(uncompressed) + " (max "
                    + ChunkLayout.MAX_UNCOMPRESSED_SECTION_BYTES + ")");
        }
    }

    private static int readIntAt(byte[] data, int offset) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (data[offset + i] & 0xFF) << (8 * i);
        }
        return v;
    }

    /** The CRC32C of encoded chunk bytes: the checksum recorded in a {@link ChunkRef}. */
    public static int checksum(byte[] encoded) {
        return ChunkLayout.crc32c(encoded, 0, encoded.length);
    }

    /** The compression of the blocks. */
    public ChunkEncoding encoding() {
        return encoding;
    }

    /** Oldest entry's timestamp (0 for an empty chunk). */
    public long minTimeNanos() {
        return minTimeNanos;
    }

    /** Newest entry's timestamp (0 for an empty chunk). */
    public long maxTimeNanos() {
        return maxTimeNanos;
    }

    /** Number of entries. */
    public int entryCount() {
        return entryCount;
    }

    /** Encoded size in bytes. */
    public int sizeBytes() {
        return bytes.length;
    }

    /** The block metas, in time order. */
    public List<ChunkBlock> blocks() {
        return blocks;
    }

    /** The encoded bytes (not a copy; do not modify). */
    public byte[] bytes() {
        return bytes;
    }

    /** The reference to this chunk as stored for {@code tenant}'s series {@code fingerprint}. */
    public ChunkRef ref(String tenant, long fingerprint) {
        return new ChunkRef(tenant, fingerprint, minTimeNanos, maxTimeNanos, checksum(bytes), bytes.length, entryCount);
    }

    /**
     * Entries with timestamps in [fromNanos, throughNanos) in {@code direction} order; only blocks
     * overlapping the range are decompressed, each when the iteration reaches it. A corrupted block
     * makes {@code hasNext()} throw {@link UncheckedIOException} wrapping a {@link ChunkFormatException}.
     */
    public Iterator<LogEntry> iterator(long fromNanos, long throughNanos, Direction direction) {
        List<BlockIterator.Loader> loaders = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            ChunkBlock block = blocks.get(i);
            if (block.overlaps(fromNanos, throughNanos)) {
                int index = i;
                loaders.add(() -> readBlock(index, fromNanos, throughNanos));
            }
        }
        return new BlockIterator(loaders, direction);
    }

    /** All entries in [fromNanos, throughNanos) in {@code direction} order, as a list. */
    public List<LogEntry> entries(long fromNanos, long throughNanos, Direction direction) throws ChunkFormatException {
        List<LogEntry> out = new ArrayList<>();
        try {
            iterator(fromNanos, throughNanos, direction).forEachRemaining(out::add);
        } catch (UncheckedIOException e) {
            throw (ChunkFormatException) e.getCause();
        }
        return out;
    }

    /**
     * Entries in [fromNanos, throughNanos), oldest first, from every overlapping block that is intact; each
     * damaged block (checksum, decompression or layout) is left out and its exception added to
     * {@code damaged}, as Loki's chunk reader skips a block whose checksum does not match.
     */
    public List<LogEntry> intactEntries(long fromNanos, long throughNanos, List<ChunkFormatException> damaged) {
        List<LogEntry> out = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).overlaps(fromNanos, throughNanos)) {
                try {
                    out.addAll(readBlock(i, fromNanos, throughNanos));
                } catch (ChunkFormatException e) {
                    damaged.add(e);
                }
            }
        }
        return out;
    }

    /** Checks the symbol table and every block (checksums, decompression, entry layout). */
    public void verify() throws ChunkFormatException {
        for (int i = 0; i < blocks.size(); i++) {
            readBlock(i, Long.MIN_VALUE, Long.MIN_VALUE);
        }
        symbols();
    }

    private List<LogEntry> readBlock(int index, long fromNanos, long throughNanos) throws ChunkFormatException {
        ChunkBlock block = blocks.get(index);
        String name = "block " + index;
        byte[] data = section(name, block.offset(), block.storedLength(), block.uncompressedLength(), block.crc32c());
        return BlockCodec.read(data, block, symbols(), fromNanos, throughNanos, name);
    }

    private String[] symbols() throws ChunkFormatException {
        String[] table = symbols;
        if (table == null) {
            byte[] data = section("symbol table", symbolsOffset, symbolsStoredLength, symbolsUncompressedLength,
                    symbolsCrc);
            table = SymbolTable.read(data, "symbol table");
            symbols = table;
        }
        return table;
    }

    private byte[] section(String name, int offset, int storedLength, int uncompressedLength, int expectedCrc)
            throws ChunkFormatException {
        int actualCrc = ChunkLayout.crc32c(bytes, offset, storedLength);
        if (actualCrc != expectedCrc) {
            throw new ChunkFormatException(String.format("%s checksum mismatch: stored %08x, computed %08x over bytes"
                    + " [%d, %d)", name, expectedCrc, actualCrc, offset, offset + storedLength));
        }
        try {
            return encoding.decompress(bytes, offset, storedLength, uncompressedLength);
        } catch (IOException | RuntimeException e) {
            throw new ChunkFormatException("cannot decompress " + name + " at offset " + offset + " (" + encoding + "): "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "Chunk[" + encoding + ", " + entryCount + " entries in " + blocks.size() + " blocks, [" + minTimeNanos
                + ", " + maxTimeNanos + "], " + bytes.length + " bytes]";
    }
}
