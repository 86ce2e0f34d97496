package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ranges section of a tokenized line column and the proof of absence drawn from it. */
final class ColumnarNumberRangesTest {

    /** The payload's sections: [total, dictionary, codes, numbers, ranges] as (stored, raw, bytes). */
    private record Section(int stored, int raw, byte[] bytes) {}

    private static List<Section> sections(byte[] payload) throws ChunkFormatException {
        ByteSource in = new ByteSource(payload, 0, payload.length, "test");
        in.readUvarint();
        List<Section> sections = new ArrayList<>();
        while (in.hasRemaining()) {
            int stored = (int) in.readUvarint();
            int raw = (int) in.readUvarint();
            int at = in.position();
            in.skip(stored);
            sections.add(new Section(stored, raw, java.util.Arrays.copyOfRange(payload, at, at + stored)));
        }
        return sections;
    }

    private static byte[] rebuild(byte[] payload, List<Section> sections) throws ChunkFormatException {
        ByteSink out = new ByteSink(payload.length);
        out.writeUvarint(new ByteSource(payload, 0, payload.length, "test").readUvarint());
        for (Section s : sections) {
            out.writeUvarint(s.bytes().length);
            out.writeUvarint(s.raw());
            out.writeBytes(s.bytes(), 0, s.bytes().length);
        }
        return out.toByteArray();
    }

    /** The payload with its codes and numbers sections replaced by bytes that are no zstd frame. */
    private static byte[] withUnreadableCodes(byte[] payload) throws ChunkFormatException {
        List<Section> s = new ArrayList<>(sections(payload));
        byte[] garbage = {1, 2, 3, 4, 5, 6, 7, 8};
        s.set(1, new Section(garbage.length, 100, garbage));
        s.set(2, new Section(garbage.length, 100, garbage));
        return rebuild(payload, s);
    }

    private static boolean[] search(byte[] payload, int rows, String literal) throws ChunkFormatException {
        return new ColumnarLineTokenSections(payload, rows, true, "test")
                .rowsContaining(literal.getBytes(StandardCharsets.UTF_8), new ColumnarScanBuffers());
    }

