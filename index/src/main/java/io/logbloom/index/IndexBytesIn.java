package io.logbloom.index;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the fields {@link IndexBytesOut} writes, bounds-checked: running past the end or a malformed
 * field throws {@link IndexFormatException} naming the file and offset. Not thread-safe.
 */
final class IndexBytesIn {
    private final String name;
    private final byte[] bytes;
    private final int end;
    private int pos;

    IndexBytesIn(String name, byte[] bytes, int start, int end) {
        this.name = name;
        this.bytes = bytes;
        this.pos = start;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    IndexFormatException error(String problem) {
        return new IndexFormatException("index file " + name + ": " + problem + " at offset " + pos);
    }

    private void need(int n) throws IndexFormatException {
        if (n < 0 || end - pos < n) {
            throw error("truncated field (needs " + n + " bytes, " + (end - pos) + " left)");
        }
    }

    int u8() throws IndexFormatException {
        need(1);
        return bytes[pos++] & 0xFF;
    }

    int i32() throws IndexFormatException {
        need(4);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (bytes[pos++] & 0xFF);
        }
        return v;
    }

    long i64() throws IndexFormatException {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (bytes[pos++] & 0xFF);
        }
        return v;
    }

    long uvarint() throws IndexFormatException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw error("varint longer than 10 bytes");
    }

    long varint() throws IndexFormatException {
        long u = uvarint();
        return (u >>> 1) ^ -(u & 1);
    }

    /** An unsigned varint that must lie in [0, max]; {@code what} names it in the error. */
    int count(String what, long max) throws IndexFormatException {
        int at = pos;
        long v = uvarint();
        if (v < 0 || v > max) {
            pos = at;
            throw error(what + " " + Long.toUnsignedString(v) + " out of range [0, " + max + "]");
        }
        return (int) v;
    }

    String string() throws IndexFormatException {
        int len = count("string length", remaining());
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes, pos, len));
            pos += len;
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw error("invalid UTF-8 in string of " + len + " bytes");
        }
    }
}
