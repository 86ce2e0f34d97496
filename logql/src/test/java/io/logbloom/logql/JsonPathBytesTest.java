package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The row-at-a-time {@code | json label="path"} stage read as Loki's scanner reads a line, and the path walk over bytes
 * against it, path by path.
 */
final class JsonPathBytesTest {
    private static final String[] KEYS = {"a", "b", "é", "a\\u0062", "c"};
    private static final String[] SCALARS = {"5", "-0", "1.5", "2e3", "\"x\"", "\"\"", "\"q\\\"\"", "null", "true",
        "[1,{\"a\":2}]", "[]", "-12", "123456789012345678901234"};
    private static final String[] PATHS = {"a", "b", "a.b", "a.a", "b.a.b", "é", "c", "a.é", "[\"a\"][\"b\"]", "ab"};

    private static String object(Random r, int depth) {
        StringBuilder sb = new StringBuilder("{");
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            // few keys: most objects repeat one, whose last member the tree keeps
            sb.append(i == 0 ? "" : ",").append('"').append(KEYS[r.nextInt(KEYS.length)]).append("\":");
            sb.append(depth < 3 && r.nextInt(3) == 0 ? object(r, depth + 1) : SCALARS[r.nextInt(SCALARS.length)]);
        }
        return sb.append('}').toString();
    }

    private static String line(Random r) {
        return switch (r.nextInt(10)) {
            case 0 -> "";
            case 1 -> " " + object(r, 0);
            case 2 -> "level=info a=1";
            case 3 -> object(r, 0).replaceFirst(",", ",,"); // malformed
            case 4 -> object(r, 0) + " tail";
            default -> object(r, 0);
        };
    }

    @Test
    void rowParser_readsAsLokisScanner_firstMemberAndTextAsWritten() {
        JsonPathExtractor x = new JsonPathExtractor(List.of("a", "n", "o", "o.x", "missing", "l[1]", "s"));
        assertThat(x.extract("{\"a\":1,\"a\":2,\"n\":1.50,\"o\": {\"x\": -0},\"l\":[1, \"q\"],\"s\":\"t\\\"u\"}"))
                .containsExactly("1", "1.50", "{\"x\": -0}", "-0", "", "q", "t\"u");
        assertThat(x.extract("{\"a\":{\"b\":1},\"a\":3, \"n\": 1e3} tail")).containsExactly("{\"b\":1}", "1e3", "", "", "", "",
                "");
        assertThat(x.extract("{\"a\":7,\"n\":nope}")).as("a fault keeps what was read").containsExactly("7", "", "", "", "",
                "", "");
        assertThat(x.extract("[{\"a\":1}]")).containsOnly("");
        assertThat(x.extract(" {\"a\":1}")).as("the first character decides").isNull();
    }

    /**
     * What a caller holding only a line's first byte concludes (the token column's rows) is what both walks answer on
     * the whole line: with parameters EMPTY or NOT_JSON unless that byte may open JSON; without, NOT_OBJECT.
     */
    @Test
    void firstByteAlone_agreesWithTheWalks() {
        JsonPathBytes paths = new JsonPathBytes(List.of(List.of("a")));
        JsonFlattenBytes flatten = new JsonFlattenBytes();
        Random r = new Random(11);
        String[] starts = {"", " ", "\t", "\n", "{", "[", "\"", "1", "a", "é", "}", "-", " {"};
        int decided = 0;
        for (int i = 0; i < 3000; i++) {
            String line = starts[r.nextInt(starts.length)] + (r.nextBoolean() ? line(r) : "");
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            int first = bytes.length == 0 ? -1 : bytes[0] & 0xFF;
            int byFirst = JsonPathBytes.byFirstByte(first);
            if (byFirst != JsonPathBytes.UNSURE) {
                assertThat(paths.walk(bytes, 0, bytes.length)).as(line).isEqualTo(byFirst);
                decided++;
            }
            if (JsonFlattenBytes.opensNoObject(first)) {
                assertThat(flatten.walk(bytes, 0, bytes.length, (k, n, l, from, to, kind) -> {}))
                        .as(line).isEqualTo(JsonFlattenBytes.NOT_OBJECT);
            } else {
                assertThat(first == '{' || StrictJsonBytes.isSpace(first)).as(line).isTrue();
            }
        }
        assertThat(decided).isGreaterThan(500);
        assertThat(JsonPathBytes.byFirstByte(-2)).isEqualTo(JsonPathBytes.UNSURE);
        assertThat(JsonFlattenBytes.opensNoObject(-2)).isFalse();
    }

    @Test
    void randomObjects_eachPathAsTheRowParserReadsIt() {
        Random r = new Random(17);
        List<Stage.LabelExtraction> params = new ArrayList<>();
        List<List<String>> paths = new ArrayList<>();
        for (int i = 0; i < PATHS.length; i++) {
            params.add(new Stage.LabelExtraction("l" + i, PATHS[i]));
            paths.add(JsonPath.parse(PATHS[i]).steps().stream().map(String.class::cast).toList());
        }
        Pipeline row = Pipeline.compile(List.of(new Stage.Json(params)));
        JsonPathBytes walk = new JsonPathBytes(paths);
        int exact = 0;
        for (int n = 0; n < 20_000; n++) {
            String text = line(r);
            row.process(0, text, Map.of(), Map.of());
            LineLabels labels = row.labels();
            byte[] bytes = ("##" + text).getBytes(StandardCharsets.UTF_8);
            int status = walk.walk(bytes, 2, bytes.length - 2);
            switch (status) {
                case JsonPathBytes.EMPTY -> assertThat(labels.all()).as(text).isEmpty();
                case JsonPathBytes.NOT_JSON -> {
                    assertThat(labels.hasError()).as(text).isTrue();
                    assertThat(labels.all().keySet()).as(text).containsExactly(LineLabels.ERROR);
                }
                case JsonPathBytes.UNSURE -> assertThat(text).as("declined only off strict objects")
                        .satisfiesAnyOf(t -> assertThat(t).doesNotStartWith("{"), t -> assertThat(t).contains(",,"));
                default -> {
                    for (int i = 0; i < PATHS.length; i++) {
                        String want = labels.get("l" + i);
                        int kind = walk.kind(i);
                        if (kind == JsonPathBytes.ESCAPED) {
                            continue; // the caller declines these
                        }
                        String got = kind == JsonPathBytes.MISSING || kind == JsonPathBytes.NULL ? ""
                                : new String(bytes, walk.valueStart(i), walk.valueEnd(i) - walk.valueStart(i),
                                        StandardCharsets.UTF_8);
                        assertThat(got).as("%s in %s", PATHS[i], text).isEqualTo(want);
                        exact++;
                    }
                }
            }
        }
        assertThat(exact).isGreaterThan(50_000);
    }
}
