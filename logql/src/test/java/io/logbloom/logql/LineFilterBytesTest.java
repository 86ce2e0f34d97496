package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Line filters on UTF-8 bytes against the row-at-a-time pipeline's filters on strings. */
final class LineFilterBytesTest {
    private static final String[] PIECES = {"status=500", "status=5", "retry", "retrying", "zoë", "😀", "ok", " ",
        "level=error", "GET", "get", "10.0.0.1", "ts=11 ", "ts=110", "\n", "=", "é", "日本"};

    private static List<Stage> stages(String filters) {
        return ((LogExpr) LogQL.parse("{a=\"b\"} " + filters)).stages();
    }

    private static String randomLine(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(8);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "|= \"status=500\"", "!= \"retry\"", "|= \"\"", "|= \"zoë\" |= \"😀\"", "|= \"retry\" or \"GET\"",
        "!= \"ok\" or \"get\"", "|~ \"status=5[0-9]+\"", "|~ \"(?i)get\"", "!~ \"ts=1+ \"", "|~ \"retry|zoë\"",
        "|~ \"^level\"", "|~ \".*\"", "|~ \"日本|é\" != \"=\"", "|> \"<_>=<_>\"", "!> \"ts=<_> <_>\"",
        "|= ip(\"10.0.0.0/8\")", "|~ \"st(a|u)tus=50{2}\"", "|= \"ts=11 \" or \"ts=110\" != \"\\n\""})
    void randomLines_sameAnswerAsPipeline(String filters) {
        List<Stage> stages = stages(filters);
        LineFilterBytes bytes = LineFilterBytes.compile(stages);
        assertThat(bytes).isNotNull();
        Pipeline pipeline = Pipeline.compile(stages);
        Random r = new Random(filters.hashCode());
        int passed = 0;
        for (int i = 0; i < 3000; i++) {
            String line = randomLine(r);
            boolean expected = pipeline.process(1, line, Map.of(), Map.of()) != null;
            byte[] padded = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
            int length = line.getBytes(StandardCharsets.UTF_8).length;
            assertThat(bytes.test(padded, 2, length)).as("%s on %s", filters, line).isEqualTo(expected);
            assertThat(bytes.test(line)).isEqualTo(expected);
            if (bytes.literals() != null) {
                List<byte[]> literals = bytes.literals();
                assertThat(bytes.test(k -> line.contains(new String(literals.get(k), StandardCharsets.UTF_8))))
                        .as("%s on literal hits of %s", filters, line).isEqualTo(expected);
            }
            passed += expected ? 1 : 0;
        }
        assertThat(passed).as("the filter must pass some lines").isPositive();
    }

    @Test
    void compile_parsersOrLabelFilters_null() {
        assertThat(LineFilterBytes.compile(stages("|= \"a\" | logfmt"))).isNull();
        assertThat(LineFilterBytes.compile(stages("| level=\"x\""))).isNull();
        assertThat(LineFilterBytes.compile(stages("| line_format \"{{.a}}\""))).isNull();
        assertThat(LineFilterBytes.compile(List.of()).acceptsAll()).isTrue();
        assertThat(LineFilterBytes.compile(stages("|= \"a\"")).acceptsAll()).isFalse();
        assertThat(LineFilterBytes.compile(stages("|= \"a\" or \"b\" != \"a\"")).literals()).hasSize(2);
        assertThat(LineFilterBytes.compile(stages("|= \"a\" |~ \"b\"")).literals()).isNull();
        assertThat(LineFilterBytes.compile(stages("|= ip(\"10.0.0.1\")")).literals()).isNull();
    }

    @Test
    void literal_doesNotMatchAcrossTheLineEnd() {
        LineFilterBytes f = LineFilterBytes.compile(stages("|= \"abc\""));
        byte[] bytes = "xxabcyy".getBytes(StandardCharsets.UTF_8);
        assertThat(f.test(bytes, 0, 4)).isFalse(); // "xxab"
        assertThat(f.test(bytes, 2, 3)).isTrue();
        assertThat(f.test(bytes, 3, 4)).isFalse(); // "bcyy"
    }
}
