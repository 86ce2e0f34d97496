package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class BloomCodecTest {

    private static ScalableBloomFilter grownFilter() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                BloomConfig.defaults().withInitialCapacity(50).withTightening(0.8).withExpansion(1.5));
        for (int i = 0; i < 400; i++) {
            filter.add("token-" + i);
        }
        return filter;
    }

    @Test
    void roundTrip_preservesConfigStatsBitsAndGrowth() throws Exception {
        ScalableBloomFilter original = grownFilter();
        byte[] bytes = original.serialize();

        ScalableBloomFilter copy = ScalableBloomFilter.deserialize(bytes);

        assertThat(copy.config()).isEqualTo(original.config());
        assertThat(copy.stats()).isEqualTo(original.stats());
        assertThat(copy.stats().subFilters()).isGreaterThan(3);
        assertThat(copy.serialize()).isEqualTo(bytes);
        for (int i = 0; i < 400; i++) {
            assertThat(copy.mightContain("token-" + i)).isTrue();
        }
        for (int i = 0; i < 10_000; i++) {
            assertThat(copy.mightContain("absent-" + i)).isEqualTo(original.mightContain("absent-" + i));
        }
        for (int i = 400; i < 2_000; i++) {
            copy.add("token-" + i);
            original.add("token-" + i);
        }
        assertThat(copy.serialize()).as("both keep growing the same way").isEqualTo(original.serialize());
    }

    @Test
    void roundTrip_ofFullNonScalingFilter_staysFull() throws Exception {
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                BloomConfig.defaults().withInitialCapacity(10).withNonScaling(true));
        for (int i = 0; filter.add("t" + i) != AddResult.FULL; i++) {
            assertThat(i).isLessThan(100);
        }
        ScalableBloomFilter copy = ScalableBloomFilter.deserialize(filter.serialize());
        assertThat(copy.isFull()).isTrue();
        assertThat(copy.add("new")).isEqualTo(AddResult.FULL);
        assertThat(copy.add("t0")).isEqualTo(AddResult.ALREADY_PRESENT);
    }

    @Test
    void version1Layout_isStable() throws Exception {
        ScalableBloomFilter filter = ScalableBloomFilter.create(new BloomConfig(1, 0.75, 2, 0.5, 1024, false));
        filter.add(0x0123456789ABCDEFL);
        String hex = HexFormat.of().formatHex(filter.serialize());
        // header: magic, version, flags, 1, 0.75, 2.0, 0.5, 1024, 1 sub-filter, CRC
        // sub-filter: capacity 1, rate 0.375, 2 hashes, 1 word each, 1 item, CRC, two words, CRC
        assertThat(hex.substring(0, 100)).isEqualTo("4c42534601" + "00"
                + "0100000000000000" + "000000000000e83f" + "0000000000000040" + "000000000000e03f"
                + "0004000000000000" + "01000000");
        assertThat(hex.substring(108, 172)).isEqualTo("0100000000000000" + "000000000000d83f"
                + "02000000" + "01000000" + "0100000000000000");
        assertThat(hex).hasSize(2 * (54 + 32 + 4 + 16 + 4));
        assertThat(ScalableBloomFilter.deserialize(HexFormat.of().parseHex(hex)).mightContain(0x0123456789ABCDEFL)).isTrue();
    }

    @Test
    void everyFlippedByte_isDetected() {
        byte[] bytes = ScalableBloomFilter.create(new BloomConfig(20, 0.1, 2, 0.5, 4096, false)).serialize();
        for (int offset = 0; offset < bytes.length; offset++) {
            for (int bit = 0; bit < 8; bit += 3) {
                byte[] corrupted = bytes.clone();
                corrupted[offset] ^= (byte) (1 << bit);
                int at = offset;
                assertThatThrownBy(() -> ScalableBloomFilter.deserialize(corrupted))
                        .as("flip at offset %d", at)
                        .isInstanceOf(BloomFormatException.class)
                        .hasMessageMatching("(bad magic|unsupported version|checksum mismatch).*");
            }
        }
    }

    @Test
    void flippedWord_namesTheSubFilterAndOffset() {
        byte[] bytes = grownFilter().serialize();
        bytes[54 + 40] ^= 0x10;
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(bytes))
                .isInstanceOf(BloomFormatException.class)
                .hasMessageStartingWith("checksum mismatch in sub-filter 0 words at offset ");
    }

    @Test
    void everyTruncation_isDetected() {
        byte[] bytes = grownFilter().serialize();
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            int at = length;
            assertThatThrownBy(() -> ScalableBloomFilter.deserialize(truncated))
                    .as("length %d", at)
                    .isInstanceOf(BloomFormatException.class)
                    .hasMessageStartingWith("truncated at offset " + length + ": ");
        }
    }

    @Test
    void trailingBytes_areRejected() {
        byte[] bytes = grownFilter().serialize();
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(longer))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("trailing 3 bytes after the last sub-filter at offset " + bytes.length);
    }

    @Test
    void badMagic_isNamed() {
        byte[] bytes = "NOPE and more bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(bytes))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("bad magic 0x4E4F5045 at offset 0, expected 0x4C425346 (\"LBSF\")");
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(null))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("no bytes: null input");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 255})
    void otherVersion_isRejectedNamingIt(int version) {
        byte[] bytes = grownFilter().serialize();
        bytes[4] = (byte) version;
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(bytes))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("unsupported version " + version + " at offset 4, this build reads version 1");
    }

    @Test
    void invalidConfigWithValidChecksum_isRejectedNamingTheParameter() {
        byte[] bytes = grownFilter().serialize();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putDouble(14, 2.0);
        rewriteHeaderCrc(bytes);
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(bytes))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("invalid config in header: errorRate must be in (0, 1), got 2.0");
    }

    @Test
    void unknownFlagsOrSubFilterCount_withValidChecksum_areRejected() {
        byte[] flags = grownFilter().serialize();
        flags[5] = 0x42;
        rewriteHeaderCrc(flags);
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(flags))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("unknown flags 0x42 at offset 5");

        byte[] count = grownFilter().serialize();
        ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putInt(46, 0);
        rewriteHeaderCrc(count);
        assertThatThrownBy(() -> ScalableBloomFilter.deserialize(count))
                .isInstanceOf(BloomFormatException.class)
                .hasMessage("invalid sub-filter count 0 at offset 46, expected 1 to 1024");
    }

    private static void rewriteHeaderCrc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 50);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(50, (int) crc.getValue());
    }
}
