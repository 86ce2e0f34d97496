package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable little-endian byte buffer with LEB128 varints, used by the chunk writers. Not thread-safe. */
final class ByteSink {
    private byte[] buffer;
    private int size;

    ByteSink(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    int size() {
        return size;
    }

    byte[] array() {
        return buffer;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    void reset() {
        size = 0;
    }

    private void ensure(int extra) {
        if (size + extra > buffer.length) {
            long wanted = Math.max((long) buffer.length * 2, (long) size + extra);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("buffer would exceed 2 GiB: " + wanted);
            }
            buffer = Arrays.copyOf(buffer, (int) wanted);
        }
    }

    /**
     * For a caller writing into {@link #array()} itself: with {@code size} bytes written so far, makes room for
     * {@code extra} more and returns the array to write them to (the old one, or a larger copy); {@link #setSize}
     * then says how many were written.
     */
    byte[] room(int size, int extra) {
        setSize(size);
        ensure(extra);
        return buffer;
    }

    /** Counts the first {@code size} bytes of {@link #array()} written (by a caller writing into it directly). */
    void setSize(int size) {
        if (size < 0 || size > buffer.length) {
            throw new IllegalArgumentException("size " + size + " outside the buffer's 0.." + buffer.length);
        }
        this.size = size;
    }

    void writeByte(int b) {
        ensure(1);
        buffer[size++] = (byte) b;
    }

    void writeInt(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buffer[size++] = (byte) (v >>> (8 * i));
        }
    }

    void writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buffer[size++] = (byte) (v >>> (8 * i));
        }
    }

    /** Unsigned LEB128 of all 64 bits. */
    void writeUvarint(long v) {
        if ((v & ~0x7FL) == 0 && size < buffer.length) {
            buffer[size++] = (byte) v; // the common case: a token code or small length, one byte
            return;
        }
        ensure(10);
        size = putUvarint(buffer, size, v);
    }

    /**
     * Writes {@code v} as an unsigned LEB128 varint of all 64 bits at {@code at} of {@code bytes}, which must have room
     * for it (at most 10 bytes); returns where it ends. For writers filling {@link #array()} themselves.
     */
    static int putUvarint(byte[] bytes, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            bytes[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[at++] = (byte) v;
        return at;
    }

    /** Makes room for {@code length} more bytes and counts them written; returns where they start in {@link #array()}. */
    int claim(int length) {
        ensure(length);
        int at = size;
        size += length;
        return at;
    }

    void writeBytes(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
    }

    /**
     * Writes the UTF-8 bytes of {@code s} prefixed with their length as a uvarint. Uses the JDK's
     * encoder, whose ASCII fast path is vectorized; it was faster than a char loop in ChunkReport.
     */
    void writeString(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        writeUvarint(utf8.length);
        writeBytes(utf8, 0, utf8.length);
    }

    void setInt(int position, int v) {
        for (int i = 0; i < 4; i++) {
            buffer[position + i] = (byte) (v >>> (8 * i));
        }
    }
}
