package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.logql.BloomTest.And;
import io.logbloom.logql.BloomTest.LineContains;
import io.logbloom.logql.BloomTest.MetadataEquals;
import io.logbloom.logql.BloomTest.Or;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class BloomTestsTest {

    private static final BloomTest ALL = BloomTest.MATCH_ALL;

    private static LineContains line(String s) {
        return new LineContains(s);
    }

    private static MetadataEquals meta(String k, String v) {
        return new MetadataEquals(k, v);
    }

    static Stream<Arguments> extractions() {
        return Stream.of(
                Arguments.of("{a=\"b\"}", ALL),
                Arguments.of("{a=\"b\"} |= \"foo\"", line("foo")),
                Arguments.of("{a=\"b\"} |= \"foo\" |= \"bar\"", new And(List.of(line("foo"), line("bar")))),
                Arguments.of("{a=\"b\"} |= \"foo\" or \"bar\"", new Or(List.of(line("foo"), line("bar")))),
                Arguments.of("{a=\"b\"} |= \"\"", ALL),
                Arguments.of("{a=\"b\"} |= \"foo\" or \"\"", ALL),
                Arguments.of("{a=\"b\"} != \"foo\"", ALL),
                Arguments.of("{a=\"b\"} !~ \"foo\"", ALL),
                Arguments.of("{a=\"b\"} !> \"<_> foo\"", ALL),
                Arguments.of("{a=\"b\"} |= ip(\"10.0.0.1\")", ALL),
                Arguments.of("{a=\"b\"} |~ \"foo\"", line("foo")),
                Arguments.of("{a=\"b\"} |~ \"foo.*bar\"", new And(List.of(line("foo"), line("bar")))),
                Arguments.of("{a=\"b\"} |~ \"foo|bar\"", new Or(List.of(line("foo"), line("bar")))),
                Arguments.of("{a=\"b\"} |~ \"(?i)foo\"", ALL),
                Arguments.of("{a=\"b\"} |~ \"^(?i)error\"", ALL),
                Arguments.of("{a=\"b\"} |~ \"nomatch|(?i)error disk\"", new Or(List.of(line("nomatch"), line(" ")))),
                Arguments.of("{a=\"b\"} |~ \"abc😀*\"", line("abc")),
                Arguments.of("{a=\"b\"} |~ \"abc😀+d\"", new And(List.of(line("abc😀"), line("d")))),
                Arguments.of("{a=\"b\"} |~ \"x(?i:ab)y\"", new And(List.of(line("x"), line("y")))),
                Arguments.of("{a=\"b\"} |~ \"(?i)id=42\"", line("=42")),
                Arguments.of("{a=\"b\"} |~ \"a(?i)b\"", line("a")),
                Arguments.of("{a=\"b\"} |~ \"fo+x\"", new And(List.of(line("fo"), line("x")))),
                Arguments.of("{a=\"b\"} |~ \"ab?c\"", new Or(List.of(line("abc"), line("ac")))),
                Arguments.of("{a=\"b\"} |~ \"a(b|c)d\"", new Or(List.of(line("abd"), line("acd")))),
                Arguments.of("{a=\"b\"} |~ \"status=5\\\\d\\\\d\"", line("status=5")),
                Arguments.of("{a=\"b\"} |~ \"a\\\\.b\"", line("a.b")),
                Arguments.of("{a=\"b\"} |~ \"[abc]+\"", new Or(List.of(line("a"), line("b"), line("c")))),
                Arguments.of("{a=\"b\"} |~ \"[a-z]+\"", ALL),
                Arguments.of("{a=\"b\"} |~ \".*\"", ALL),
                Arguments.of("{a=\"b\"} |~ \"x{2,3}y\"", new And(List.of(line("xx"), line("y")))),
                Arguments.of("{a=\"b\"} |~ \"\\\\x41BC\"", line("ABC")),
                Arguments.of("{a=\"b\"} |~ \"\\\\x{41}BC\"", line("ABC")),
                Arguments.of("{a=\"b\"} |~ \"\\\\pLxy\"", line("xy")),
                Arguments.of("{a=\"b\"} |~ \"\\\\p{Greek}xy\"", line("xy")),
                Arguments.of("{a=\"b\"} |> \"<_> GET <_> 200\"", new And(List.of(line(" GET "), line(" 200")))),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\"", meta("trace_id", "abc")),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\" or trace_id=\"def\"", new Or(List.of(meta("trace_id", "abc"), meta("trace_id", "def")))),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\", user=\"u\"", new And(List.of(meta("trace_id", "abc"), meta("user", "u")))),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\" or latency > 5", ALL),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\" and latency > 5", meta("trace_id", "abc")),
                Arguments.of("{a=\"b\"} | trace_id=~\"abc|def\"", new Or(List.of(meta("trace_id", "abc"), meta("trace_id", "def")))),
                Arguments.of("{a=\"b\"} | trace_id=~\"abc.*\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id=~\"abc|\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id=\"\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id!=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id!~\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | __error__=\"x\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id_extracted=\"x\"", ALL),
                Arguments.of("{a=\"b\"} | json | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | logfmt | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | regexp \"(?P<x>.)\" | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | pattern \"<x>\" | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | label_format trace_id=user | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | unpack | trace_id=\"abc\"", ALL),
                Arguments.of("{a=\"b\"} | trace_id=\"abc\" | json | user=\"u\"", meta("trace_id", "abc")),
                Arguments.of("{a=\"b\"} | drop user | trace_id=\"abc\"", meta("trace_id", "abc")),
                Arguments.of("{a=\"b\"} | json |= \"foo\"", line("foo")),
                Arguments.of("{a=\"b\"} | line_format \"{{.x}}\" |= \"foo\"", ALL),
                Arguments.of("{a=\"b\"} | decolorize |= \"foo\"", ALL),
                Arguments.of("{a=\"b\"} | unpack |= \"foo\"", ALL),
                Arguments.of("{a=\"b\"} |= \"foo\" | line_format \"{{.x}}\" |= \"bar\"", line("foo")),
                Arguments.of("{a=\"b\"} | line_format \"{{.x}}\" | trace_id=\"abc\"", meta("trace_id", "abc")),
                Arguments.of("{a=\"b\"} | status > 500", ALL),
                Arguments.of("{a=\"b\"} | d > 5s", ALL),
                Arguments.of("{a=\"b\"} | addr = ip(\"1.1.1.1\")", ALL),
                Arguments.of("{a=\"b\"} |= \"x\" | trace_id=\"t\" or user=\"u\"",
                        new And(List.of(line("x"), new Or(List.of(meta("trace_id", "t"), meta("user", "u")))))));
    }

    @ParameterizedTest
    @MethodSource("extractions")
    void extract_table(String query, BloomTest expected) {
        assertThat(BloomTests.extract((LogExpr) LogQL.parse(query))).isEqualTo(expected);
    }

    @Test
    void extractAll_coversEveryLogExprOfAMetricQuery() {
        Expr e = LogQL.parse("sum(count_over_time({a=\"b\"} | trace_id=\"t\" [1m])) / sum(count_over_time({a=\"c\"}[1m]))");
        assertThat(BloomTests.extractAll(e)).containsExactly(meta("trace_id", "t"), ALL);
    }

    @Test
    void withoutHelpers_dropUnusableParts() {
        BloomTest t = new And(List.of(line("x"), new Or(List.of(meta("trace_id", "t"), meta("pod", "p")))));
        assertThat(BloomTests.withoutLineContains(t)).isEqualTo(new Or(List.of(meta("trace_id", "t"), meta("pod", "p"))));
        assertThat(BloomTests.withoutMetadata(t, Set.of("pod"))).isEqualTo(line("x"));
        assertThat(BloomTests.withoutMetadata(meta("pod", "p"), Set.of("pod"))).isEqualTo(ALL);
    }

    // ---------------------------------------------------------------- soundness property

    private static final String[] WORDS = {"foo", "bar", "baz", "GET", "POST", "err", "ok", "a.b", "x=1", "id"};
    private static final String[] KEYS = {"trace_id", "user"};
    private static final String[] VALUES = {"t1", "t2", "u1"};

    private static String randomStage(Random r) {
        String w = WORDS[r.nextInt(WORDS.length)];
        String w2 = WORDS[r.nextInt(WORDS.length)];
        String k = KEYS[r.nextInt(KEYS.length)];
        String v = VALUES[r.nextInt(VALUES.length)];
        return switch (r.nextInt(16)) {
            case 0 -> "|= \"" + w + "\"";
            case 1 -> "|= \"" + w + "\" or \"" + w2 + "\"";
            case 2 -> "!= \"" + w + "\"";
            case 3 -> "|~ \"" + w.replace(".", "\\\\.") + ".*" + w2.replace(".", "\\\\.") + "\"";
            case 4 -> "|~ \"" + w + "|" + w2 + "\"";
            case 5 -> "| " + k + "=\"" + v + "\"";
            case 6 -> "| " + k + "=\"" + v + "\" or " + k + "=\"" + VALUES[r.nextInt(VALUES.length)] + "\"";
            case 7 -> "| " + k + "=~\"" + v + "|" + VALUES[r.nextInt(VALUES.length)] + "\"";
            case 8 -> "| logfmt";
            case 9 -> "| line_format \"{{.user}} " + w + "\"";
            case 10 -> "| label_format trace_id=user";
            case 11 -> "| json";
            case 12 -> "|> \"<_>" + w + "<_>\"";
            case 13 -> "| " + k + "!=\"" + v + "\"";
            case 14 -> "| decolorize";
            default -> "| drop " + k;
        };
    }

    private static List<StreamEntry> randomChunk(Random r, long base) {
        List<StreamEntry> out = new ArrayList<>();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            StringBuilder line = new StringBuilder();
            int words = 1 + r.nextInt(4);
            for (int j = 0; j < words; j++) {
                line.append(j > 0 ? " " : "").append(WORDS[r.nextInt(WORDS.length)]);
            }
            if (r.nextBoolean()) {
                line.append(" trace_id=").append(VALUES[r.nextInt(VALUES.length)]);
            }
            Map<String, String> md = new java.util.HashMap<>();
            if (r.nextInt(3) > 0) {
                md.put(KEYS[r.nextInt(KEYS.length)], VALUES[r.nextInt(VALUES.length)]);
            }
            out.add(new StreamEntry(base + i, line.toString(), md));
        }
        return out;
    }

    @Test
    void extraction_isSound_randomQueriesTimesRandomChunks() throws IOException {
        Random r = new Random(42);
        Engine engine = new Engine();
        int skipped = 0;
        int checked = 0;
        for (int q = 0; q < 400; q++) {
            StringBuilder query = new StringBuilder("{app=\"a\"}");
            int stages = 1 + r.nextInt(4);
            for (int s = 0; s < stages; s++) {
                query.append(' ').append(randomStage(r));
            }
            LogExpr expr = (LogExpr) LogQL.parse(query.toString());
            BloomTest test = BloomTests.extract(expr);
            for (int c = 0; c < 8; c++) {
                List<StreamEntry> chunk = randomChunk(r, 1_000);
                BloomTests.Probe exact = new BloomTests.Probe() {
                    @Override
                    public boolean mayContainMetadata(String key, String value) {
                        return chunk.stream().anyMatch(e -> value.equals(e.structuredMetadata().get(key)));
                    }

                    @Override
                    public boolean mayContainLine(String literal) {
                        return chunk.stream().anyMatch(e -> e.line().contains(literal));
                    }
                };
                checked++;
                if (BloomTests.mayMatch(test, exact)) {
                    continue;
                }
                skipped++;
                MemorySource src = new MemorySource().add(Map.of("app", "a"), chunk.toArray(StreamEntry[]::new));
                LogQueryResult res = engine.evalLogs(expr, src, 0, 10_000, 100, Direction.FORWARD);
                assertThat(res.entryCount()).as("chunk %s skipped for %s (test %s)", chunk, query, test).isZero();
            }
        }
        // the property must actually exercise skipping
        assertThat(skipped).isGreaterThan(checked / 10);
    }

    @Test
    void metricQueries_sameResultWithSkippedChunks() throws IOException {
        // DESIGN invariant: a query returns exactly the same result with blooms on and off
        Random r = new Random(99);
        Engine engine = new Engine();
        int skippedChunks = 0;
        for (int q = 0; q < 150; q++) {
            StringBuilder pipeline = new StringBuilder();
            int stages = 1 + r.nextInt(3);
            for (int s = 0; s < stages; s++) {
                pipeline.append(' ').append(randomStage(r));
            }
            String query = "sum by (app) (count_over_time({app=\"a\"}" + pipeline + " | drop __error__, __error_details__ [1h]))";
            SampleExpr expr = (SampleExpr) LogQL.parse(query);
            BloomTest test = BloomTests.extractAll(expr).get(0);
            MemorySource all = new MemorySource();
            MemorySource kept = new MemorySource();
            for (int c = 0; c < 6; c++) {
                List<StreamEntry> chunk = randomChunk(r, 1_000 + c * 10);
                all.add(Map.of("app", "a"), chunk.toArray(StreamEntry[]::new));
                boolean may = BloomTests.mayMatch(test, new BloomTests.Probe() {
                    @Override
                    public boolean mayContainMetadata(String key, String value) {
                        return chunk.stream().anyMatch(e -> value.equals(e.structuredMetadata().get(key)));
                    }

                    @Override
                    public boolean mayContainLine(String literal) {
                        return chunk.stream().anyMatch(e -> e.line().contains(literal));
                    }
                });
                if (may) {
                    kept.add(Map.of("app", "a"), chunk.toArray(StreamEntry[]::new));
                } else {
                    skippedChunks++;
                }
            }
            assertThat(engine.evalInstant(expr, kept, 5_000)).as(query).isEqualTo(engine.evalInstant(expr, all, 5_000));
        }
        assertThat(skippedChunks).isGreaterThan(50);
    }
}
