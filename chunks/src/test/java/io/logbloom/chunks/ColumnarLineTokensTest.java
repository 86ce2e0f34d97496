package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class ColumnarLineTokensTest {
    private static List<String> roundTrip(List<String> lines) throws ChunkFormatException {
        ColumnarLines decoded = ColumnarLineTokens.decode(ColumnarTestData.tokenizedPayload(lines), lines.size(), true,
                "test");
        List<String> result = new ArrayList<>();
        for (int i = 0; i < decoded.rows(); i++) {
            result.add(decoded.line(i));
        }
        return result;
    }

    @Test
    void numbersAndEdgeCases_roundTrip() throws ChunkFormatException {
        List<String> lines = List.of("", "0", "00", "007", "x=0 y=10 z=999999999999999999 w=1000000000000000000",
                "18446744073709551615 9223372036854775807", "日本語 😀 ünïcödé_42", "a_b__c", " \t\n ", "\u0000\u00ff");
        assertThat(roundTrip(lines)).containsExactlyElementsOf(lines);
    }

    @Test
    void tokensAroundThePackedLength_sameTailOrPrefix_keptApart() throws ChunkFormatException {
        // tokens up to 8 bytes are matched by their packed bytes, longer ones by their bytes: equal lengths and
        // shared last 8 bytes (what a packed long of a longer token would hold), prefixes and 8-vs-9 bytes differ
        List<String> lines = List.of("abcdefgh xabcdefgh yabcdefgh abcdefgh", "abcdefg abcdefgh abcdefghi",
                "xabcdefgh\u0000 ;;;;;;;; ;;;;;;;;; ;;;;;;;", "007 0007 00000000 000000000 00000000",
                "é é𝄞 ééééé ééééé𝄞 xabcdefgh yabcdefgh", "abcdefghijklmnop abcdefghijklmnopq xbcdefghijklmnopq "
                        + "abcdefghijklmnox abcdefgxijklmnop abcdefghijklmnop abcdefghijklmno");
        assertThat(roundTrip(lines)).containsExactlyElementsOf(lines);
    }

    @Test
    void invalidUtf8_bytesRoundTripExactly() throws ChunkFormatException {
        ColumnarRows rows = new ColumnarRows();
        byte[] bad = {(byte) 0xff, 'a', '1', (byte) 0xc3, '2', (byte) 0x80, (byte) 0xe6};
        rows.append(0, bad, 0, bad.length, List.of());
        ByteSink out = new ByteSink(64);
        try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
            new ColumnarLineTokens().encode(rows, new int[] {0}, 0, 1, zstd, out, null);
        }
        ColumnarLines decoded = ColumnarLineTokens.decode(out.toByteArray(), 1, true, "test");
        byte[] back = java.util.Arrays.copyOfRange(decoded.bytes(), decoded.offset(0), decoded.offset(0)
                + decoded.length(0));
        assertThat(back).isEqualTo(bad);
    }

    @Test
    void aPayloadInsideALargerArray_readsWhereItLiesAndNotBeyond() throws ChunkFormatException {
        Random random = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            lines.add(ColumnarTestData.line(random) + " status=" + (200 + random.nextInt(400)));
        }
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        byte[] block = new byte[payload.length + 700];
        random.nextBytes(block); // the bytes around it: other columns of the block, here noise
        int at = 333;
        System.arraycopy(payload, 0, block, at, payload.length);

        ColumnarLineTokenSections alone = new ColumnarLineTokenSections(payload, lines.size(), true, "alone");
        ColumnarLineTokenSections inPlace = new ColumnarLineTokenSections(block, at, payload.length, lines.size(), true,
                "in place", ZstdInflater.perCall());
        ColumnarLines decoded = inPlace.decode();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(decoded.line(i)).isEqualTo(lines.get(i));
        }
        for (String literal : List.of("status=5", "status=404", "=", "zzz")) {
            byte[] bytes = literal.getBytes(StandardCharsets.UTF_8);
            assertThat(inPlace.rowsContaining(bytes)).as(literal).isEqualTo(alone.rowsContaining(bytes));
        }
        // one byte short: its last section ends past the bytes it was given, and the noise after them is not read
        ColumnarLineTokenSections cut = new ColumnarLineTokenSections(block, at, payload.length - 1, lines.size(), true,
                "cut", ZstdInflater.perCall());
        org.assertj.core.api.Assertions.assertThatThrownBy(cut::decode).isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("cut");
    }

    @Test
    void corruptPayloads_failWithChunkFormatExceptionOnly() {
        Random random = new Random(12);
        ColumnarRows rows = new ColumnarRows();
        for (int i = 0; i < 200; i++) {
            rows.append(0, ColumnarTestData.line(random) + " v=" + random.nextInt(1000), List.of());
        }
        int[] order = new int[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        ByteSink out = new ByteSink(1024);
        try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
            new ColumnarLineTokens().encode(rows, order, 0, order.length, zstd, out, null);
        }
        byte[] payload = out.toByteArray();
        int failures = 0;
        for (int trial = 0; trial < 2000; trial++) {
            byte[] corrupt = payload.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                corrupt[random.nextInt(corrupt.length)] ^= (byte) (1 + random.nextInt(255));
            }
            try {
                ColumnarLineTokens.decode(corrupt, rows.size(), true, "fuzz");
            } catch (ChunkFormatException e) {
                assertThat(e).hasMessageContaining("fuzz");
                failures++;
            }
        }
        assertThat(failures).isGreaterThan(1000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomLines_manyTokens_roundTrip(long seed) throws ChunkFormatException {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            lines.add(ColumnarTestData.line(random) + " n=" + random.nextInt() + " id=" + Long.toHexString(
                    random.nextLong()) + " " + new String(new byte[] {(byte) ('a' + random.nextInt(26))},
                    StandardCharsets.US_ASCII).repeat(random.nextInt(3)));
        }
        assertThat(roundTrip(lines)).containsExactlyElementsOf(lines);
    }

    @Test
    void linesAtTheBoundsOfTheirCodesAndNumbers_roundTripThroughOneEncoder() throws ChunkFormatException {
        // the encoder writes codes and numbers into its buffers' arrays itself, making room before each: a digit every
        // other byte (the most numbers a line holds), numbers of 18 digits (the longest varints), over 2^14 distinct
        // tokens (three-byte codes), empty lines and one-byte lines, in blocks of one encoder reused
        Random random = new Random(7);
        StringBuilder alternating = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            alternating.append(random.nextInt(10)).append((char) ('a' + random.nextInt(3)));
        }
        StringBuilder longNumbers = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            longNumbers.append(100_000_000_000_000_000L + (random.nextLong() & Long.MAX_VALUE) % 899_999_999_999_999_999L)
                    .append(i % 2 == 0 ? " " : "");
        }
        StringBuilder distinct = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            distinct.append("t").append(Integer.toString(i, 26).replace('0', 'z').replace('1', 'y').replace('2', 'x')
                    .replace('3', 'w').replace('4', 'v').replace('5', 'u').replace('6', 's').replace('7', 'r')
                    .replace('8', 'q').replace('9', 'p')).append(' ');
        }
        List<List<String>> blocks = List.of(List.of(alternating.toString(), "", "7", longNumbers.toString(), "x"),
                List.of(distinct.toString(), alternating.toString(), distinct.toString()), List.of("", "", "1"),
                List.of("9".repeat(18), "1" + "0".repeat(17) + "a9", distinct.toString() + longNumbers));
        ColumnarLineTokens encoder = new ColumnarLineTokens();
        try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
            for (List<String> lines : blocks) {
                ColumnarRows rows = new ColumnarRows();
                int[] order = new int[lines.size()];
                for (int i = 0; i < lines.size(); i++) {
                    rows.append(i, lines.get(i), List.of());
                    order[i] = i;
                }
                ByteSink out = new ByteSink(16);
                encoder.encode(rows, order, 0, order.length, zstd, out, null);
                ColumnarLines decoded = ColumnarLineTokens.decode(out.toByteArray(), lines.size(), true, "test");
                List<String> back = new ArrayList<>();
                for (int i = 0; i < decoded.rows(); i++) {
                    back.add(decoded.line(i));
                }
                assertThat(back).containsExactlyElementsOf(lines);
            }
        }
    }
}
