package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.logbloom.logql.MetricResult.Matrix;
import io.logbloom.logql.MetricResult.Point;
import io.logbloom.logql.MetricResult.Sample;
import io.logbloom.logql.MetricResult.Scalar;
import io.logbloom.logql.MetricResult.Series;
import io.logbloom.logql.MetricResult.Vector;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-checked metric evaluation: samples at 10s,20s,...,60s with v=1..6 in stream a, v=10,20,30 in stream b. */
final class MetricEvalTest {

    private static final long S = 1_000_000_000L;
    private final Engine engine = new Engine();
    private final MemorySource src = new MemorySource();

    MetricEvalTest() {
        for (int i = 1; i <= 6; i++) {
            src.add(Map.of("app", "x", "pod", "a"), i * 10 * S, "v=" + i + " dur=" + i + "s size=" + i + "KB lvl=" + (i % 2 == 0 ? "even" : "odd"));
        }
        for (int i = 1; i <= 3; i++) {
            src.add(Map.of("app", "x", "pod", "b"), i * 10 * S, "v=" + (i * 10) + " dur=1m size=1B lvl=odd");
        }
    }

    private Vector instant(String q, long t) throws IOException {
        return (Vector) engine.evalInstant((SampleExpr) LogQL.parse(q), src, t);
    }

    private double single(String q, long t) throws IOException {
        Vector v = instant(q, t);
        assertThat(v.samples()).as(q).hasSize(1);
        return v.samples().get(0).value();
    }

    private Map<String, Double> byPod(String q, long t) throws IOException {
        Map<String, Double> out = new java.util.TreeMap<>();
        for (Sample s : instant(q, t).samples()) {
            out.put(s.metric().get("pod"), s.value());
        }
        return out;
    }

    @Test
    void countOverTime_windowIsLeftOpenRightClosed() throws IOException {
        // window (0s, 30s] holds a@10,20,30 and b@10,20,30
        assertThat(byPod("count_over_time({app=\"x\"}[30s])", 30 * S)).isEqualTo(Map.of("a", 3.0, "b", 3.0));
        // window (30s, 60s] holds a@40,50,60 only
        assertThat(byPod("count_over_time({app=\"x\"}[30s])", 60 * S)).isEqualTo(Map.of("a", 3.0));
        assertThat(byPod("count_over_time({app=\"x\"}[30s] offset 30s)", 60 * S)).isEqualTo(Map.of("a", 3.0, "b", 3.0));
    }

    @Test
    void rateAndBytes() throws IOException {
        assertThat(byPod("rate({app=\"x\"}[30s])", 30 * S)).isEqualTo(Map.of("a", 0.1, "b", 0.1));
        // line "v=1 dur=1s size=1KB lvl=odd" is 27 bytes, "v=2 ... lvl=even" 28
        assertThat(byPod("bytes_over_time({app=\"x\", pod=\"a\"}[20s])", 20 * S)).isEqualTo(Map.of("a", 55.0));
        assertThat(byPod("bytes_rate({app=\"x\", pod=\"a\"}[20s])", 20 * S)).isEqualTo(Map.of("a", 2.75));
    }

