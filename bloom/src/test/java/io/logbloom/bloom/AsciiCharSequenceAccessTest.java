package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class AsciiCharSequenceAccessTest {
    private static final String TEXT = "0123456789abcdefXYZ";
    private static final ByteBuffer LITTLE = ByteBuffer.wrap(TEXT.getBytes(StandardCharsets.US_ASCII)).order(ByteOrder.LITTLE_ENDIAN);
    private static final ByteBuffer BIG = ByteBuffer.wrap(TEXT.getBytes(StandardCharsets.US_ASCII)).order(ByteOrder.BIG_ENDIAN);

    @Test
    void readsTheSameValuesAsAByteBufferInEitherOrder() {
        for (int offset = 0; offset + 8 <= TEXT.length(); offset++) {
            assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.getLong(TEXT, offset)).isEqualTo(LITTLE.getLong(offset));
            assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.getLong(TEXT, offset)).isEqualTo(BIG.getLong(offset));
            assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.getInt(TEXT, offset)).isEqualTo(LITTLE.getInt(offset));
            assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.getInt(TEXT, offset)).isEqualTo(BIG.getInt(offset));
            assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.getUnsignedInt(TEXT, offset)).isEqualTo(BIG.getInt(offset) & 0xFFFFFFFFL);
            assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.getShort(TEXT, offset)).isEqualTo(LITTLE.getShort(offset));
            assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.getShort(TEXT, offset)).isEqualTo(BIG.getShort(offset));
            assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.getUnsignedShort(TEXT, offset)).isEqualTo(BIG.getShort(offset) & 0xFFFF);
            assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.getByte(TEXT, offset)).isEqualTo(LITTLE.get(offset));
            assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.getUnsignedByte(TEXT, offset)).isEqualTo(LITTLE.get(offset) & 0xFF);
        }
    }

    @Test
    void reverseAccess_flipsTheByteOrder() {
        assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.byteOrder(TEXT)).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(AsciiCharSequenceAccess.LITTLE_ENDIAN.byteOrder(TEXT, ByteOrder.BIG_ENDIAN)).isSameAs(AsciiCharSequenceAccess.BIG_ENDIAN);
        assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.byteOrder(TEXT, ByteOrder.LITTLE_ENDIAN)).isSameAs(AsciiCharSequenceAccess.LITTLE_ENDIAN);
        assertThat(AsciiCharSequenceAccess.BIG_ENDIAN.byteOrder(TEXT)).isEqualTo(ByteOrder.BIG_ENDIAN);
    }
}
