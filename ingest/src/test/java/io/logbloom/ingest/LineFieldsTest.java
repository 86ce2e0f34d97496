package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LineFieldsTest {
    @Test
    void json_flattenedWithPaths_arraysSkipped_namesSanitized() {
        Map<String, LineFields.Field> f = LineFields.json(
                "{\"level\":\"info\",\"user\":{\"id\":\"u1\",\"geo\":{\"cc\":\"DE\"}},\"tags\":[1,2],\"http.status\":200,\"n\":null}");
        assertThat(f.keySet()).containsExactly("level", "user_id", "user_geo_cc", "http_status", "n");
        assertThat(f.get("user_geo_cc").jsonPath()).containsExactly("user", "geo", "cc");
        assertThat(f.get("http_status").value()).isEqualTo("200");
        assertThat(f.get("n").value()).isEmpty();
        assertThat(LineFields.json("{\"broken\":")).isEmpty();
    }

    @Test
    void firstLogfmtValue_isTheFirstWantedNamesValueInTheParsedPairs_forRandomLines() {
        // lines of keys, '=', quotes, escapes and spaces in random order: the early-stopping scan must read them as logfmt()
        java.util.Random random = new java.util.Random(11);
        String[] pieces = {"level", "lvl", "a", "l.evel", "=", "=", "\"", "\\", " ", " ", "info", "x y", "é"};
        java.util.Set<String> wanted = java.util.Set.of("level", "lvl", "l_evel");
        for (int n = 0; n < 20_000; n++) {
            StringBuilder line = new StringBuilder();
            for (int p = random.nextInt(12); p > 0; p--) {
                line.append(pieces[random.nextInt(pieces.length)]);
            }
            String text = line.toString();
            Map<String, String> reference = referenceLogfmt(text);
            String expected = reference.entrySet().stream().filter(e -> wanted.contains(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            assertThat(LineFields.firstLogfmtValue(utf8(text), wanted::contains)).as("line [%s]", text).isEqualTo(expected);
        }
        assertThat(LineFields.firstLogfmtValue(utf8("ts=1 msg=\"level=warn\" level=\"er\\\"r\" level=info"), wanted::contains))
                .isEqualTo("er\"r");
    }

    @Test
    void firstTopLevelJsonValue_isWhatTheFlattenedFieldsGive_forRandomObjectsWholeAndCut() {
        java.util.Random random = new java.util.Random(5);
        java.util.Set<String> wanted = java.util.Set.of("level", "lvl", "Level");
        for (int n = 0; n < 5_000; n++) {
            String line = randomObject(random, 0);
            if (random.nextInt(4) == 0) {
                line = line.substring(0, random.nextInt(line.length())) + "}"; // mostly malformed
            }
            String expected = LineFields.json(line).values().stream()
                    .filter(f -> wanted.contains(f.name()) && f.jsonPath().size() <= 1)
                    .map(LineFields.Field::value).findFirst().orElse(null);
            assertThat(LineFields.firstTopLevelJsonValue(utf8(line), wanted::contains)).as("line %s", line).isEqualTo(expected);
        }
        assertThat(LineFields.firstTopLevelJsonValue(utf8("{\"lvl\":[\"x\"],\"a\":{\"level\":\"n\"},\"lvl\":null,\"level\":3}"),
                wanted::contains)).isEmpty();
    }

    private static String randomObject(java.util.Random random, int depth) {
        String[] keys = {"level", "lvl", "Level", "le.vel", "msg", "a"};
        StringBuilder sb = new StringBuilder("{");
        for (int f = random.nextInt(5); f > 0; f--) {
            sb.append('"').append(keys[random.nextInt(keys.length)]).append("\":");
            switch (random.nextInt(depth < 2 ? 6 : 4)) {
                case 0 -> sb.append("\"v").append(random.nextInt(3)).append('"');
                case 1 -> sb.append(random.nextInt(100));
                case 2 -> sb.append(random.nextBoolean() ? "null" : "true");
                case 3 -> sb.append("[1,{\"level\":\"in\"}]");
                default -> sb.append(randomObject(random, depth + 1));
            }
            sb.append(f > 1 ? "," : "");
        }
        return sb.append('}').toString();
    }

    /** Logfmt as a plain reading of the rules: every pair's value built, the first value of a name kept. */
    private static Map<String, String> referenceLogfmt(String line) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) != '=' && line.charAt(i) != ' ') {
                i++;
            }
            String key = line.substring(keyStart, i);
            StringBuilder value = new StringBuilder();
            if (i < n && line.charAt(i) == '=') {
                i++;
                boolean quoted = i < n && line.charAt(i) == '"';
                if (quoted) {
                    i++;
                }
                while (i < n && line.charAt(i) != (quoted ? '"' : ' ')) {
                    if (quoted && line.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    value.append(line.charAt(i++));
                }
                if (quoted) {
                    i++;
                }
            }
            if (!key.isEmpty()) {
                out.putIfAbsent(LineFields.sanitize(key), value.toString());
            }
        }
        return out;
    }

    @Test
    void isJson_lokiBraceTest() {
        assertThat(LineFields.isJson("  {\"a\":1}  ")).isTrue();
        assertThat(LineFields.isJson("{")).isFalse();
        assertThat(LineFields.isJson("a={}")).isFalse();
        // read from UTF-8: spaces are Character.isWhitespace's, the Unicode ones too, at either end
        assertThat(LineFields.isJson("\u3000\t{\"a\":1}\u2003\n")).isTrue();
        assertThat(LineFields.isJson("\u00a0{\"a\":1}")).isFalse(); // no-break space is not whitespace to Java
        assertThat(LineFields.isJson("{\"a\":\"é\"}é")).isFalse();
        assertThat(LineFields.isJson("{}")).isTrue(); // braces at two different places; "{" alone is none
        assertThat(LineFields.isJson("{ }")).isTrue();
    }

    @Test
    void isJson_fromUtf8_equalsTheTestOnCharacters_forRandomPaddedLines() {
        java.util.Random random = new java.util.Random(3);
        String[] pieces = {" ", "\t", "\u3000", "\u2003", "\u00a0", "\u1680", "\ud83d\ude00", "é", "{", "}", "a", "\u0085", "\u001c"};
        for (int n = 0; n < 20_000; n++) {
            StringBuilder line = new StringBuilder();
            for (int p = random.nextInt(8); p > 0; p--) {
                line.append(pieces[random.nextInt(pieces.length)]);
            }
            String text = line.toString();
            int first = 0;
            while (first < text.length() && Character.isWhitespace(text.charAt(first))) {
                first++;
            }
            int last = text.length() - 1;
            while (last >= first && Character.isWhitespace(text.charAt(last))) {
                last--;
            }
            boolean expected = last > first && text.charAt(first) == '{' && text.charAt(last) == '}';
            assertThat(LineFields.isJson(utf8(text))).as("line [%s]", text).isEqualTo(expected);
        }
    }

    @Test
    void firstTopLevelJsonValue_nulNextToTheBrace_isNoJson() {
        assertThat(LineFields.firstTopLevelJsonValue(utf8("{\u0000\"level\":\"warn\"}"), "level"::equals)).isNull();
        assertThat(LineFields.firstTopLevelJsonValue(utf8("{\"level\":\"w\u0000\"}"), "level"::equals)).isNull();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