    @Test
    void section_recordsLeastAndGreatestNumberPerPairOfRuns() throws ChunkFormatException {
        byte[] payload = ColumnarTestData.tokenizedPayload(
                List.of("status=200 bytes=17", "status=304 bytes=4", "12 x", "status=201"));
        List<Section> s = sections(payload);
        assertThat(s).hasSize(4);
        Section ranges = s.get(3);
        assertThat(ranges.raw()).isZero(); // small: stored plain
        // dictionary in first-seen order: status 0, = 1, ' ' 2, bytes 3, x 4; codes k + 2
        ColumnarNumberRanges.Table table = ColumnarNumberRanges.parse(ranges.bytes(), 0, ranges.bytes().length, 7, "t");
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < table.size(); i++) {
            pairs.add(table.before2()[i] + "," + table.before1()[i] + ":" + table.least()[i] + ".."
                    + table.greatest()[i]);
        }
        // (line start, line start) 12; (status, =) 200..304; (bytes, =) 4..17
        assertThat(pairs).containsExactly("1,1:12..12", "2,3:200..304", "5,3:4..17");
    }

    @Test
    void tooManyPairs_recordNothing_andSearchStillExact() throws ChunkFormatException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i <= ColumnarNumberRanges.MAX_PAIRS; i++) {
            // a key of its own per line, in letters only: i in base 26
            StringBuilder key = new StringBuilder("k");
            for (int v = i; v > 0; v /= 26) {
                key.append((char) ('a' + v % 26));
            }
            lines.add(key + "q=" + i);
        }
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        assertThat(sections(payload).get(3).bytes()).isEmpty();
        boolean[] got = search(payload, lines.size(), "=77");
        for (int i = 0; i < lines.size(); i++) {
            assertThat(got[i]).isEqualTo(lines.get(i).contains("=77"));
        }
    }

    @Test
    void numbersOutOfRange_ruleTheBlockOut_withoutReadingItsCodes() throws ChunkFormatException {
        List<String> info = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            info.add("level=info status=" + (i % 2 == 0 ? 200 : 304) + " bytes=" + (5000 + i) + " took 500ms");
        }
        byte[] unreadable = withUnreadableCodes(ColumnarTestData.tokenizedPayload(info));
        // only a number can stand for 500 after "status=", and those lie in 200..304: nothing is inflated
        for (String literal : List.of("status=500", "status=500 ", "\"status=5", "tatus=404 bytes", "status=2000")) {
            assertThat(search(unreadable, info.size(), literal)).as(literal).containsOnly(false);
        }
        // a literal the ranges cannot rule out reads the codes (and so fails on them)
        for (String literal : List.of("status=20", "bytes=500", "status=3", "=500", "took 500")) {
            assertThatThrownBy(() -> search(unreadable, info.size(), literal)).as(literal)
                    .isInstanceOf(ChunkFormatException.class).hasMessageContaining("invalid zstd data");
        }
    }

    @Test
    void keysEndingInTheLiteralsFirstRun_andDigitRunsBeforeTheNumber_areCandidates() throws ChunkFormatException {
        List<String> lines = List.of("httpstatus=500 a", "v1.500 b", "x=7");
        byte[] unreadable = withUnreadableCodes(ColumnarTestData.tokenizedPayload(lines));
        // "status" is a suffix of "httpstatus": the pair (httpstatus, =) holds 500, the block must be read
        assertThatThrownBy(() -> search(unreadable, 3, "status=500")).isInstanceOf(ChunkFormatException.class);
        // a digit run before the number: the pair (number, .) is a candidate whatever the number was
        assertThatThrownBy(() -> search(unreadable, 3, "2.500")).isInstanceOf(ChunkFormatException.class);
        assertThat(search(unreadable, 3, "v1.501")).containsOnly(false);
        assertThat(search(unreadable, 3, "x=8")).containsOnly(false);
    }

    @Test
    void randomKeyValueBlocks_sameRowsAsSubstringSearch_andTheProofFires() throws ChunkFormatException {
        Random r = new Random(41);
        String[] keys = {"status", "code", "bytes", "xstatus", "vv"};
        String[] separators = {"=", "\":", ": ", "=\"", "."};
        int ruledOut = 0;
        int found = 0;
        for (int set = 0; set < 300; set++) {
            // a block whose numbers after each key lie in a narrow band of its own, as a service's fields do
            long base = (long) Math.pow(10, r.nextInt(7)) * (1 + r.nextInt(9));
            List<String> lines = new ArrayList<>();
            int n = 1 + r.nextInt(30);
            for (int i = 0; i < n; i++) {
                StringBuilder line = new StringBuilder();
                for (int f = r.nextInt(4); f >= 0; f--) {
                    line.append(keys[r.nextInt(keys.length)]).append(separators[r.nextInt(separators.length)]);
                    line.append(r.nextInt(10) == 0 ? "0" + r.nextInt(100) : Long.toString(base + r.nextInt(20)));
                    line.append(r.nextBoolean() ? " " : "");
                }
                lines.add(line.toString());
            }
            byte[] payload = ColumnarTestData.tokenizedPayload(lines);
            byte[] unreadable = withUnreadableCodes(payload);
            for (int k = 0; k < 12; k++) {
                long value = r.nextBoolean() ? base + r.nextInt(25) - 2
                        : (long) Math.pow(10, r.nextInt(8)) * (1 + r.nextInt(9));
                String number = r.nextInt(8) == 0 ? "0" + value : Long.toString(value);
                if (r.nextBoolean()) {
                    number = number.substring(0, 1 + r.nextInt(number.length()));
                }
                String key = keys[r.nextInt(keys.length)];
                String literal = (r.nextBoolean() ? key : key.substring(2)) + separators[r.nextInt(separators.length)]
                        + number + (r.nextBoolean() ? " " : "");
                boolean[] got = search(payload, n, literal);
                for (int i = 0; i < n; i++) {
                    assertThat(got[i]).as("%s in %s", literal, lines.get(i)).isEqualTo(lines.get(i).contains(literal));
                    found += got[i] ? 1 : 0;
                }
                try {
                    assertThat(search(unreadable, n, literal)).as(literal).containsOnly(false);
                    ruledOut++;
                } catch (ChunkFormatException e) {
                    assertThat(e).hasMessageContaining("invalid zstd data");
                }
            }
        }
        assertThat(found).isGreaterThan(300);
        assertThat(ruledOut).isGreaterThan(300);
    }

    @Test
    void payloadWithoutRanges_readAsBefore() throws ChunkFormatException {
        List<String> lines = List.of("status=200 ok", "status=500 failed", "status=503");
        byte[] payload = ColumnarTestData.tokenizedPayload(lines);
        List<Section> s = sections(payload);
        byte[] old = rebuild(payload, s.subList(0, 3));
        ColumnarLineTokenSections sections = new ColumnarLineTokenSections(old, 3, false, "test");
        assertThat(sections.decode().line(1)).isEqualTo("status=500 failed");
        assertThat(sections.rowsContaining("status=50".getBytes(StandardCharsets.UTF_8), new ColumnarScanBuffers()))
                .containsExactly(false, true, true);
        // the same bytes read as a payload with ranges lack a section
        assertThatThrownBy(() -> new ColumnarLineTokenSections(old, 3, true, "test").decode())
                .isInstanceOf(ChunkFormatException.class);
        // and a payload with ranges read as one without has trailing bytes
        assertThatThrownBy(() -> new ColumnarLineTokenSections(payload, 3, false, "test").decode())
                .isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("trailing bytes after the numbers section");
    }

    @Test
    void corruptRanges_refusedWithAClearError() throws ChunkFormatException {
        byte[] payload = ColumnarTestData.tokenizedPayload(List.of("status=200", "status=204"));
        List<Section> s = new ArrayList<>(sections(payload));
        ByteSink bad = new ByteSink(16);
        bad.writeUvarint(1);
        bad.writeUvarint(2); // status
        bad.writeUvarint(99); // no such code
        bad.writeUvarint(200);
        bad.writeUvarint(4);
        s.set(3, new Section(0, 0, bad.toByteArray()));
        byte[] outside = rebuild(payload, s);
        assertThatThrownBy(() -> search(outside, 2, "status=500")).isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("ranges: code 99 outside the dictionary");
        s.set(3, new Section(0, 0, new byte[] {1, 2, 3}));
        byte[] truncated = rebuild(payload, s);
        assertThatThrownBy(() -> search(truncated, 2, "status=500")).isInstanceOf(ChunkFormatException.class);
        s.set(3, new Section(0, 0, new byte[] {0, 7}));
        byte[] trailing = rebuild(payload, s);
        assertThatThrownBy(() -> search(trailing, 2, "status=500")).isInstanceOf(ChunkFormatException.class)
                .hasMessageContaining("trailing bytes after 0 pairs");
    }
}
