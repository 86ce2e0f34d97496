package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked little-endian reader over a byte range; every overrun becomes a
 * {@link ChunkFormatException} naming the section and offset. Not thread-safe.
 */
final class ByteSource {
    private final byte[] data;
    private final int end;
    private final String section;
    private int position;

    ByteSource(byte[] data, int offset, int length, String section) {
        this.data = data;
        this.position = offset;
        this.end = offset + length;
        this.section = section;
    }

    int position() {
        return position;
    }

    boolean hasRemaining() {
        return position < end;
    }

    private void need(int n) throws ChunkFormatException {
        if (n < 0 || end - position < n) {
            throw new ChunkFormatException(
                    section + " truncated: need " + n + " bytes at offset " + position + ", have " + (end - position));
        }
    }

    int readByte() throws ChunkFormatException {
        need(1);
        return data[position++] & 0xFF;
    }

    int readInt() throws ChunkFormatException {
        need(4);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (data[position++] & 0xFF) << (8 * i);
        }
        return v;
    }

    long readLong() throws ChunkFormatException {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (data[position++] & 0xFFL) << (8 * i);
        }
        return v;
    }

    long readUvarint() throws ChunkFormatException {
        long v = 0;
        int start = position;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            byte b = data[position++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new ChunkFormatException(section + ": varint at offset " + start + " is longer than 10 bytes");
    }

    /** A uvarint that must fit in [0, max]. */
    int readLength(int max, String what) throws ChunkFormatException {
        int at = position;
        long v = readUvarint();
        if (v < 0 || v > max) {
            throw new ChunkFormatException(section + ": " + what + " " + Long.toUnsignedString(v) + " at offset " + at
                    + " exceeds " + max);
        }
        return (int) v;
    }

    void skip(int n) throws ChunkFormatException {
        need(n);
        position += n;
    }

    void skipString(String what) throws ChunkFormatException {
        int length = readLength(end - position, what + " length");
        skip(length);
    }

    String readString(String what) throws ChunkFormatException {
        int length = readLength(end - position, what + " length");
        need(length); // the bound above was taken before the length's own bytes were read
        String s = new String(data, position, length, StandardCharsets.UTF_8);
        position += length;
        return s;
    }
}
