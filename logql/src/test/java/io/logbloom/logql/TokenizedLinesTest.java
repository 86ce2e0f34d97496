package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.logql.SampleExpr.RangeAggregation;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Logfmt and label filters on a tokenized line column's tokens ({@link TokenizedLines}) against the row-at-a-time
 * sampler, line by line, on random lines encoded as the chunks module's tokenized line encoding lays them out.
 */
final class TokenizedLinesTest {
    private static final String[] PIECES = {"a", "b", "=", "\"", "\\", " ", "\t", "é", "😀", "1", "_", "-", "bytes",
        "level", "=5", "=x", "\\\"", "app", "__error__", "_extracted", "ключ", "9", ".", "e3", "KB", "ms", "-0", "007",
        "123456789012345678901", "\\n", "error", "=\"", "\" "};
    private static final Map<String, String> PLAIN = Map.of("app", "api");
    private static final Map<String, String> SHADOWING = Map.of("app", "api", "level", "stream", "bytes", "8");

    /** The tokenized encoding's sections for {@code lines} (same run split, numbers and codes as the writer's). */
    static TokenizedLines encode(List<String> lines) {
        Map<String, Integer> ids = new LinkedHashMap<>();
        ByteArrayOutputStream codes = new ByteArrayOutputStream();
        ByteArrayOutputStream numbers = new ByteArrayOutputStream();
        for (String line : lines) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            int p = 0;
            while (p < b.length) {
                int cls = byteClass(b[p]);
                int q = p + 1;
                while (q < b.length && byteClass(b[q]) == cls) {
                    q++;
                }
                if (cls == 0 && q - p <= 18 && (q - p == 1 || b[p] != '0')) {
                    uvarint(codes, 0);
                    uvarint(numbers, Long.parseLong(new String(b, p, q - p, StandardCharsets.US_ASCII)));
                } else {
                    String token = new String(b, p, q - p, StandardCharsets.ISO_8859_1);
                    uvarint(codes, ids.computeIfAbsent(token, k -> ids.size()) + 2L);
                }
                p = q;
            }
            uvarint(codes, 1);
        }
        ByteArrayOutputStream dictionary = new ByteArrayOutputStream();
        int[] starts = new int[ids.size()];
        int[] lengths = new int[ids.size()];
        int i = 0;
        for (String token : ids.keySet()) {
            byte[] b = token.getBytes(StandardCharsets.ISO_8859_1);
            starts[i] = dictionary.size();
            lengths[i++] = b.length;
            dictionary.writeBytes(b);
        }
        return new TokenizedLines(dictionary.toByteArray(), starts, lengths, codes.toByteArray(),
                numbers.toByteArray(), lines.size());
    }

    private static int byteClass(byte b) {
        if (b >= '0' && b <= '9') {
            return 0;
        }
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' ? 1 : 2;
    }

    private static void uvarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static String randomLine(Random r) {
        if (r.nextInt(3) == 0) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(14);
            for (int i = 0; i < n; i++) {
                sb.append(PIECES[r.nextInt(PIECES.length)]);
            }
            return sb.toString();
        }
        String[] keys = {"bytes", "level", "app", "lat", "size", "dur", "bytes_extracted", "by-tes", "1x", "é", "a.b",
            "__error__", "x9y", "bytes2"};
        String[] values = {"5", "1200", "-0", "1.5", "abc", "", "\"q \\\" d\"", "\"12\"", "2KB", "1m30s", "error",
            "\"\"", "0x10", "1e3", "007", "-42", "99001", "123456789012345678", "\"a\\nb\"", "x=y", "\"unclosed",
            "\"x\"y", "\"bytes=5 \"", "\"a bytes=100000\"", "100000", "3 bytes=100000"};
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(6);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : r.nextInt(5) == 0 ? "\t" : " ").append(keys[r.nextInt(keys.length)]);
            if (r.nextInt(8) > 0) {
                sb.append('=').append(values[r.nextInt(values.length)]);
            }
        }
        return sb.toString();
    }

    @Test
    void skeletonRanges_rebuildTheLine() {
        Random r = new Random(3);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            lines.add(randomLine(r));
        }
        TokenizedLines tokens = encode(lines);
        for (String line : lines) {
            tokens.readRow();
            assertThat(tokens.line()).isEqualTo(line);
            assertThat(tokens.rowLength()).isEqualTo(line.getBytes(StandardCharsets.UTF_8).length);
            int n = tokens.scratch(0, tokens.skeletonLength());
            assertThat(new String(tokens.scratch(), 0, n, StandardCharsets.UTF_8)).isEqualTo(line);
        }
    }

    @Test
    void logfmtWalkOnTokens_samePairsAsOnBytes() {
        Random r = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            lines.add(randomLine(r));
        }
        for (boolean strict : new boolean[] {false, true}) {
            TokenizedLines tokens = encode(lines);
            for (String line : lines) {
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                List<String> expected = new ArrayList<>();
                int expectedStatus = LogfmtBytes.walk(bytes, 0, bytes.length, strict,
                        (b, ks, ke, vs, ve, esc, standalone) -> expected.add(new String(b, ks, ke - ks,
                                StandardCharsets.UTF_8) + "|" + new String(b, vs, ve - vs, StandardCharsets.UTF_8)
                                + "|" + esc + standalone));
                List<String> got = new ArrayList<>();
                int status = tokens.walkLogfmt(strict, (b, ks, ke, vs, ve, esc, standalone) -> {
                    int kn = tokens.scratch(ks, ke);
                    String key = new String(tokens.scratch(), 0, kn, StandardCharsets.UTF_8);
                    int vn = tokens.scratch(vs, ve);
                    got.add(key + "|" + new String(tokens.scratch(), 0, vn, StandardCharsets.UTF_8) + "|"
                            + esc + standalone);
                    return true;
                });
                assertThat(got).as("%s strict=%s", line, strict).isEqualTo(expected);
                assertThat(status).as(line).isEqualTo(expectedStatus);
                assertThat(tokens.line()).isEqualTo(line);
            }
        }
    }

    @Test
    void logfmtWalkOnTokens_stoppedBySink_restOfRowStillRead() {
        TokenizedLines tokens = encode(List.of("a=1 b=2 c=3", "d=4"));
        List<String> keys = new ArrayList<>();
        int status = tokens.walkLogfmt(false, (b, ks, ke, vs, ve, esc, standalone) -> {
            int n = tokens.scratch(ks, ke);
            keys.add(new String(tokens.scratch(), 0, n, StandardCharsets.UTF_8));
            return keys.size() < 2;
        });
        assertThat(status).isEqualTo(LogfmtBytes.STOPPED);
        assertThat(keys).containsExactly("a", "b");
        assertThat(tokens.line()).isEqualTo("a=1 b=2 c=3");
        assertThat(tokens.row()).isEqualTo(1);
        tokens.readRow();
        assertThat(tokens.line()).isEqualTo("d=4");
    }

    @Test
    void logfmtWalkOnTokens_satisfiedSink_walksAgainOnlyWhenAnErrorKeyMayFollow() {
        TokenizedLines tokens = encode(List.of("a=1 b=2 c=3", "a=1 x=2 __error__=3", "a=1 b=error", "z=1"));
        List<String> keys = new ArrayList<>();
        LogfmtBytes.Sink sink = (b, ks, ke, vs, ve, esc, standalone) -> {
            int n = tokens.scratch(ks, ke);
            keys.add(new String(tokens.scratch(), 0, n, StandardCharsets.UTF_8));
            return true;
        };
        tokens.walkLogfmt(false, sink, () -> !keys.isEmpty());
        assertThat(keys).as("the rest of the row is only read").containsExactly("a");
        keys.clear();
        tokens.walkLogfmt(false, sink, () -> !keys.isEmpty());
        assertThat(keys).as("walked again from the start").containsExactly("a", "a", "x", "__error__");
        keys.clear();
        tokens.walkLogfmt(true, sink, () -> !keys.isEmpty());
        assertThat(keys).as("strict: a later pair may be malformed").containsExactly("a", "b");
        tokens.readRow();
        assertThat(tokens.line()).isEqualTo("z=1");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "count_over_time({app=\"api\"} | logfmt | bytes > 99000 [1m])",
        "count_over_time({app=\"api\"} | logfmt | bytes > 100 [1m])",
        "count_over_time({app=\"api\"} | logfmt | bytes > 1000, lat > 1 or level=\"x\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | level=\"error\" or bytes <= 5 [1m])",
        "rate({app=\"api\"} | logfmt --strict | bytes >= 0 [1m])",
        "bytes_over_time({app=\"api\"} | logfmt --keep-empty | level=\"\" [1m])",
        "bytes_rate({app=\"api\"} | logfmt | level!=\"x\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | bytes_extracted > 1 [1m])",
        "count_over_time({app=\"api\"} | logfmt | by_tes > 1, _1x=\"5\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | a_b=\"abc\" or x9y!=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | app_extracted=~\"a.*\" [1m])",
        "count_over_time({app=\"api\"} | logfmt | __error__=\"\" | size > 1KB [1m])",
        "count_over_time({app=\"api\"} | logfmt | dur > 1m or __error__!=\"\" [1m])",
        "count_over_time({app=\"api\"} | level=\"stream\" | logfmt | lat < 2 [1m])",
        "count_over_time({app=\"api\"} | logfmt b=\"bytes\", level | b > 10 | level!=\"error\" [1m])",
        "count_over_time({app=\"api\"} | logfmt bytes, app | app_extracted=\"\" [1m])",
        "count_over_time({app=\"api\"} | logfmt ab=\"a.b\" | ab=\"x=y\" [1m])",
        "count_over_time({app=\"api\"} | bytes > 3 [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes [1m])",
        "max_over_time({app=\"api\"} | logfmt | unwrap lat | __error__=\"\" [1m])",
        "avg_over_time({app=\"api\"} | logfmt --strict | unwrap duration(dur) [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes(size) | bytes > 2 [1m])",
        "min_over_time({app=\"api\"} | logfmt b=\"bytes\" | unwrap b [1m])",
        "sum_over_time({app=\"api\"} | logfmt | unwrap bytes2 [1m])"})
    void randomLines_onTokens_sameSamplesAsRowSampler(String query) {
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0);
        assertThat(pipeline).isNotNull();
        assertThat(pipeline.onTokens()).isTrue();
        Random r = new Random(query.hashCode());
        int passed = 0;
        for (Map<String, String> stream : List.of(PLAIN, SHADOWING)) {
            ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
            RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
            for (int block = 0; block < 20; block++) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    lines.add(randomLine(r));
                }
                TokenizedLines tokens = encode(lines);
                for (int row = 0; row < lines.size(); row++) {
                    if (r.nextInt(10) == 0) {
                        continue; // a row the scan skips (out of range, repeated, filtered)
                    }
                    String line = lines.get(row);
                    tokens.skipTo(row);
                    int verdict = evaluator.evaluate(row, tokens);
                    if (ReferenceAgreement.agrees(verdict, evaluator, sampler, row, line, stream)) {
                        passed++;
                    }
                }
            }
            assertThat(evaluator.tokenRows()).as("rows answered on tokens").isGreaterThan(1000);
        }
        assertThat(passed).isPositive();
    }

    @Test
    void logfmtNumberFilter_rowsRejectedWithoutAWalk_onlyWhereTheKeyIsNotAStreamLabel() {
        String query = "count_over_time({app=\"api\"} | logfmt | bytes > 99000 [1m])";
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0);
        List<String> lines = List.of("bytes=5 level=x", "level=y", "bytes=100000", "msg=\"bytes=100000\" bytes=5",
                "msg=\"bytes=5 \" bytes=100000", "bytes=5 bytes=100000", "bytes=5 level=error", "bytes=\"100000\"",
                "bytes=100000x", "bytes=5.5", "bytes=5 __error__=1", "bytes=5 x=\"a b=error\"");
        int r = ColumnarPipeline.REJECT;
        int p = ColumnarPipeline.PASS;
        // 100000x does not convert
        int[] verdicts = {r, r, p, r, p, r, r, p, ColumnarPipeline.DECLINE, r, r, r};
        boolean[] skipped = {true, true, false, false, false, false, true, false, false, false, false, true};
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(PLAIN);
        TokenizedLines tokens = encode(lines);
        for (int row = 0; row < lines.size(); row++) {
            long before = evaluator.skippedRows();
            int verdict = evaluator.evaluate(row, tokens);
            assertThat(verdict).as(lines.get(row)).isEqualTo(verdicts[row]);
            assertThat(evaluator.skippedRows() - before).as("skipped: %s", lines.get(row)).isEqualTo(skipped[row] ? 1 : 0);
        }
        assertThat(rowsAnsweredWithoutAWalk(pipeline, SHADOWING, lines)).as("bytes is a stream label there").isZero();
        RangeAggregation and = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | logfmt | bytes > 99000, level=\"y\" [1m])");
        assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(and.range(), and.op(), Set.of("app"), 0), PLAIN,
                lines)).as("the left side of an and refuses for it")
                .isEqualTo(rowsAnsweredWithoutAWalk(pipeline, PLAIN, lines)).isPositive();
        RangeAggregation or = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | logfmt | bytes > 99000 or level=\"y\" [1m])");
        assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(or.range(), or.op(), Set.of("app"), 0), PLAIN,
                lines)).as("an or does not").isZero();
    }

    /**
     * Drilldown's {@code field!=""} after {@code json | logfmt | drop}: a row opening no JSON whose tokens lack the key
     * is rejected without a walk, any other row is walked (or rebuilt for json), with the row path's verdicts; not
     * where the key is a stream label or read from metadata, nor for a filter that accepts an absent label.
     */
    @Test
    void stringFilterOnAParsedKey_rowsWithoutItsTokenRejectedWithoutAWalk() {
        String query = "count_over_time({app=\"api\"} | json | logfmt | drop __error__, __error_details__"
                + " | status!=\"\" [1m])";
        RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0);
        List<String> lines = List.of("level=info msg=ok", "status=200 level=info", "{\"status\":500}", "{\"level\":1}",
                "DEBUG job done in 33ms", "statuses=1 status_code=2", "msg=\"status\" x=1", "status=", "xstatus=5",
                "a.status=5", "", "[1,2]", "status=\"\" level=x", "{\"st\\u0061tus\":5}", "{\"a\":{\"status\":1}}",
                "{\"msg\":\"a\\\"b\"}", " {\"level\":2}");
        int r = ColumnarPipeline.REJECT;
        int p = ColumnarPipeline.PASS;
        int[] verdicts = {r, p, p, r, r, r, r, r, r, r, r, r, r, p, r, r, r};
        // a JSON line is skipped when it holds neither the key's token nor a backslash (an escape may spell the key)
        boolean[] skipped = {true, false, false, true, true, true, false, false, true, false, true, true, false, false,
            false, false, true};
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(PLAIN);
        TokenizedLines tokens = encode(lines);
        RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
        for (int row = 0; row < lines.size(); row++) {
            long before = evaluator.skippedRows();
            int verdict = evaluator.evaluate(row, tokens);
            assertThat(verdict).as(lines.get(row)).isEqualTo(verdicts[row]);
            assertThat(sampler.sample(row, lines.get(row), PLAIN, Map.of())).as(lines.get(row)).isEqualTo(verdict == p);
            assertThat(evaluator.skippedRows() - before).as("skipped: %s", lines.get(row)).isEqualTo(skipped[row] ? 1 : 0);
        }
        assertThat(rowsAnsweredWithoutAWalk(pipeline, Map.of("app", "api", "status", "200"), lines))
                .as("status is a stream label there").isZero();
        ColumnarPipeline.Evaluator metadata = pipeline.evaluator(PLAIN);
        assertThat(metadata.metadataSlot("status")).isNotNegative();
        tokens = encode(lines);
        for (int row = 0; row < lines.size(); row++) {
            metadata.metadata(metadata.metadataSlot("status"), row % 2 == 0 ? "404" : null);
            metadata.evaluate(row, tokens);
        }
        assertThat(metadata.skippedRows()).as("status read from metadata").isZero();
        for (String other : List.of("status=\"\"", "status=~\".*\"", "status_code!=\"\"", "status!=\"\" or level=\"x\"")) {
            RangeAggregation q = (RangeAggregation) LogQL.parse(
                    "count_over_time({app=\"api\"} | logfmt | " + other + " [1m])");
            assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(q.range(), q.op(), Set.of("app"), 0), PLAIN,
                    lines)).as(other).isZero();
        }
        List<String> json = List.of("{\"level\":1}", "{\"a\":{\"b\":2}}", "{\"level\":3}");
        RangeAggregation param = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | json status=\"a.b\" | drop __error__ | status!=\"\" [1m])");
        assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(param.range(), param.op(), Set.of("app"), 0), PLAIN,
                json)).as("a json parameter names the key").isZero();
        RangeAggregation otherParam = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | json lvl=\"level\" | drop __error__ | status!=\"\" [1m])");
        assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(otherParam.range(), otherParam.op(),
                Set.of("app"), 0), PLAIN, json)).as("json's parameters name other labels").isEqualTo(3);
        RangeAggregation and = (RangeAggregation) LogQL.parse(
                "count_over_time({app=\"api\"} | level!=\"x\" | logfmt | status=~\"2..\", level=\"info\" [1m])");
        assertThat(rowsAnsweredWithoutAWalk(ColumnarPipeline.compile(and.range(), and.op(), Set.of("app"), 0), PLAIN,
                lines)).as("the left side of an and, after another filter").isPositive();
    }

    @Test
    void logfmtUnwrap_numberTakenFromTokensOnlyWhereAWalkSurelyReportsIt() {
        RangeAggregation agg = (RangeAggregation) LogQL.parse("sum_over_time({app=\"api\"} | logfmt | unwrap bytes [1m])");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0);
        List<String> lines = List.of("bytes=5 level=x", "level=y", "a=b bytes=7 bytes=9", "msg=\"x\" bytes=5",
                "msg=\"bytes=3 \" bytes=5", "x=\"a bytes=4\"", "bytes=5 level=error", "bytes=\"6\"",
                "-bytes=8", "bytes=5 __error__=1", "bytes=1000000000000000", "bytes=12x", "y=bytes=2");
        // value, or -1 for no sample; and whether the tokens answered without a walk
        double[] values = {5, -1, 7, 5, 5, -1, 5, 6, -1, -2, 1e15, -2, -1};
        boolean[] fast = {true, true, true, false, false, false, true, false, false, false, false, false, false};
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(PLAIN);
        TokenizedLines tokens = encode(lines);
        for (int row = 0; row < lines.size(); row++) {
            long before = evaluator.skippedRows();
            int verdict = evaluator.evaluate(row, tokens);
            if (values[row] == -2) {
                assertThat(verdict).as(lines.get(row)).isNotEqualTo(ColumnarPipeline.PASS);
            } else if (values[row] < 0) {
                assertThat(verdict).as(lines.get(row)).isEqualTo(ColumnarPipeline.REJECT);
            } else {
                assertThat(verdict).as(lines.get(row)).isEqualTo(ColumnarPipeline.PASS);
                assertThat(evaluator.value()).as(lines.get(row)).isEqualTo(values[row]);
            }
            assertThat(evaluator.skippedRows() - before).as("from tokens: %s", lines.get(row)).isEqualTo(fast[row] ? 1 : 0);
        }
        assertThat(rowsAnsweredWithoutAWalk(pipeline, SHADOWING, lines)).as("bytes is a stream label there").isZero();
    }

    @Test
    void logfmtNumberSkip_stopsTryingWhenItRejectsTooFewRows() {
        List<String> passing = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            passing.add("level=x bytes=" + (100_000 + i));
            failing.add("level=x bytes=" + i);
        }
        RangeAggregation agg = (RangeAggregation) LogQL.parse("count_over_time({app=\"api\"} | logfmt | bytes > 99000 [1m])");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0);
        ColumnarPipeline.Evaluator mostlyPassing = pipeline.evaluator(PLAIN);
        TokenizedLines tokens = encode(passing);
        for (int row = 0; row < passing.size(); row++) {
            assertThat(mostlyPassing.evaluate(row, tokens)).isEqualTo(ColumnarPipeline.PASS);
        }
        assertThat(mostlyPassing.skipTries()).isEqualTo(512);
        ColumnarPipeline.Evaluator mostlyFailing = pipeline.evaluator(PLAIN);
        tokens = encode(failing);
        for (int row = 0; row < failing.size(); row++) {
            assertThat(mostlyFailing.evaluate(row, tokens)).isEqualTo(ColumnarPipeline.REJECT);
        }
        assertThat(mostlyFailing.skipTries()).isEqualTo(2000);
        assertThat(mostlyFailing.skippedRows()).isEqualTo(2000);
    }

    @Test
    void groupsByAParsedLabel_sameLabelsAsTheRowPath_manyValuesAndNone() {
        RangeAggregation agg = (RangeAggregation) LogQL.parse("count_over_time({app=\"api\"} | logfmt | bytes > 10 [1m])");
        ColumnarPipeline pipeline = ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app", "level"), 0);
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(PLAIN);
        RowSampler sampler = new RowSampler(agg.range(), agg.op(), true);
        Random r = new Random(5);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String level = switch (r.nextInt(5)) {
                case 0 -> "";
                case 1 -> "level=\"q" + r.nextInt(3) + "\" ";
                default -> "level=v" + r.nextInt(40) + " ";
            };
            lines.add(level + "bytes=" + r.nextInt(100));
        }
        TokenizedLines tokens = encode(lines);
        int grouped = 0;
        for (int row = 0; row < lines.size(); row++) {
            int verdict = evaluator.evaluate(row, tokens);
            if (ReferenceAgreement.agrees(verdict, evaluator, sampler, row, lines.get(row), PLAIN)) {
                String level = sampler.labels().get("level");
                assertThat(evaluator.groupLabels(evaluator.group())).as(lines.get(row))
                        .isEqualTo(level == null ? Map.of() : Map.of("level", level));
                grouped++;
            }
        }
        assertThat(grouped).isGreaterThan(2000);
    }

    private static long rowsAnsweredWithoutAWalk(ColumnarPipeline pipeline, Map<String, String> stream,
            List<String> lines) {
        ColumnarPipeline.Evaluator evaluator = pipeline.evaluator(stream);
        TokenizedLines tokens = encode(lines);
        for (int row = 0; row < lines.size(); row++) {
            evaluator.evaluate(row, tokens);
        }
        return evaluator.skippedRows();
    }

    @Test
    void firstByte_peeksTheNextRow_readRowBytesRebuildsIt() {
        List<String> lines = List.of("", "{\"a\":1}", " {", "123 x", "007", "é=1", "=", "x".repeat(40) + " 123456 " + "y".repeat(70));
        TokenizedLines tokens = encode(lines);
        for (String line : lines) {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            assertThat(tokens.firstByte()).as(line).isEqualTo(bytes.length == 0 ? -1 : bytes[0] & 0xFF);
            assertThat(tokens.firstByte()).as("asked twice: " + line).isEqualTo(bytes.length == 0 ? -1 : bytes[0] & 0xFF);
            int length = tokens.readRowBytes();
            assertThat(new String(tokens.scratch(), 0, length, StandardCharsets.UTF_8)).isEqualTo(line);
        }
        // an empty token (only a damaged column holds one) leaves the byte unknown
        TokenizedLines damaged = new TokenizedLines("a".getBytes(StandardCharsets.US_ASCII), new int[] {0, 1},
                new int[] {1, 0}, new byte[] {3, 2, 1}, new byte[0], 1);
        assertThat(damaged.firstByte()).isEqualTo(-2);
    }

    @Test
    void pipelinesNeedingLineBytes_notOnTokens() {
        for (String query : List.of("count_over_time({app=\"api\"} | logfmt |= \"x\" [1m])",
                "count_over_time({app=\"api\"} | json |= \"x\" | a > 1 [1m])",
                "count_over_time({app=\"api\"} | regexp \"(?P<a>x)\" [1m])")) {
            RangeAggregation agg = (RangeAggregation) LogQL.parse(query);
            assertThat(ColumnarPipeline.compile(agg.range(), agg.op(), Set.of("app"), 0).onTokens()).as(query)
                    .isFalse();
        }
    }

    @Test
    void numberSkip_emptyTokenAtTheDictionarysEnd_leavesTheRowToTheWalk() {
        // tokens "bytes", "=", and an empty one ending the dictionary (only a damaged column has it)
        TokenizedLines tokens = new TokenizedLines("bytes=".getBytes(StandardCharsets.US_ASCII), new int[] {0, 5, 6},
                new int[] {5, 1, 0}, new byte[] {2, 3, 0, 4, 1}, new byte[] {5}, 1);
        assertThat(tokens.skipRowUnlessKeyNumber(0, 1, v -> v > 99000)).isFalse();
        assertThat(tokens.row()).isZero();
    }

    @Test
    void malformedCodes_damagedColumn() {
        TokenizedLines outside = new TokenizedLines(new byte[] {'a'}, new int[] {0}, new int[] {1},
                new byte[] {9, 1}, new byte[0], 1);
        assertThatThrownBy(outside::readRow).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("outside the 1-token dictionary");
        TokenizedLines truncated = new TokenizedLines(new byte[0], new int[0], new int[0], new byte[] {0, 1},
                new byte[] {(byte) 0x80}, 1);
        assertThatThrownBy(truncated::readRow).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("varint");
        TokenizedLines shortCodes = new TokenizedLines(new byte[0], new int[0], new int[0], new byte[0], new byte[0], 1);
        assertThatThrownBy(() -> shortCodes.skipTo(1)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("codes end");
    }
}
