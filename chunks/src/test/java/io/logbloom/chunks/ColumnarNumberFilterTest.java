package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The filter of a block's whole digit runs: never a false "absent", few false "present", the same however built. */
final class ColumnarNumberFilterTest {
    private static final String[] PIECES = {"ts", "=", "500", "5001", "0500", "007", "0", "1", " ", "_", "é", "😀",
        "123456789012345678", "1234567890123456789", "x", "-", ".", "999999999999999999", "42", "4"};


    private static String randomText(Random r, int maxPieces) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxPieces + 1);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    /** A substring of {@code line} that splits no surrogate pair. */
    private static String substring(Random r, String line) {
        int from = r.nextInt(line.length());
        int to = from + 1 + r.nextInt(Math.min(16, line.length() - from));
        while (from > 0 && Character.isLowSurrogate(line.charAt(from))) {
            from--;
        }
        while (to < line.length() && Character.isLowSurrogate(line.charAt(to))) {
            to++;
        }
        return line.substring(from, to);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'ts=1110000 '|1110000", "'ts=1110000'|''", "'1110000 '|''", "'a=007 b'|''", "'a=0 b'|0", "'x 1 y 22 z'|1 22",
        "'a=1234567890123456789 b'|''", "'a=123456789012345678 b'|123456789012345678", "''|''", "'5'|''",
        "'é42é'|42", "'x42'|''", "'.42.43.'|42 43"})
    void requiredNumbers_innerCanonicalDigitRunsOnly(String literal, String expected) {
        long[] want = expected.isEmpty() ? new long[0]
                : java.util.Arrays.stream(expected.split(" ")).mapToLong(Long::parseLong).toArray();
        assertThat(ColumnarNumberFilter.requiredNumbers(literal.getBytes(StandardCharsets.UTF_8))).containsExactly(want);
    }

    @Test
    void randomLines_aLiteralInSomeLine_neverRuledOut_andRuledOutMeansNoRowHasIt() throws ChunkFormatException {
        Random r = new Random(31);
        ColumnarScanBuffers scratch = new ColumnarScanBuffers();
        int ruledOut = 0;
        int present = 0;
        for (int set = 0; set < 300; set++) {
            List<String> lines = new ArrayList<>();
            int n = 1 + r.nextInt(60);
            for (int i = 0; i < n; i++) {
                lines.add(randomText(r, 12) + " n=" + r.nextInt(3000) + " " + randomText(r, 3));
            }
            byte[] payload = ColumnarTestData.tokenizedPayload(lines);
            ColumnarLineTokenSections kept = new ColumnarLineTokenSections(payload, n, true, "test");
            ColumnarLineTokenSections scanned = new ColumnarLineTokenSections(payload, n, true, "test");
            for (int k = 0; k < 10; k++) {
                String literal = switch (r.nextInt(3)) {
                    case 0 -> " n=" + r.nextInt(3000) + " ";
                    case 1 -> substring(r, lines.get(r.nextInt(n)));
                    default -> randomText(r, 5);
                };
                byte[] bytes = literal.getBytes(StandardCharsets.UTF_8);
                long[] required = ColumnarNumberFilter.requiredNumbers(bytes);
                // the scan's filter right after its search reads the sections the search left in the scratch
                boolean[] rows = scanned.rowsContaining(bytes, scratch);
                ColumnarNumberFilter fromScratch = scanned.numberFilter(scratch);
                ColumnarNumberFilter fromKept = kept.numberFilter(null);
                boolean inSomeLine = lines.stream().anyMatch(l -> l.contains(literal));
                for (ColumnarNumberFilter filter : List.of(fromScratch, fromKept)) {
                    if (inSomeLine) {
                        assertThat(filter.mayContainAll(required)).as("%s in %s", literal, lines).isTrue();
                    }
                    if (!filter.mayContainAll(required)) {
                        assertThat(rows).as(literal).doesNotContain(true);
                    }
                }
                assertThat(fromScratch.mayContainAll(required)).isEqualTo(fromKept.mayContainAll(required));
                ruledOut += fromKept.mayContainAll(required) ? 0 : 1;
                present += inSomeLine && required.length > 0 ? 1 : 0;
            }
        }
        assertThat(ruledOut).as("literals ruled out").isGreaterThan(300);
        assertThat(present).as("literals with inner numbers found in a line").isGreaterThan(100);
    }

    @Test
    void everyNumberOfABlock_present_andAbsentNumbers_rarelyPresent() throws ChunkFormatException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            lines.add("ts=" + (1_000_000 + 7 * i) + " status=" + (i % 5 == 0 ? 500 : 200) + " bytes=" + (i * 31 % 997));
        }
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        ColumnarNumberFilter filter = new ColumnarLineTokenSections(payload, lines.size(), true, "test")
                .numberFilter(new ColumnarScanBuffers());
        for (int i = 0; i < 2000; i++) {
            assertThat(filter.mayContain(1_000_000 + 7 * i)).isTrue();
            assertThat(filter.mayContain(i * 31 % 997)).isTrue();
        }
        assertThat(filter.values()).as("distinct: 2000 ts, 997 bytes, 2 statuses (overlapping)").isBetween(2900, 3000);
        int falsePositives = 0;
        for (long v = 2_000_001; v < 2_100_001; v++) {
            falsePositives += filter.mayContain(v) ? 1 : 0;
        }
        // 10 bits and 7 probes per value: about 0.8 %
        assertThat(falsePositives).isLessThan(2_000);
        assertThat(filter.retainedBytes()).isLessThan(3000 * 10 / 8 + 100);
    }

    @Test
    void digitTokenInTheDictionary_heldToo() throws ChunkFormatException {
        // a payload this writer does not make: the canonical decimal 123 stored as a dictionary token, not a number
        byte[] dictionary = {4, 1, 'x', 1, ' ', 3, '1', '2', '3', 1, 'y'};
        byte[] codes = {2, 3, 4, 3, 5, 1}; // x, ' ', 123, ' ', y, end of line
        ByteSink payload = new ByteSink(64);
        payload.writeUvarint(7); // "x 123 y"
        for (byte[] section : List.of(dictionary, codes, new byte[0])) {
            payload.writeUvarint(section.length);
            payload.writeUvarint(0); // stored plain
            payload.writeBytes(section, 0, section.length);
        }
        ColumnarLineTokenSections sections = new ColumnarLineTokenSections(payload.toByteArray(), 1, false, "test");
        assertThat(sections.decode().line(0)).isEqualTo("x 123 y");
        byte[] literal = "x 123 y".getBytes(StandardCharsets.UTF_8);
        assertThat(sections.rowsContaining(literal, new ColumnarScanBuffers())).containsExactly(true);
        assertThat(sections.numberFilter(new ColumnarScanBuffers())
                .mayContainAll(ColumnarNumberFilter.requiredNumbers(literal))).isTrue();
    }

    @Test
    void truncatedNumbers_refused() {
        ByteSink payload = new ByteSink(64);
        payload.writeUvarint(1);
        for (byte[] section : List.of(new byte[] {0}, new byte[] {0, 1}, new byte[] {(byte) 0x85})) {
            payload.writeUvarint(section.length);
            payload.writeUvarint(0);
            payload.writeBytes(section, 0, section.length);
        }
        ColumnarLineTokenSections sections = new ColumnarLineTokenSections(payload.toByteArray(), 1, false, "test");
        assertThatThrownBy(() -> sections.numberFilter(new ColumnarScanBuffers()))
                .isInstanceOf(ChunkFormatException.class).hasMessageContaining("truncated");
    }

    @Test
    void block_plainLines_noFilter_tokenized_filter() throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entries.add(new LogEntry(i, "ts=" + i + " status=200 msg=retrying", List.of()));
        }
        byte[] object = ColumnarObjectWriter.write(new ColumnarConfig(300, ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK,
                ColumnarConfig.DEFAULT_ZSTD_LEVEL), Map.of(Labels.of("app", "a"), ColumnarRows.of(entries)));
        ColumnarBlock block = new ColumnarObjectReader(RangeSource.ofBytes("o", object)).readBlock(0);
        assertThat(block.info().lines().encoding()).isEqualTo(ColumnarEncoding.LINES_TOKENIZED_RANGES);
        ColumnarNumberFilter filter = block.numberFilter(null);
        assertThat(filter.mayContain(299)).isTrue();
        assertThat(filter.mayContain(200)).isTrue();

        // a part sealed fast stores its lines plain: no tokens, no filter
        byte[] plain = ColumnarObjectWriter.write(new ColumnarConfig(300, ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK,
                ColumnarConfig.DEFAULT_ZSTD_LEVEL).withEffort(ColumnarConfig.Effort.FAST),
                Map.of(Labels.of("app", "a"), ColumnarRows.of(entries)));
        ColumnarBlock fast = new ColumnarObjectReader(RangeSource.ofBytes("p", plain)).readBlock(0);
        assertThat(fast.info().lines().encoding()).isNotEqualTo(ColumnarEncoding.LINES_TOKENIZED_RANGES);
        assertThat(fast.numberFilter(null)).isNull();
    }
}