    @Test
    void unwrappedFunctions() throws IOException {
        String a = "{app=\"x\", pod=\"a\"} | logfmt v | unwrap v [60s]";
        assertThat(single("sum_over_time(" + a + ")", 60 * S)).isEqualTo(21);
        assertThat(single("avg_over_time(" + a + ")", 60 * S)).isEqualTo(3.5);
        assertThat(single("min_over_time(" + a + ")", 60 * S)).isEqualTo(1);
        assertThat(single("max_over_time(" + a + ")", 60 * S)).isEqualTo(6);
        assertThat(single("first_over_time(" + a + ")", 60 * S)).isEqualTo(1);
        assertThat(single("last_over_time(" + a + ")", 60 * S)).isEqualTo(6);
        assertThat(single("stdvar_over_time(" + a + ")", 60 * S)).isCloseTo(35.0 / 12, within(1e-12));
        assertThat(single("stddev_over_time(" + a + ")", 60 * S)).isCloseTo(Math.sqrt(35.0 / 12), within(1e-12));
        assertThat(single("quantile_over_time(0.5, " + a + ")", 60 * S)).isEqualTo(3.5);
        assertThat(single("quantile_over_time(0.9, " + a + ")", 60 * S)).isCloseTo(5.5, within(1e-12));
        assertThat(single("quantile_over_time(2, " + a + ")", 60 * S)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(single("rate(" + a + ")", 60 * S)).isCloseTo(21.0 / 60, within(1e-12));
        assertThat(single("sum_over_time({app=\"x\", pod=\"a\"} | logfmt dur | unwrap duration(dur) [60s])", 60 * S)).isEqualTo(21);
        assertThat(single("sum_over_time({app=\"x\", pod=\"a\"} | logfmt size | unwrap bytes(size) [20s])", 20 * S)).isEqualTo(3000);
    }

    @Test
    void rateCounter_isLokisExtrapolatedRate() throws IOException {
        // counter 1..6 sampled every 10s, window (0,60]: increase 5. Loki 3.4 (recorded in the conformance goldens)
        // mixes units: sampled interval 50e9ns/1000 = 5e7, start gap 60000ms/1000 = 60, end gap 0, so the increase is
        // stretched by (5e7 + 60) / 5e7 and divided by the 60s range
        assertThat(single("rate_counter({app=\"x\", pod=\"a\"} | logfmt v | unwrap v [60s])", 60 * S))
                .isCloseTo(5 * (5e7 + 60) / 5e7 / 60, within(1e-12));
    }

    @Test
    void unwrap_removesLabel_groupsByRemainingLabels_andRangeGrouping() throws IOException {
        Vector v = instant("sum_over_time({app=\"x\"} | logfmt v, lvl | unwrap v [60s])", 60 * S);
        assertThat(v.samples()).extracting(Sample::value).containsExactlyInAnyOrder(9.0, 12.0, 60.0);
        assertThat(v.samples()).allSatisfy(s -> assertThat(s.metric()).doesNotContainKey("v").containsKey("lvl"));
        assertThat(byPod("sum by (pod) (sum_over_time({app=\"x\"} | logfmt v, lvl | unwrap v [60s]))", 60 * S))
                .isEqualTo(Map.of("a", 21.0, "b", 60.0));
        assertThat(byPod("max_over_time({app=\"x\"} | logfmt v, lvl | unwrap v [60s]) by (pod)", 60 * S))
                .isEqualTo(Map.of("a", 6.0, "b", 30.0));
        assertThat(instant("sum without (pod) (sum_over_time({app=\"x\"} | logfmt v, lvl | unwrap v [60s]))", 60 * S)
                .samples()).extracting(Sample::value).containsExactlyInAnyOrder(9.0 + 60, 12.0);
    }

    @Test
    void unwrap_conversionError_isPipelineErrorUnlessFiltered() throws IOException {
        assertThatThrownBy(() -> instant("sum_over_time({app=\"x\"} | logfmt | unwrap lvl [60s])", 60 * S))
                .isInstanceOf(LogQLValidationException.class).hasMessageContaining("pipeline error: 'SampleExtractionErr'");
        assertThat(instant("sum_over_time({app=\"x\"} | logfmt | unwrap lvl | __error__=\"\" [60s])", 60 * S).samples()).isEmpty();
        // a line without the label yields no sample and no error (Loki 3: an empty value is skipped)
        assertThat(instant("sum_over_time({app=\"x\"} | logfmt | unwrap nope [60s])", 60 * S).samples()).isEmpty();
        assertThatThrownBy(() -> instant("count_over_time({app=\"x\"} |= \"v=1\" | json [60s])", 60 * S))
                .hasMessageContaining("pipeline error: 'JSONParserErr'");
        assertThat(instant("count_over_time({app=\"x\"} |= \"v=1\" | json | __error__!=\"\" | drop __error__, __error_details__ [60s])", 60 * S)
                .samples()).hasSize(2);
    }

    @Test
    void unwrapDurationAndBytes_convertAsGo_andWordTheirErrorsAsGo() throws IOException {
        MemorySource values = new MemorySource()
                .add(Map.of("app", "y"), 10 * S, "took=1.5m size=\"1,024 KiB\"")
                .add(Map.of("app", "y"), 20 * S, "took=2d size=\" 1KB\"");
        assertUnwrapped(values, "duration(took)", 90.0, "time: unknown unit \"d\" in duration \"2d\"");
        assertUnwrapped(values, "bytes(size)", 1_048_576.0, "strconv.ParseFloat: parsing \"\": invalid syntax");
    }

    /** The sum of what {@code unwrap} converts, and the one error detail of what it does not. */
    private void assertUnwrapped(MemorySource values, String unwrap, double sum, String errorDetails) throws IOException {
        String q = "{app=\"y\"} | logfmt | unwrap " + unwrap;
        assertThat(((Vector) engine.evalInstant((SampleExpr) LogQL.parse(
                "sum(sum_over_time(" + q + " | __error__=\"\" [60s]))"), values, 60 * S)).samples())
                .extracting(Sample::value).containsExactly(sum);
        assertThat(((Vector) engine.evalInstant((SampleExpr) LogQL.parse(
                "sum by (__error_details__) (sum_over_time(" + q + " | __error__!=\"\" [60s]))"), values, 60 * S))
                .samples()).extracting(Sample::metric).containsExactly(Map.of("__error_details__", errorDetails));
    }

    @Test
    void absentOverTime() throws IOException {
        assertThat(instant("absent_over_time({app=\"x\"}[5s])", 60 * S).samples()).isEmpty();
        Vector v = instant("absent_over_time({app=\"x\", pod=~\"a|b\"}[5s])", 65 * S);
        assertThat(v.samples()).containsExactly(new Sample(Map.of("app", "x"), 65 * S, 1));
    }

    @Test
    void vectorAggregations() throws IOException {
        String c = "count_over_time({app=\"x\"}[30s])";
        assertThat(single("sum(" + c + ")", 30 * S)).isEqualTo(6);
        assertThat(single("avg(" + c + ")", 30 * S)).isEqualTo(3);
        assertThat(single("count(" + c + ")", 30 * S)).isEqualTo(2);
        assertThat(single("max(" + c + ")", 60 * S)).isEqualTo(3);
        String s = "sum by (pod) (sum_over_time({app=\"x\"} | logfmt | unwrap v [30s]))";
        // a: 1+2+3=6, b: 10+20+30=60
        assertThat(single("min(" + s + ")", 30 * S)).isEqualTo(6);
        assertThat(single("max(" + s + ")", 30 * S)).isEqualTo(60);
        assertThat(single("stddev(" + s + ")", 30 * S)).isEqualTo(27);
        assertThat(single("stdvar(" + s + ")", 30 * S)).isEqualTo(729);
        assertThat(instant("topk(1, " + s + ")", 30 * S).samples()).extracting(x -> x.metric().get("pod")).containsExactly("b");
        assertThat(instant("bottomk(1, " + s + ")", 30 * S).samples()).extracting(x -> x.metric().get("pod")).containsExactly("a");
        assertThat(instant("sort_desc(" + s + ")", 30 * S).samples()).extracting(Sample::value).containsExactly(60.0, 6.0);
        assertThat(instant("sort(" + s + ")", 30 * S).samples()).extracting(Sample::value).containsExactly(6.0, 60.0);
        assertThat(instant("sum by (app) (" + c + ")", 30 * S).samples()).containsExactly(new Sample(Map.of("app", "x"), 30 * S, 6));
        assertThat(instant("sum without (pod) (" + c + ")", 30 * S).samples()).containsExactly(new Sample(Map.of("app", "x"), 30 * S, 6));
        assertThat(instant("topk by (pod) (1, count_over_time({app=\"x\"} | logfmt | drop v, dur, size [60s]))", 60 * S)
                .samples()).hasSize(2);
    }

    @Test
    void binaryOperators() throws IOException {
        String a = "sum(count_over_time({app=\"x\", pod=\"a\"}[60s]))";
        String b = "sum(count_over_time({app=\"x\", pod=\"b\"}[60s]))";
        assertThat(single(a + " / " + b, 60 * S)).isEqualTo(2);
        assertThat(single(a + " + " + b + " * 2", 60 * S)).isEqualTo(12);
        assertThat(single(a + " % 4", 60 * S)).isEqualTo(2);
        assertThat(single(a + " ^ 2", 60 * S)).isEqualTo(36);
        assertThat(single("10 - " + a, 60 * S)).isEqualTo(4);
        assertThat(instant(a + " > 10", 60 * S).samples()).isEmpty();
        assertThat(single(a + " > 5", 60 * S)).isEqualTo(6);
        assertThat(single("5 < " + a, 60 * S)).isEqualTo(6);
        assertThat(single(a + " > bool 10", 60 * S)).isEqualTo(0);
        assertThat(single(a + " == bool 6", 60 * S)).isEqualTo(1);
        String byPod = "count_over_time({app=\"x\"}[60s])";
        assertThat(byPod(byPod + " and count_over_time({app=\"x\", pod=\"a\"}[60s])", 60 * S)).isEqualTo(Map.of("a", 6.0));
        assertThat(byPod(byPod + " unless count_over_time({app=\"x\", pod=\"a\"}[60s])", 60 * S)).isEqualTo(Map.of("b", 3.0));
        assertThat(byPod("count_over_time({app=\"x\", pod=\"a\"}[60s]) or " + byPod, 60 * S)).isEqualTo(Map.of("a", 6.0, "b", 3.0));
        assertThat(byPod(byPod + " / on (pod) " + byPod, 60 * S)).isEqualTo(Map.of("a", 1.0, "b", 1.0));
        // many-to-one: each pod's count divided by the app total
        Vector share = instant(byPod + " / on (app) group_left sum by (app) (" + byPod + ")", 60 * S);
        assertThat(share.samples()).extracting(Sample::value).containsExactlyInAnyOrder(6.0 / 9, 3.0 / 9);
        assertThat(share.samples()).allSatisfy(x -> assertThat(x.metric()).containsKey("pod"));
        assertThatThrownBy(() -> instant(byPod + " / on (app) sum by (app) (" + byPod + ")", 60 * S))
                .hasMessageContaining("many-to-one matching must be explicit");
        assertThat(single("vector(3) * 2", 60 * S)).isEqualTo(6);
        assertThat(single("sum(count_over_time({app=\"none\"}[60s])) or vector(0)", 60 * S)).isEqualTo(0);
    }

    @Test
    void scalars_instantAndRange() throws IOException {
        assertThat(engine.evalInstant((SampleExpr) LogQL.parse("1 + 2 * 3"), src, 5 * S)).isEqualTo(new Scalar(5 * S, 7));
        assertThat(engine.evalInstant((SampleExpr) LogQL.parse("2 ^ 3 ^ 2"), src, 5 * S)).isEqualTo(new Scalar(5 * S, 512));
        Matrix m = engine.evalRange((SampleExpr) LogQL.parse("-1"), src, 0, 20 * S, 10 * S);
        assertThat(m.series()).containsExactly(new Series(Map.of(),
                List.of(new Point(0, -1), new Point(10 * S, -1), new Point(20 * S, -1))));
    }

    @Test
    void labelReplace() throws IOException {
        Vector v = instant("label_replace(count_over_time({app=\"x\"}[60s]), \"short\", \"p-$1\", \"pod\", \"(.)\")", 60 * S);
        assertThat(v.samples()).extracting(x -> x.metric().get("short")).containsExactlyInAnyOrder("p-a", "p-b");
        Vector none = instant("label_replace(count_over_time({app=\"x\"}[60s]), \"short\", \"$1\", \"pod\", \"zz(.)\")", 60 * S);
        assertThat(none.samples()).allSatisfy(x -> assertThat(x.metric()).doesNotContainKey("short"));
        // Go's Expand: ${1}x is group 1 then x, $$ a dollar, $1x the group named 1x (none), a long number no group
        Vector expanded = instant("label_replace(count_over_time({app=\"x\", pod=\"a\"}[60s]), \"short\", "
                + "\"${1}x$$|$1x|$99999999999\", \"pod\", \"(.)\")", 60 * S);
        assertThat(expanded.samples()).extracting(x -> x.metric().get("short")).containsExactly("ax$||");
    }

    @Test
    void rangeQuery_stepsAlignedAtStart_lookbackPerStep() throws IOException {
        Matrix m = engine.evalRange((SampleExpr) LogQL.parse("count_over_time({app=\"x\", pod=\"a\"}[20s])"), src,
                5 * S, 65 * S, 15 * S);
        // steps 5,20,35,50,65: windows (-15,5]=0 → no point, (0,20]=2, (15,35]=2, (30,50]=2, (45,65]=2
        assertThat(m.series()).hasSize(1);
        assertThat(m.series().get(0).points()).containsExactly(new Point(20 * S, 2), new Point(35 * S, 2),
                new Point(50 * S, 2), new Point(65 * S, 2));
        assertThatThrownBy(() -> engine.evalRange((SampleExpr) LogQL.parse("vector(1)"), src, 0, 1, 0))
                .hasMessageContaining("zero or negative query resolution step");
        assertThatThrownBy(() -> engine.evalRange((SampleExpr) LogQL.parse("vector(1)"), src, 0, 20_000 * S, S))
                .hasMessageContaining("exceeded maximum resolution of 11,000 points");
    }

    @Test
    void formatValue_likeGoFormatFloat() {
        assertThat(Values.formatValue(2)).isEqualTo("2");
        assertThat(Values.formatValue(0.5)).isEqualTo("0.5");
        assertThat(Values.formatValue(Double.NaN)).isEqualTo("NaN");
        assertThat(Values.formatValue(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(Values.formatValue(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(Values.formatValue(1e21)).isEqualTo("1000000000000000000000");
        assertThat(Values.formatValue(1e-7)).isEqualTo("0.0000001");
        assertThat(Values.formatValue(-3.25)).isEqualTo("-3.25");
        assertThat(Values.formatValue(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    }
}
