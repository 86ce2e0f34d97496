package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.logbloom.logql.MetricResult.Matrix;
import io.logbloom.logql.MetricResult.Point;
import io.logbloom.logql.MetricResult.Series;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compares the engine with a brute-force reference over generated data: for every step the reference scans
 * all raw entries, applies the documented window (t - range, t] and the textbook formula.
 */
final class ReferenceEvalTest {

    private static final long S = 1_000_000_000L;

    private record Raw(Map<String, String> labels, long ts, String line, double v, boolean keep) {
    }

    private final List<Raw> raws = new ArrayList<>();
    private final MemorySource src = new MemorySource();

    ReferenceEvalTest() {
        Random r = new Random(7);
        for (int s = 0; s < 4; s++) {
            Map<String, String> labels = Map.of("app", "gen", "pod", "p" + s, "zone", s < 2 ? "z1" : "z2");
            for (int i = 0; i < 60; i++) {
                long ts = (long) (r.nextDouble() * 600) * S + s;
                double v = Math.round(r.nextDouble() * 1000) / 10.0;
                boolean keep = r.nextInt(4) > 0;
                String line = (keep ? "keep" : "drop") + " v=" + v + " pad=" + "x".repeat(r.nextInt(20));
                raws.add(new Raw(labels, ts, line, v, keep));
                src.add(labels, ts, line);
            }
        }
    }

    private static double[] window(List<Raw> rs, long lo, long hi, Function<Raw, Double> f) {
        return rs.stream().filter(x -> x.ts > lo && x.ts <= hi && x.keep)
                .sorted(java.util.Comparator.comparingLong(Raw::ts)).mapToDouble(f::apply).toArray();
    }

    private static double reference(String fn, double[] w, double rangeSeconds) {
        double sum = Arrays.stream(w).sum();
        double mean = sum / w.length;
        double var = Arrays.stream(w).map(x -> (x - mean) * (x - mean)).sum() / w.length;
        return switch (fn) {
            case "count_over_time" -> w.length;
            case "rate" -> w.length / rangeSeconds;
            case "bytes_over_time", "sum_over_time" -> sum;
            case "bytes_rate" -> sum / rangeSeconds;
            case "avg_over_time" -> mean;
            case "min_over_time" -> Arrays.stream(w).min().orElseThrow();
            case "max_over_time" -> Arrays.stream(w).max().orElseThrow();
            case "stdvar_over_time" -> var;
            case "stddev_over_time" -> Math.sqrt(var);
            case "first_over_time" -> w[0];
            case "last_over_time" -> w[w.length - 1];
            case "quantile_over_time" -> {
                double[] sorted = w.clone();
                Arrays.sort(sorted);
                double rank = 0.75 * (sorted.length - 1);
                int lo = (int) Math.floor(rank);
                int hi = Math.min(sorted.length - 1, lo + 1);
                yield sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
            }
            default -> throw new IllegalArgumentException(fn);
        };
    }

