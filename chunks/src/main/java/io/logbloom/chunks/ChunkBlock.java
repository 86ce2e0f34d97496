package io.logbloom.chunks;

/**
 * Metadata of one compressed block of an encoded chunk, as stored in the chunk header.
 *
 * @param minTimeNanos oldest entry
 * @param maxTimeNanos newest entry
 * @param entries number of entries
 * @param offset position of the block's stored bytes in the encoded chunk
 * @param storedLength compressed length
 * @param uncompressedLength length after decompression
 * @param crc32c CRC32C of the stored (compressed) bytes
 */
public record ChunkBlock(long minTimeNanos, long maxTimeNanos, int entries, int offset, int storedLength,
        int uncompressedLength, int crc32c) {
    /** Whether any entry of the block can fall in [fromNanos, throughNanos). */
    public boolean overlaps(long fromNanos, long throughNanos) {
        return maxTimeNanos >= fromNanos && minTimeNanos < throughNanos;
    }
}
