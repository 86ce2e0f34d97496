package io.logbloom.index;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Appends fixed-width big-endian and LEB128 varint fields to a growing byte array. Not thread-safe. */
final class IndexBytesOut {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(4096);

    void u8(int v) {
        out.write(v);
    }

    void i32(int v) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            out.write(v >>> shift);
        }
    }

    void i64(long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }

    /** Unsigned LEB128 of a value treated as unsigned 64 bits. */
    void uvarint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Zig-zag then LEB128, so small negative deltas stay short. */
    void varint(long v) {
        uvarint((v << 1) ^ (v >> 63));
    }

    void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        uvarint(b.length);
        out.write(b, 0, b.length);
    }

    int size() {
        return out.size();
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