    private static String query(String fn) {
        String base = "{app=\"gen\"} |= \"keep\"";
        return switch (fn) {
            case "count_over_time", "rate", "bytes_over_time", "bytes_rate" -> fn + "(" + base + " [45s])";
            case "quantile_over_time" -> fn + "(0.75, " + base + " | logfmt v | unwrap v [45s])";
            default -> fn + "(" + base + " | logfmt v | unwrap v [45s])";
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"count_over_time", "rate", "bytes_over_time", "bytes_rate", "sum_over_time", "avg_over_time",
        "min_over_time", "max_over_time", "stdvar_over_time", "stddev_over_time", "quantile_over_time",
        "first_over_time", "last_over_time"})
    void rangeFunction_matchesBruteForce(String fn) throws IOException {
        long start = 30 * S;
        long end = 570 * S;
        long step = 17 * S;
        Matrix m = new Engine().evalRange((SampleExpr) LogQL.parse(query(fn)), src, start, end, step);
        Map<Map<String, String>, List<Point>> expected = new TreeMap<>(Engine::compareLabels);
        Map<Map<String, String>, List<Raw>> byStream = new HashMap<>();
        raws.forEach(x -> byStream.computeIfAbsent(x.labels, k -> new ArrayList<>()).add(x));
        Function<Raw, Double> value = fn.startsWith("bytes") ? x -> (double) x.line.length() : x -> x.v;
        for (Map.Entry<Map<String, String>, List<Raw>> e : byStream.entrySet()) {
            for (long t = start; t <= end; t += step) {
                double[] w = window(e.getValue(), t - 45 * S, t, value);
                if (w.length > 0) {
                    expected.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new Point(t, reference(fn, w, 45)));
                }
            }
        }
        assertThat(m.series()).extracting(Series::metric).containsExactlyElementsOf(expected.keySet());
        for (Series s : m.series()) {
            List<Point> exp = expected.get(s.metric());
            assertThat(s.points()).hasSameSizeAs(exp);
            for (int i = 0; i < exp.size(); i++) {
                assertThat(s.points().get(i).timestampNanos()).isEqualTo(exp.get(i).timestampNanos());
                assertThat(s.points().get(i).value()).as("%s %s at %d", fn, s.metric(), exp.get(i).timestampNanos())
                        .isCloseTo(exp.get(i).value(), within(1e-9));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sum", "avg", "min", "max", "count", "stddev", "stdvar", "topk", "bottomk"})
    void vectorAggregation_matchesBruteForce(String op) throws IOException {
        String inner = "sum_over_time({app=\"gen\"} |= \"keep\" | logfmt v | unwrap v [60s])";
        String q = op.endsWith("k") ? op + " by (zone) (1, " + inner + ")" : op + " by (zone) (" + inner + ")";
        Engine engine = new Engine();
        for (long t = 60 * S; t <= 600 * S; t += 60 * S) {
            MetricResult.Vector v = (MetricResult.Vector) engine.evalInstant((SampleExpr) LogQL.parse(q), src, t);
            // reference: per pod window sums, then per zone aggregation
            Map<String, Map<String, Double>> zones = new TreeMap<>();
            for (Raw x : raws) {
                if (x.keep && x.ts > t - 60 * S && x.ts <= t) {
                    zones.computeIfAbsent(x.labels.get("zone"), k -> new TreeMap<>()).merge(x.labels.get("pod"), x.v, Double::sum);
                }
            }
            Map<String, Double> expected = new TreeMap<>();
            for (Map.Entry<String, Map<String, Double>> z : zones.entrySet()) {
                double[] vals = z.getValue().values().stream().mapToDouble(Double::doubleValue).toArray();
                double mean = Arrays.stream(vals).average().orElseThrow();
                double var = Arrays.stream(vals).map(x -> (x - mean) * (x - mean)).sum() / vals.length;
                switch (op) {
                    case "sum" -> expected.put(z.getKey(), Arrays.stream(vals).sum());
                    case "avg" -> expected.put(z.getKey(), mean);
                    case "min" -> expected.put(z.getKey(), Arrays.stream(vals).min().orElseThrow());
                    case "max" -> expected.put(z.getKey(), Arrays.stream(vals).max().orElseThrow());
                    case "count" -> expected.put(z.getKey(), (double) vals.length);
                    case "stddev" -> expected.put(z.getKey(), Math.sqrt(var));
                    case "stdvar" -> expected.put(z.getKey(), var);
                    default -> {
                        Map.Entry<String, Double> best = null;
                        for (Map.Entry<String, Double> p : z.getValue().entrySet()) {
                            boolean better = best == null || (op.equals("topk") ? p.getValue() > best.getValue() : p.getValue() < best.getValue());
                            if (better) {
                                best = p;
                            }
                        }
                        expected.put(best.getKey(), best.getValue());
                    }
                }
            }
            Map<String, Double> actual = new TreeMap<>();
            for (MetricResult.Sample s : v.samples()) {
                actual.put(op.endsWith("k") ? s.metric().get("pod") : s.metric().get("zone"), s.value());
            }
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            for (String k : expected.keySet()) {
                assertThat(actual.get(k)).as("%s %s at %d", op, k, t).isCloseTo(expected.get(k), within(1e-9));
            }
        }
    }
}
