package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class BloomHashTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "", "a", "abc", "level=error", "0123456789abcdef", "traceID=4bf92f3577b34da6a3ce929d0e0e4736",
        "a somewhat longer ASCII line with more than one hundred and twenty-eight characters in it, so that XXH3 uses its long-input path too!!",
        "héllo", "日本語のトークン", "emoji 🎉 token", "mixed ascii then ü at the end"
    })
    void hashOfText_equalsHashOfItsUtf8Bytes(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        assertThat(BloomHash.hash(s)).isEqualTo(BloomHash.hash(utf8));
        assertThat(BloomHash.hash(new StringBuilder(s))).isEqualTo(BloomHash.hash(utf8));
        assertThat(BloomHash.hash(s)).isEqualTo(LongHashFunction.xx3().hashBytes(utf8));
    }

    @Test
    void hashOfRandomAsciiOfEveryLength_equalsHashOfBytes() {
        SplittableRandom random = new SplittableRandom(7);
        for (int length = 0; length <= 300; length++) {
            char[] chars = new char[length];
            for (int i = 0; i < length; i++) {
                chars[i] = (char) random.nextInt(0x80);
            }
            String s = new String(chars);
            assertThat(BloomHash.hash(s)).as("length %d", length).isEqualTo(BloomHash.hash(s.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void hashOfUnpairedSurrogate_followsStringUtf8Encoding() {
        String s = "bad\uD800surrogate";
        assertThat(BloomHash.hash(s)).isEqualTo(BloomHash.hash(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void hashOfSlicesAndBuffers_equalsHashOfTheSameBytes() {
        byte[] line = "prefix|token-value|suffix".getBytes(StandardCharsets.UTF_8);
        byte[] token = "token-value".getBytes(StandardCharsets.UTF_8);
        long expected = BloomHash.hash(token);

        assertThat(BloomHash.hash(line, 7, token.length)).isEqualTo(expected);

        ByteBuffer heap = ByteBuffer.wrap(line, 7, token.length);
        assertThat(BloomHash.hash(heap)).isEqualTo(expected);
        assertThat(heap.position()).isEqualTo(7);

        ByteBuffer direct = ByteBuffer.allocateDirect(line.length);
        direct.put(line).position(7).limit(7 + token.length);
        assertThat(BloomHash.hash(direct)).isEqualTo(expected);
        assertThat(direct.position()).isEqualTo(7);

        ByteBuffer bigEndianDirect = ByteBuffer.allocateDirect(line.length).order(java.nio.ByteOrder.BIG_ENDIAN);
        bigEndianDirect.put(line).position(7).limit(7 + token.length);
        assertThat(BloomHash.hash(bigEndianDirect.slice())).isEqualTo(expected);
        assertThat(BloomHash.hash(ByteBuffer.wrap(line).position(7).limit(7 + token.length).slice())).isEqualTo(expected);
    }

    @Test
    void hashOfSlice_outOfBounds_throws() {
        assertThatThrownBy(() -> BloomHash.hash(new byte[4], 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> BloomHash.hash((CharSequence) null)).isInstanceOf(NullPointerException.class).hasMessage("s is null");
    }

    @Test
    void combine_isDeterministicOrderSensitiveAndSpreads() {
        assertThat(BloomHash.combine(1, 2)).isEqualTo(BloomHash.combine(1, 2));
        assertThat(BloomHash.combine(1, 2)).isNotEqualTo(BloomHash.combine(2, 1));
        Set<Long> seen = new HashSet<>();
        for (long chunk = 0; chunk < 100; chunk++) {
            for (long token = 0; token < 100; token++) {
                seen.add(BloomHash.combine(chunk, token));
            }
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void combine_flipsAboutHalfTheBitsWhenOneInputBitChanges() {
        SplittableRandom random = new SplittableRandom(3);
        long flipped = 0;
        int trials = 10_000;
        for (int i = 0; i < trials; i++) {
            long a = random.nextLong();
            long b = random.nextLong();
            int bit = random.nextInt(64);
            long changed = random.nextBoolean() ? BloomHash.combine(a ^ (1L << bit), b) : BloomHash.combine(a, b ^ (1L << bit));
            flipped += Long.bitCount(BloomHash.combine(a, b) ^ changed);
        }
        assertThat((double) flipped / trials).isBetween(31.0, 33.0);
    }
}
