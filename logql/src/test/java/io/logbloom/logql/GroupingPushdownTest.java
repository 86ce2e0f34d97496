package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.logql.MetricResult.Matrix;
import io.logbloom.logql.MetricResult.Point;
import io.logbloom.logql.MetricResult.Series;
import io.logbloom.logql.SampleExpr.RangeOp;
import io.logbloom.logql.SampleExpr.VectorOp;
import java.io.IOException;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The grouping pushdown ({@code sum by (g) (rate(...))} evaluated per group) against the series-by-series path
 * on random data with unique per-line structured metadata: same series, same steps, same values (integer
 * valued functions exactly, rates up to rounding).
 */
final class GroupingPushdownTest {

    private static final long S = 1_000_000_000L;

    private static MemorySource randomSource(long seed) {
        Random r = new Random(seed);
        MemorySource src = new MemorySource();
        String[] levels = {"info", "warn", "error", ""};
        for (int s = 0; s < 6; s++) {
            Map<String, String> labels = Map.of("app", "gen", "pod", "p" + s, "level", levels[s % levels.length]);
            int n = 20 + r.nextInt(60);
            for (int i = 0; i < n; i++) {
                long ts = (long) (r.nextDouble() * 300 * S);
                String line = "v=" + (r.nextInt(2000) / 10.0 - 50) + " code=" + (200 + r.nextInt(4)) + " x".repeat(r.nextInt(5));
                Map<String, String> metadata = r.nextBoolean()
                        ? Map.of("trace_id", Long.toHexString(r.nextLong()), "region", r.nextBoolean() ? "eu" : "us")
                        : Map.of("trace_id", Long.toHexString(r.nextLong()));
                src.add(labels, ts, line, metadata);
            }
        }
        return src;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sum by (level) (rate({app=\"gen\"}[1m]))",
        "sum(rate({app=\"gen\"}[30s]))",
        "sum without (trace_id) (count_over_time({app=\"gen\"}[1m]))",
        "sum by (region, level) (count_over_time({app=\"gen\"} |= \"code=20\" [45s] offset 10s))",
        "sum by (code) (bytes_rate({app=\"gen\"} | logfmt [1m]))",
        "sum by (level) (bytes_over_time({app=\"gen\"}[2m]))",
        "sum by (level) (sum_over_time({app=\"gen\"} | logfmt | unwrap v [1m]))",
        "sum by (level) (sum_over_time({app=\"gen\"} | logfmt | code != \"201\" | unwrap v | __error__=\"\" [1m]))",
        "max by (level) (max_over_time({app=\"gen\"} | logfmt | unwrap v [1m]) by (level, code))",
        "min without (pod, trace_id) (min_over_time({app=\"gen\"} | logfmt | unwrap v [1m]) without (region))",
        "min by (level) (min_over_time({app=\"gen\"} | logfmt | unwrap v [1m]))",
        "max without (trace_id, pod) (max_over_time({app=\"gen\"} | logfmt | unwrap v [90s]))",
        "max(max_over_time({app=\"gen\"} | logfmt | unwrap v [1m]))",
        "sum by (level) (rate({app=\"gen\"}[1m])) / 2",
        "count by (level) (rate({app=\"gen\"}[1m]))",
        "avg by (level) (count_over_time({app=\"gen\"}[1m]))"})
    void pushdown_sameResultAsSeriesBySeries(String query) throws IOException {
        SampleExpr expr = (SampleExpr) LogQL.parse(query);
        for (long seed = 1; seed <= 5; seed++) {
            Matrix pushed = new Engine(true).evalRange(expr, randomSource(seed), 0, 320 * S, 7 * S);
            Matrix reference = new Engine(false).evalRange(expr, randomSource(seed), 0, 320 * S, 7 * S);
            assertThat(pushed.series()).isNotEmpty();
            assertSame(query, pushed, reference);
        }
    }

    private static void assertSame(String query, Matrix actual, Matrix expected) {
        assertThat(actual.series()).extracting(Series::metric)
                .as(query).containsExactlyElementsOf(expected.series().stream().map(Series::metric).toList());
        boolean exact = !query.contains("rate(") && !query.contains("unwrap v [")
                && !query.contains("unwrap v |") && !query.contains("bytes_rate");
        for (int i = 0; i < actual.series().size(); i++) {
            var a = actual.series().get(i).points();
            var b = expected.series().get(i).points();
            assertThat(a).extracting(Point::timestampNanos).as(query)
                    .containsExactlyElementsOf(b.stream().map(Point::timestampNanos).toList());
            for (int j = 0; j < a.size(); j++) {
                double x = a.get(j).value();
                double y = b.get(j).value();
                if (exact || query.startsWith("min") || query.startsWith("max")) {
                    assertThat(x).as(query + " at " + a.get(j).timestampNanos()).isEqualTo(y);
                } else {
                    assertThat(Math.abs(x - y)).as(query + " at " + a.get(j).timestampNanos() + ": " + x + " vs " + y)
                            .isLessThanOrEqualTo(1e-9 * Math.max(1, Math.abs(y)));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void pushdown_pipelineErrorStillRaised(boolean pushdown) {
        MemorySource src = new MemorySource().add(Map.of("app", "a", "level", "info"), S, "v=abc");
        SampleExpr expr = (SampleExpr) LogQL.parse("sum by (level) (sum_over_time({app=\"a\"} | logfmt | unwrap v [1m]))");
        assertThatThrownBy(() -> new Engine(pushdown).evalRange(expr, src, S, 2 * S, S))
                .isInstanceOf(LogQLValidationException.class).hasMessageContaining("SampleExtractionErr");
    }

    @org.junit.jupiter.api.Test
    void groupsBeforeRange_onlyDistributiveCombinations() {
        assertThat(Engine.groupsBeforeRange(VectorOp.SUM, RangeOp.RATE)).isTrue();
        assertThat(Engine.groupsBeforeRange(VectorOp.SUM, RangeOp.COUNT_OVER_TIME)).isTrue();
        assertThat(Engine.groupsBeforeRange(VectorOp.MIN, RangeOp.MIN_OVER_TIME)).isTrue();
        assertThat(Engine.groupsBeforeRange(VectorOp.SUM, RangeOp.AVG_OVER_TIME)).isFalse();
        assertThat(Engine.groupsBeforeRange(VectorOp.SUM, RangeOp.RATE_COUNTER)).isFalse();
        assertThat(Engine.groupsBeforeRange(VectorOp.COUNT, RangeOp.RATE)).isFalse();
        assertThat(Engine.groupsBeforeRange(VectorOp.MAX, RangeOp.MIN_OVER_TIME)).isFalse();
    }
}
