package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Literal search on a line column's tokens against a plain substring search of the decoded lines. */
final class ColumnarLineSearchTest {
    private static final String[] PIECES = {"status", "=", "500", "5001", "0500", "007", "0", "retry", "retrying",
        " ", "_", "a_b", "é", "😀", "日本", "\"", "123456789012345678", "1234567890123456789", "x", "-", "ts",
        "999999999999999999", "1000000000000000000"};

    private static String randomText(Random r, int maxPieces) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxPieces + 1);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }


    private static String literal(Random r, List<String> lines) {
        if (r.nextBoolean() && !lines.isEmpty()) {
            String line = lines.get(r.nextInt(lines.size()));
            if (!line.isEmpty()) {
                int from = r.nextInt(line.length());
                int to = from + 1 + r.nextInt(Math.min(12, line.length() - from));
                String sub = line.substring(from, to);
                if (!Character.isLowSurrogate(sub.charAt(0)) && !Character.isHighSurrogate(sub.charAt(sub.length() - 1))) {
                    return sub;
                }
            }
        }
        return randomText(r, 3);
    }

    @Test
    void randomLinesAndLiterals_sameRowsAsSubstringSearch() throws ChunkFormatException {
        Random r = new Random(99);
        int found = 0;
        for (int set = 0; set < 300; set++) {
            List<String> lines = new ArrayList<>();
            int n = 1 + r.nextInt(40);
            for (int i = 0; i < n; i++) {
                lines.add(randomText(r, 10));
            }
            byte[] payload = ColumnarTestData.tokenizedPayload(lines);
            for (int k = 0; k < 10; k++) {
                String literal = literal(r, lines);
                boolean[] got = ColumnarLineTokens.rowsContaining(payload, n, true, "test",
                        literal.getBytes(StandardCharsets.UTF_8));
                for (int i = 0; i < n; i++) {
                    assertThat(got[i]).as("%s in %s", literal, lines.get(i)).isEqualTo(lines.get(i).contains(literal));
                    found += got[i] ? 1 : 0;
                }
            }
        }
        assertThat(found).isGreaterThan(1000);
    }

    @Test
    void block_rowsContaining_sameBeforeAndAfterTheLinesAreDecoded() throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        Random r = new Random(5);
        for (int i = 0; i < 200; i++) {
            entries.add(new LogEntry(i, "ts=" + i + " status=" + (200 + r.nextInt(4) * 100) + " msg=retrying", List.of()));
        }
        byte[] object = ColumnarObjectWriter.write(new ColumnarConfig(64, ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK,
                ColumnarConfig.DEFAULT_ZSTD_LEVEL), Map.of(Labels.of("app", "a"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("o", object));
        int matches = 0;
        for (int b = 0; b < reader.directory().blocks().size(); b++) {
            ColumnarBlock block = reader.readBlock(b);
            byte[] literal = "status=500".getBytes(StandardCharsets.UTF_8);
            boolean[] onTokens = block.rowsContaining(literal);
            boolean[] onLines = block.rowsContaining(literal); // still undecoded: tokens again
            block.lines();
            boolean[] decoded = block.rowsContaining(literal);
            for (int row = 0; row < block.rows(); row++) {
                boolean expected = block.lines().line(row).contains("status=500");
                assertThat(onTokens[row]).isEqualTo(expected);
                assertThat(onLines[row]).isEqualTo(expected);
                assertThat(decoded[row]).isEqualTo(expected);
                matches += expected ? 1 : 0;
            }
        }
        assertThat(matches).isPositive();
    }

    @Test
    void scratchSearch_reusedAcrossBlocks_sameRowsAsSubstringSearchAndKeepsNothing() throws Exception {
        // blocks of different sizes share one scratch (a larger earlier section must not leak into a later one), and
        // dictionaries of more than 126 tokens give two-byte codes
        Random r = new Random(17);
        ColumnarScanBuffers scratch = new ColumnarScanBuffers();
        int found = 0;
        for (int set = 0; set < 60; set++) {
            List<String> lines = new ArrayList<>();
            int n = 1 + r.nextInt(set % 3 == 0 ? 400 : 30);
            for (int i = 0; i < n; i++) {
                String word = "w" + (char) ('a' + r.nextInt(26)) + (char) ('a' + r.nextInt(26));
                lines.add(randomText(r, 8) + " " + word + " status=" + (100 * (1 + r.nextInt(5))) + " " + randomText(r, 3));
            }
            byte[] payload = ColumnarTestData.tokenizedPayload(lines);
            ColumnarLineTokenSections sections = new ColumnarLineTokenSections(payload, n, true, "test");
            for (int k = 0; k < 8; k++) {
                String literal = k == 0 ? "status=500" : k == 1 ? "retry" : literal(r, lines);
                boolean[] got = sections.rowsContaining(literal.getBytes(StandardCharsets.UTF_8), scratch);
                for (int i = 0; i < n; i++) {
                    assertThat(got[i]).as("%s in %s", literal, lines.get(i)).isEqualTo(lines.get(i).contains(literal));
                    found += got[i] ? 1 : 0;
                }
            }
        }
        assertThat(found).isGreaterThan(500);
        assertThat(scratch.codes.length).isPositive();
    }

    @Test
    void corruptCodes_refusedInScratchSearch() {
        List<String> lines = List.of("status=500 ok", "status=200 retry");
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        // one row more than the codes hold: the walk must refuse, not answer
        ColumnarLineTokenSections sections = new ColumnarLineTokenSections(payload, 3, true, "test");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sections.rowsContaining(
                "status".getBytes(StandardCharsets.UTF_8), new ColumnarScanBuffers()))
                .isInstanceOf(ChunkFormatException.class).hasMessageContaining("codes end before row 2");
    }

    @Test
    void manyNumbersBeforeTheLiteral_sameRowsAsSubstringSearch() throws ChunkFormatException {
        // rows with a few to a few dozen numbers of one to five varint bytes before the status: the walk skips them
        // eight bytes at a time, and must land on the status's number whatever the word boundaries
        Random r = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            StringBuilder line = new StringBuilder();
            for (int k = r.nextInt(30); k > 0; k--) {
                long value = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(100);
                    case 1 -> r.nextInt(100_000);
                    case 2 -> r.nextInt(Integer.MAX_VALUE);
                    default -> Math.abs(r.nextLong() % 100_000_000_000L);
                };
                line.append("k").append(k).append('=').append(value).append(' ');
            }
            line.append("status=").append(r.nextBoolean() ? 500 : 200 + r.nextInt(400)).append(" done ").append(i);
            lines.add(line.toString());
        }
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        for (String literal : new String[] {"status=500", "status=50", "=500 done", "status=5", "done 39", " 399"}) {
            boolean[] got = ColumnarLineTokens.rowsContaining(payload, lines.size(), true, "test",
                    literal.getBytes(StandardCharsets.UTF_8));
            int hits = 0;
            for (int i = 0; i < lines.size(); i++) {
                assertThat(got[i]).as("%s in %s", literal, lines.get(i)).isEqualTo(lines.get(i).contains(literal));
                hits += got[i] ? 1 : 0;
            }
            assertThat(hits).as(literal).isPositive();
        }
    }

    @Test
    void innerNumberRun_foundOnlyWhereTheNumberIs() throws ChunkFormatException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            lines.add("ts=" + (i * 129) + " level=info n=" + (i % 7) + " id=00" + i);
        }
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        String[] literals = {"ts=129 ", "ts=128 ", "ts=38571 ", "ts=16383 ", "=00" + 12 + "", " id=0012", "n=3 ",
            "ts=0 ", "=1", "29 l", "ts=", "=38571"};
        for (String literal : literals) {
            boolean[] got = ColumnarLineTokens.rowsContaining(payload, lines.size(), true, "test",
                    literal.getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < lines.size(); i++) {
                assertThat(got[i]).as("%s in %s", literal, lines.get(i)).isEqualTo(lines.get(i).contains(literal));
            }
        }
    }

    @Test
    void digits_decimalLengthAroundEveryPowerOfTen() {
        long power = 1;
        for (int n = 0; n <= 18; n++, power *= 10) { // 10^0 .. 10^18
            for (long v : new long[] {power - 1, power, power + 1, power * 2 - 1, power * 9, power * 9 + 1}) {
                assertThat(ColumnarLineTokenSections.digits(v)).as("%d", v).isEqualTo(Long.toString(v).length());
            }
        }
        assertThat(ColumnarLineTokenSections.digits(0)).isEqualTo(1);
        assertThat(ColumnarLineTokenSections.digits(Long.MAX_VALUE)).isEqualTo(19);
        java.util.Random r = new java.util.Random(3);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong() >>> (1 + r.nextInt(63)); // non-negative
            assertThat(ColumnarLineTokenSections.digits(v)).isEqualTo(Long.toString(v).length());
        }
    }

    @Test
    void containsVarint_onlyAtVarintBoundaries() {
        // 300 = 0xAC 0x02; 44 = 0x2C; 2 = 0x02: the 0x02 inside 300's encoding is not the number 2
        byte[] section = {(byte) 0xAC, 0x02, 0x2C};
        assertThat(ColumnarLineTokenSections.containsVarint(section, 300)).isTrue();
        assertThat(ColumnarLineTokenSections.containsVarint(section, 44)).isTrue();
        assertThat(ColumnarLineTokenSections.containsVarint(section, 2)).isFalse();
        assertThat(ColumnarLineTokenSections.containsVarint(new byte[0], 0)).isFalse();
    }
}
