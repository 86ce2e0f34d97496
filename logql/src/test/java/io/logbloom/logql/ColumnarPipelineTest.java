package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.logql.SampleExpr.RangeAggregation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Parsers, label filters and unwrap on line bytes against the row-at-a-time sampler, line by line. */
final class ColumnarPipelineTest {
    private static final String[] PIECES = {"a", "b", "=", "\"", "\\", " ", "\t", "é", "😀", "1", "_", "-", "bytes",
        "level", "=5", "=x", "\\\"", "app", "__error__", "_extracted", "ключ", "9", ".", "e3", "KB", "ms", "-0"};
    private static final Map<String, String> PLAIN = Map.of("app", "api");
    private static final Map<String, String> SHADOWING = Map.of("app", "api", "level", "stream", "bytes", "8");

    private static String randomText(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(14);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    private static String randomLine(Random r) {
        if (r.nextInt(3) > 0) {
            return randomText(r);
        }
        String[] keys = {"bytes", "level", "app", "lat", "size", "dur", "bytes_extracted", "by-tes", "1x", "é"};
        String[] values = {"5", "1200", "-0", "1.5", "abc", "", "\"q \\\" d\"", "\"12\"", "2KB", "1m30s", "error",
            "\"\"", "0x10", "1e3", "007", "-42"};
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(5);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : r.nextInt(5) == 0 ? "\t" : " ").append(keys[r.nextInt(keys.length)]);
            if (r.nextInt(8) > 0) {
                sb.append('=').append(values[r.nextInt(values.length)]);
            }
        }
        return sb.toString();
    }

    private static final String[] JSON_PIECES = {"{", "}", "[", "]", ",", ":", "\"bytes\"", "\"level\"", "\"app\"",
        "\"a\"", "\"b-c\"", "\"1x\"", "\"é\"", "\"__error__\"", "\"__error\"", "\"_\"", "5", "-0", "1.5e3", "01",
        "true", "false", "null", "nul", "\"x\\\"y\"", "\"\\u00e9\"", "\"\\q\"", "\"error\"", " ", "\t", "\"\"",
        "\"bytes_extracted\"", "1x", "\"ünï\"", "\n", "\"ok", "/*c*/"};

    private static String randomJson(Random r) {
        if (r.nextInt(3) == 0) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(16);
            for (int i = 0; i < n; i++) {
                sb.append(JSON_PIECES[r.nextInt(JSON_PIECES.length)]);
            }
            return sb.toString();
        }
        return "{" + members(r, 0) + "}" + (r.nextInt(8) == 0 ? " trailing" : "");
    }

    private static String members(Random r, int depth) {
        String[] keys = {"bytes", "level", "app", "a", "b-c", "1x", "é", "__error__", "bytes_extracted", "lat", "_"};
        String[] scalars = {"5", "1200", "-0", "1.5", "1.0E+3", "\"abc\"", "\"\"", "null", "true", "false",
            "\"q\\\"d\"", "\"1200\"", "\"é😀\"", "[1,{\"a\":2}]", "[]", "{}", "-42", "0.5"};
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : r.nextBoolean() ? "," : ", ").append('"').append(keys[r.nextInt(keys.length)])
                    .append("\":");
            if (depth < 2 && r.nextInt(5) == 0) {
                sb.append('{').append(members(r, depth + 1)).append('}');
            } else {
                sb.append(scalars[r.nextInt(scalars.length)]);
            }
        }
        return sb.toString();
    }

    private record Pair(String key, String value, boolean standalone) {}

    @Test
    void logfmtWalk_randomText_samePairsAsStringDecoder() {
        Random r = new Random(7);
        for (int i = 0; i < 50_000; i++) {
            String line = r.nextBoolean() ? randomText(r) : randomLine(r);
            for (boolean strict : new boolean[] {false, true}) {
                List<Pair> expected = new ArrayList<>();
                boolean failed = false;
                try {
                    Logfmt.decode(line, strict, (k, v, s) -> expected.add(new Pair(k, v, s)));
                } catch (IllegalArgumentException e) {
                    failed = true;
                }
                byte[] bytes = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
                int length = line.getBytes(StandardCharsets.UTF_8).length;
                List<Pair> got = new ArrayList<>();
                int status = LogfmtBytes.walk(bytes, 2, length, strict, (b, ks, ke, vs, ve, esc, standalone) -> {
                    String v = esc ? LogfmtBytes.unescape(b, vs, ve) : new String(b, vs, ve - vs, StandardCharsets.UTF_8);
                    got.add(new Pair(new String(b, ks, ke - ks, StandardCharsets.UTF_8), v, standalone));
                    return true;
                });
                assertThat(got).as("%s strict=%s", line, strict).isEqualTo(expected);
                assertThat(status == LogfmtBytes.MALFORMED).as("%s strict=%s", line, strict).isEqualTo(failed);
            }
        }
    }

    @Test
    void sanitizedEquals_sameAsSanitize() {
        Random r = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            String key = randomText(r).replace(" ", "").replace("=", "");
            String other = r.nextBoolean() ? Pipeline.sanitize(key) : Pipeline.sanitize(randomText(r));
            byte[] b = key.getBytes(StandardCharsets.UTF_8);
            assertThat(LabelBytes.sanitizedEquals(b, 0, b.length, other.getBytes(StandardCharsets.UTF_8)))
                    .as("%s vs %s", key, other).isEqualTo(Pipeline.sanitize(key).equals(other));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "count_over_time({app=\"api\"} | logfmt | bytes > 100 [1m])",
        "count_over_time({app=\"api\"} | logfmt | level=\"error\" or bytes <= 5 [1m])",
        "rate({app=\"api\"} | logfmt --strict | bytes >= 0 [1m])",
        "bytes_over_time({app=\"api\"} | logfmt --keep-empty | level=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | bytes_extracted > 1 [1m])",
        "count_over_time({app=\"api\"} | logfmt | by_tes > 1, _1x=\"5\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | app_extracted=~\"a.*\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | __error__=\"\" | size > 1KB [1m])",
        "count_over_time({app=\"api\"} | logfmt | dur > 1m or __error__!=\"\" [1m])",
        "count_over_time({app=\"api\"} | level=\"stream\" | logfmt |= \"5\" | lat < 2 [1m])",
        "count_over_time({app=\"api\"} | logfmt b=\"bytes\", level | b > 10 | level!=\"error\" [1m])",
        "count_over_time({app=\"api\"} | logfmt bytes, app | app_extracted=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | _=\"5\" or _1x=\"\" [1m])",
        "count_over_time({app=\"api\"} | bytes > 3 [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes [1m])",
        "max_over_time({app=\"api\"} | logfmt | unwrap lat | __error__=\"\" [1m])",
        "avg_over_time({app=\"api\"} | logfmt --strict | unwrap duration(dur) [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes(size) | bytes > 2 [1m])",
        "min_over_time({app=\"api\"} | logfmt b=\"bytes\" | unwrap b [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes_extracted [1m])",
        "count_over_time({app=\"api\"} | json | bytes > 100 [1m])",
        "count_over_time({app=\"api\"} | json | a_a=\"abc\" or b_c >= 5 or _1x!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json | level=\"stream\" | app_extracted=\"\" [1m])",
        "bytes_rate({app=\"api\"} | json | __error__=\"\" | _ != \"\" [1m])",
        "count_over_time({app=\"api\"} | json | a_bytes_extracted > 0 or bytes_extracted > 0 [1m])",
        "sum_over_time({app=\"api\"} | json | unwrap bytes [1m])",
        "max_over_time({app=\"api\"} | json | unwrap lat | __error__=\"\" [1m])",
        "sum_over_time({app=\"api\"} | json | unwrap a_lat [1m])",
        "count_over_time({app=\"api\"} | regexp \"bytes=(?P<bytes>\\\\S+)\" | bytes > 10 [1m])",
        "count_over_time({app=\"api\"} | regexp \"(?P<app>\\\\w+)=(?P<v>\\\\d*)\" | app_extracted=\"level\" or v=\"\" [1m])",
        "sum_over_time({app=\"api\"} | regexp \"lat=(?P<lat>[^ ]*)\" | unwrap lat | __error__=\"\" [1m])",
        "count_over_time({app=\"api\"} | pattern \"<k>=<v> <_>\" | k=\"bytes\" | v > 3 [1m])",
        "count_over_time({app=\"api\"} | pattern \"<level> <_>\" | level_extracted!=\"\" [1m])",
        "sum_over_time({app=\"api\"} | pattern \"<_>bytes=<b> <_>\" | unwrap b [1m])"})
    void randomLines_sameSamplesAsRowSampler(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        Set<String> grouped = Set.of("app");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), grouped, 0);
        assertThat(pipeline).isNotNull();
        Random r = new Random(query.hashCode());
        int passed = 0;
        for (Map<String, String> stream : List.of(PLAIN, SHADOWING)) {
            assertThat(pipeline.groupsSafely(stream)).isTrue();
            ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
            RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
            for (int i = 0; i < 5000; i++) {
                String line = query.contains("json") ? randomJson(r) : randomLine(r);
                byte[] bytes = ("#" + line).getBytes(StandardCharsets.UTF_8);
                int verdict = evaluator.evaluate(i, bytes, 1, bytes.length - 1);
                if (ReferenceAgreement.agrees(verdict, evaluator, sampler, i, line, stream)) {
                    passed++;
                }
            }
            assertThat(evaluator.bytesRows()).as("rows answered on bytes").isGreaterThan(evaluator.decodedRows());
        }
        assertThat(passed).isPositive();
    }

    /** The {@code by} names a parser sets for {@code stream}: not its labels, not the unwrapped one. */
    private static Set<String> parsedGroups(Set<String> grouped, Map<String, String> stream, RangeAggregation agg) {
        Set<String> out = new java.util.HashSet<>(grouped);
        out.removeAll(stream.keySet());
        if (agg.range().unwrap() != null) {
            out.remove(agg.range().unwrap().label());
        }
        return out;
    }

    /** A line of a stream mixing JSON and logfmt records (and text that is neither), as Logs Drilldown's parsers expect. */
    private static String randomMixedLine(Random r) {
        return r.nextBoolean() ? randomJson(r) : randomLine(r);
    }

    /**
     * Two parsers and a drop of the error labels, as Logs Drilldown's field queries send them ({@code | json | logfmt |
     * drop __error__, __error_details__ | field!=""}), over lines of both formats: a row's labels, series and sample
     * equal the row-at-a-time sampler's, and lines that are not JSON objects are answered on their bytes.
     */
    /** Logs Drilldown's field queries and their neighbours: two parsers, error drops, parameters, unwraps. */
    static List<String> mixedQueries() {
        return List.of(
        "count_over_time({app=\"api\"} | json | logfmt | drop __error__, __error_details__ | level!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json | logfmt | drop __error__, __error_details__ [1m])",
        "count_over_time({app=\"api\"} | logfmt | json | drop __error_details__, __error__ | bytes > 5 [1m])",
        "count_over_time({app=\"api\"} | json | drop __error__, __error_details__ | bytes!=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | drop __error__, __error_details__ | level=\"error\" [1m])",
        "bytes_over_time({app=\"api\"} | json | logfmt | drop __error__ | lat=~\"1.*\" or level!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json | level=\"abc\" | drop __error__, __error_details__ [1m])",
        "count_over_time({app=\"api\"} | json | bytes > 100 [1m])",
        "count_over_time({app=\"api\"} | json | logfmt | bytes >= 5 [1m])",
        "count_over_time({app=\"api\"} | json | __error__!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json | logfmt | __error__=\"\" | level!=\"info\" [1m])",
        "count_over_time({app=\"api\"} | json | drop __error__ | __error_details__=\"\" [1m])",
        "count_over_time({app=\"api\"} | json | drop __error__, __error_details__ | __error__=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt --strict | json | drop __error__, __error_details__ [1m])",
        "count_over_time({app=\"api\"} | drop __error__ | json | logfmt | app_extracted!=\"\" [1m])",
        "sum_over_time({app=\"api\"} | json | logfmt | drop __error__, __error_details__ | unwrap bytes [1m])",
        "max_over_time({app=\"api\"} | logfmt | json | drop __error__ | unwrap size | __error__=\"\" [1m])",
        "count_over_time({app=\"api\"} | json level=\"level\", b=\"bytes\" | b!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json level=\"[\\\"level\\\"]\" | logfmt | drop __error__, __error_details__"
                + " | level!=\"\" [1m])",
        "count_over_time({app=\"api\"} | json lat=\"a.bytes\", app=\"app\", level=\"a.level\" | drop __error__"
                + " | app_extracted!=\"\" or lat > 2 [1m])",
        "count_over_time({app=\"api\"} | json level=\"level\", level=\"app\", x=\"b-c\" | level=\"abc\" or x=\"\" [1m])",
        "count_over_time({app=\"api\"} | json lat=\"bytes\" | drop __error__, __error_details__ | lat >= 5 [1m])",
        "sum_over_time({app=\"api\"} | json b=\"bytes\", level=\"level\" | logfmt | drop __error__ | unwrap b [1m])");
    }

    @ParameterizedTest
    @MethodSource("mixedQueries")
    void mixedLines_twoParsersAndErrorDrops_sameSamplesAndGroupsAsRowSampler(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        Set<String> grouped = Set.of("app", "level", "lat");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), grouped, 0);
        assertThat(pipeline).isNotNull();
        Random r = new Random(query.hashCode());
        int passed = 0;
        for (Map<String, String> stream : List.of(PLAIN, SHADOWING)) {
            assertThat(pipeline.groupsSafely(stream)).isTrue();
            Set<String> parsedGroups = parsedGroups(grouped, stream, agg);
            ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
            RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
            long notJson = 0;
            for (int i = 0; i < 6000; i++) {
                String line = randomMixedLine(r);
                notJson += JsonObjectScan.opensObject(line) ? 0 : 1;
                byte[] bytes = ("#" + line).getBytes(StandardCharsets.UTF_8);
                int verdict = evaluator.evaluate(i, bytes, 1, bytes.length - 1);
                if (ReferenceAgreement.agrees(verdict, evaluator, sampler, i, line, stream, parsedGroups)) {
                    passed++;
                }
            }
            if (query.contains("drop") && !query.contains("| __error")) {
                // rows that are not JSON objects, their error dropped and read by no label filter, stay on their bytes
                assertThat(evaluator.bytesRows()).as("rows answered on bytes").isGreaterThan(notJson / 2);
            }
        }
        assertThat(passed).isPositive();
    }

    /**
     * The same pipelines on a tokenized line column: a row whose first byte opens no JSON runs on its tokens (json sets
     * its error and no label), any other is rebuilt and run on its bytes; each row's sample and group equal the
     * row-at-a-time sampler's either way, and both kinds of row occur.
     */
    @ParameterizedTest
    @MethodSource("mixedQueries")
    void mixedLines_onTokens_sameSamplesAndGroupsAsRowSampler(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        Set<String> grouped = Set.of("app", "level", "lat");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), grouped, 0);
        assertThat(pipeline.onTokens()).isTrue();
        Random r = new Random(query.hashCode() + 1);
        int passed = 0;
        for (Map<String, String> stream : List.of(PLAIN, SHADOWING)) {
            Set<String> parsedGroups = parsedGroups(grouped, stream, agg);
            ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
            RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
            for (int block = 0; block < 20; block++) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    lines.add(r.nextInt(20) == 0 ? " ".repeat(1 + r.nextInt(2)) + randomJson(r) : randomMixedLine(r));
                }
                TokenizedLines tokens = TokenizedLinesTest.encode(lines);
                for (int row = 0; row < lines.size(); row++) {
                    if (r.nextInt(10) == 0) {
                        continue; // a row the scan skips
                    }
                    tokens.skipTo(row);
                    int verdict = evaluator.evaluate(block * 1000L + row, tokens);
                    if (ReferenceAgreement.agrees(verdict, evaluator, sampler, block * 1000L + row, lines.get(row),
                            stream, parsedGroups)) {
                        passed++;
                    }
                }
            }
            if (query.contains("drop") && !query.contains("| __error")) {
                // rows opening no JSON, their error dropped and read by no label filter, stay on their tokens
                assertThat(evaluator.tokenRows()).as("rows answered on tokens").isGreaterThan(500);
            }
            if (query.contains("json")) {
                assertThat(evaluator.bytesRows()).as("rows rebuilt and answered on bytes").isGreaterThan(50);
            }
        }
        assertThat(passed).isPositive();
    }

    /**
     * Label filters on structured metadata (Drilldown's level filter, {@code | detected_level="info"}, before the
     * parsers), and parsed labels replacing a metadata value of their name after them: rows carrying random metadata
     * (a key the stream also has lands on {@code _extracted}) agree with the row sampler given the same metadata.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "count_over_time({app=\"api\"} | detected_level=\"info\" | json | logfmt | drop __error__, __error_details__"
                + " | level!=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | level=\"md\" or bytes > 5 [1m])",
        "count_over_time({app=\"api\"} | level=\"md\" | json | level!=\"md\" [1m])",
        "count_over_time({app=\"api\"} | lat >= 1 | json lat=\"a.bytes\" | lat=\"\" or app_extracted=\"x\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | bytes > 100 [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes [1m])",
        "count_over_time({app=\"api\"} | regexp \"bytes=(?P<bytes>\\\\S+)\" | bytes=\"md\" [1m])"})
    void metadataLabels_filteredAndReplacedByParsers_sameSamplesAsRowSampler(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        Set<String> grouped = Set.of("app", "level");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), grouped, 0);
        assertThat(pipeline).isNotNull();
        String[] keys = {"detected_level", "level", "lat", "bytes", "app"};
        String[] values = {"info", "md", "", "7", "1200", "x"};
        Random r = new Random(query.hashCode());
        int passed = 0;
        for (Map<String, String> stream : List.of(PLAIN, SHADOWING)) {
            boolean referenced = false;
            ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
            int[] slots = new int[keys.length];
            for (int k = 0; k < keys.length; k++) {
                slots[k] = evaluator.metadataSlot(keys[k]);
            }
            Set<String> parsedGroups = parsedGroups(grouped, stream, agg);
            RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
            for (int i = 0; i < 6000; i++) {
                String line = randomMixedLine(r);
                Map<String, String> metadata = new java.util.HashMap<>();
                for (int k = 0; k < keys.length; k++) {
                    String v = r.nextInt(3) == 0 ? null : values[r.nextInt(values.length)];
                    if (v != null) {
                        metadata.put(keys[k], v);
                    }
                    if (slots[k] >= 0) {
                        evaluator.metadata(slots[k], v);
                    }
                }
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                int verdict = evaluator.evaluate(i, bytes, 0, bytes.length);
                if (ReferenceAgreement.agrees(verdict, evaluator, sampler, i, line, stream, metadata, parsedGroups)) {
                    passed++;
                }
                referenced |= sampler.labels().referencedMetadata();
            }
            assertThat(evaluator.referencedMetadata()).as("metadata read").isEqualTo(referenced);
        }
        assertThat(passed).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "count_over_time({app=\"api\"} | logfmt | line_format \"x\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | logfmt [1m])",
        "count_over_time({app=\"api\"} | json | json [1m])",
        "count_over_time({app=\"api\"} | json | logfmt | json [1m])",
        "count_over_time({app=\"api\"} | json | logfmt b=\"bytes\" [1m])",
        "count_over_time({app=\"api\"} | logfmt b=\"bytes\" | json [1m])",
        "count_over_time({app=\"api\"} | regexp \"(?P<a>x)\" | json [1m])",
        "count_over_time({app=\"api\"} | json | drop __error__=\"JSONParserErr\" [1m])",
        "count_over_time({app=\"api\"} | json | drop level, __error__ [1m])",
        "count_over_time({app=\"api\"} | json a=\"b[0]\" [1m])",
        "count_over_time({app=\"api\"} | json __error__=\"b\" [1m])",
        "count_over_time({app=\"api\"} | logfmt a=\"b\" | json c=\"d\" [1m])",
        "count_over_time({app=\"api\"} | json | drop __error_details__ [1m])",
        "count_over_time({app=\"api\"} | json | keep level [1m])",
        "absent_over_time({app=\"api\"} | logfmt [1m])",
        "count_over_time({app=\"api\"} | logfmt __error__=\"x\" [1m])",
        "count_over_time({app=\"api\"} | regexp \"(?P<__error__>x)\" [1m])",
        "count_over_time({app=\"api\"} | pattern \"<__error__> <_>\" [1m])"})
    void unsupportedStages_compileToNull(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        assertThat(ColumnarPipeline.compile(agg.range(), agg.op(), Set.of(), 0)).isNull();
    }

    @Test
    void parsedLabels_withoutFixedGrouping_notSupported() {
        RangeAggregation agg = (RangeAggregation) LogQL.parse("count_over_time({app=\"api\"} | logfmt [1m])");
        assertThat(ColumnarPipeline.compile(agg.range(), agg.op(), null, 0)).isNull();
        ColumnarPipeline byLevel = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("level"), 0);
        assertThat(byLevel.groupsSafely(PLAIN)).as("rows are grouped by their parsed level").isTrue();
        assertThat(byLevel.evaluator(PLAIN).grouping()).isTrue();
        assertThat(byLevel.evaluator(SHADOWING).grouping()).as("a stream label shadows the parsed one").isFalse();
        ColumnarPipeline byError = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of(LineLabels.ERROR), 0);
        assertThat(byError.groupsSafely(PLAIN)).as("errors decline").isFalse();
        RangeAggregation unwrap = (RangeAggregation) LogQL.parse(
                "sum_over_time({app=\"api\"} | logfmt | unwrap bytes [1m])");
        assertThat(ColumnarPipeline.compile(unwrap.range(), unwrap.op(), Set.of("bytes"), 0).groupsSafely(PLAIN))
                .as("the unwrapped label").isFalse();
    }

    @Test
    void groupByParsedLabel_rowsOfEqualValuesShareAGroup() {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | logfmt | bytes > 1 [1m])");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("level", "app"), 0);
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(PLAIN);
        List<Integer> groups = new ArrayList<>();
        for (String line : List.of("level=info bytes=5", "bytes=7 level=warn", "level=info bytes=9", "bytes=3",
                "level=\"in\\\"fo\" bytes=4", "level= bytes=5")) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            assertThat(evaluator.evaluate(0, b, 0, b.length)).as(line).isEqualTo(ColumnarPipeline.PASS);
            groups.add(evaluator.group());
        }
        assertThat(groups).containsExactly(0, 1, 0, 2, 3, 2);
        assertThat(evaluator.groupLabels(0)).isEqualTo(Map.of("level", "info"));
        assertThat(evaluator.groupLabels(2)).as("no level: the label is absent").isEqualTo(Map.of());
        assertThat(evaluator.groupLabels(3)).isEqualTo(Map.of("level", "in\"fo"));
    }
}
