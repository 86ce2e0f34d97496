package io.logbloom.bloom;

import java.nio.ByteOrder;
import net.openhft.hashing.Access;

/**
 * Presents an all-ASCII {@link CharSequence} as its UTF-8 bytes (one byte per char) to a hash function.
 *
 * <p>For ASCII text the UTF-8 encoding is the sequence of low bytes of the chars, so reading the
 * chars in place gives the same hash as encoding first, without the copy. Callers must check that
 * every char is below 0x80. Both byte orders exist because {@link Access} requires a reverse view.
 * Stateless and thread-safe.
 */
final class AsciiCharSequenceAccess extends Access<CharSequence> {
    /** Little-endian view, the order XXH3 reads in. */
    static final AsciiCharSequenceAccess LITTLE_ENDIAN = new AsciiCharSequenceAccess(false);
    /** Big-endian view, the reverse of {@link #LITTLE_ENDIAN}. */
    static final AsciiCharSequenceAccess BIG_ENDIAN = new AsciiCharSequenceAccess(true);

    private final boolean bigEndian;

    private AsciiCharSequenceAccess(boolean bigEndian) {
        this.bigEndian = bigEndian;
    }

    @Override
    public long getLong(CharSequence input, long offset) {
        int i = (int) offset;
        long value = (input.charAt(i) & 0xFFL)
                | (input.charAt(i + 1) & 0xFFL) << 8
                | (input.charAt(i + 2) & 0xFFL) << 16
                | (input.charAt(i + 3) & 0xFFL) << 24
                | (input.charAt(i + 4) & 0xFFL) << 32
                | (input.charAt(i + 5) & 0xFFL) << 40
                | (input.charAt(i + 6) & 0xFFL) << 48
                | (input.charAt(i + 7) & 0xFFL) << 56;
        return bigEndian ? Long.reverseBytes(value) : value;
    }

    @Override
    public long getUnsignedInt(CharSequence input, long offset) {
        return getInt(input, offset) & 0xFFFFFFFFL;
    }

    @Override
    public int getInt(CharSequence input, long offset) {
        int i = (int) offset;
        int value = (input.charAt(i) & 0xFF)
                | (input.charAt(i + 1) & 0xFF) << 8
                | (input.charAt(i + 2) & 0xFF) << 16
                | (input.charAt(i + 3) & 0xFF) << 24;
        return bigEndian ? Integer.reverseBytes(value) : value;
    }

    @Override
    public int getUnsignedShort(CharSequence input, long offset) {
        return getShort(input, offset) & 0xFFFF;
    }

    @Override
    public int getShort(CharSequence input, long offset) {
        int i = (int) offset;
        int value = (input.charAt(i) & 0xFF) | (input.charAt(i + 1) & 0xFF) << 8;
        return bigEndian ? Short.reverseBytes((short) value) : (short) value;
    }

    @Override
    public int getUnsignedByte(CharSequence input, long offset) {
        return input.charAt((int) offset) & 0xFF;
    }

    @Override
    public int getByte(CharSequence input, long offset) {
        return (byte) input.charAt((int) offset);
    }

    @Override
    public ByteOrder byteOrder(CharSequence input) {
        return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    @Override
    protected Access<CharSequence> reverseAccess() {
        return bigEndian ? LITTLE_ENDIAN : BIG_ENDIAN;
    }
}
