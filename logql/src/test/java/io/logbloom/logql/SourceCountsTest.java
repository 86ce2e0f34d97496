package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Range aggregations a source answers from counts ({@link EntrySource#countLines}) against the row-at-a-time
 * engine, on random data and random count-like queries: the same series, steps and values.
 */
final class SourceCountsTest {
    private static final long S = 1_000_000_000L;

    /** A source answering counts by brute force, one sample per stream and window region, as a columnar store may. */
    private static final class CountingSource implements EntrySource {
        private final MemorySource rows;
        private final Map<Map<String, String>, List<StreamEntry>> streams;
        int answered;
        int declined;

        CountingSource(MemorySource rows, Map<Map<String, String>, List<StreamEntry>> streams) {
            this.rows = rows;
            this.streams = streams;
        }

        @Override
        public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos,
                Direction direction) throws IOException {
            return rows.select(selector, fromNanos, throughNanos, direction);
        }

        @Override
        public Optional<List<StreamSamples>> countLines(LineCountQuery query) {
            List<StreamSamples> out = new ArrayList<>();
            for (Map.Entry<Map<String, String>, List<StreamEntry>> s : streams.entrySet()) {
                if (!query.selector().stream().allMatch(m -> m.matches(s.getKey().get(m.name())))) {
                    continue;
                }
                Map<Integer, long[]> byRegion = new HashMap<>(); // region -> {last ts, sum}
                for (StreamEntry e : s.getValue()) {
                    for (String key : e.structuredMetadata().keySet()) {
                        if (query.labelMatters(key)) {
                            declined++;
                            return Optional.empty();
                        }
                    }
                    long ts = e.timestampNanos();
                    if (ts <= query.fromNanos() || ts >= query.throughNanos() || !query.filter().test(e.line())) {
                        continue;
                    }
                    long[] acc = byRegion.computeIfAbsent(query.region(ts), k -> new long[2]);
                    acc[0] = ts;
                    acc[1] += query.lineBytes() ? e.line().getBytes(java.nio.charset.StandardCharsets.UTF_8).length : 1;
                }
                long[] ts = new long[byRegion.size()];
                double[] values = new double[byRegion.size()];
                int n = 0;
                for (long[] acc : byRegion.values()) {
                    ts[n] = acc[0];
                    values[n++] = acc[1];
                }
                out.add(new StreamSamples(s.getKey(), ts, values, n));
            }
            answered++;
            return Optional.of(out);
        }
    }

    @Test
    void randomCountQueries_sameResultAsRowAtATime() throws IOException {
        Random r = new Random(7);
        String[] ops = {"count_over_time", "rate", "bytes_over_time", "bytes_rate"};
        String[] filters = {"", "|= \"code=200\"", "!= \"x\"", "|~ \"code=20[01]\"", "|= \"a\" or \"x\"",
            "|= \"é\" != \"code=203\""};
        String[] wrappers = {"%s", "sum(%s)", "sum by (level) (%s)", "sum by (trace_id) (%s)", "max by (pod) (%s)",
            "sum without (pod) (%s)", "count(%s)"};
        int answered = 0;
        int declined = 0;
        for (int k = 0; k < 300; k++) {
            boolean metadata = r.nextInt(3) == 0;
            MemorySource rows = new MemorySource();
            Map<Map<String, String>, List<StreamEntry>> streams = new HashMap<>();
            for (int s = 0; s < 4; s++) {
                Map<String, String> labels = Map.of("app", "gen", "pod", "p" + s, "level", s % 2 == 0 ? "info" : "warn");
                int n = r.nextInt(40);
                for (int i = 0; i < n; i++) {
                    long ts = (long) (r.nextDouble() * 300) * S + (r.nextBoolean() ? 0 : r.nextInt(1000));
                    String line = "code=" + (200 + r.nextInt(4)) + " x".repeat(r.nextInt(3)) + (r.nextInt(5) == 0 ? " é" : "");
                    Map<String, String> md = metadata ? Map.of("trace_id", "t" + r.nextInt(3)) : Map.of();
                    rows.add(labels, ts, line, md);
                    streams.computeIfAbsent(new java.util.TreeMap<>(labels), x -> new ArrayList<>())
                            .add(new StreamEntry(ts, line, md));
                }
            }
            String range = new String[] {"10s", "30s", "1m", "5m"}[r.nextInt(4)];
            String offset = r.nextInt(4) == 0 ? " offset " + (1 + r.nextInt(60)) + "s" : "";
            String inner = ops[r.nextInt(ops.length)] + "({app=\"gen\"} " + filters[r.nextInt(filters.length)] + " ["
                    + range + "]" + offset + ")";
            String query = String.format(wrappers[r.nextInt(wrappers.length)], inner);
            SampleExpr expr = (SampleExpr) LogQL.parse(query);
            CountingSource counting = new CountingSource(rows, streams);
            if (r.nextBoolean()) {
                long start = r.nextInt(200) * S + r.nextInt(1000);
                long step = (1 + r.nextInt(40)) * S / (r.nextBoolean() ? 1 : 3);
                long end = start + r.nextInt(200) * S;
                assertThat(new Engine().evalRange(expr, counting, start, end, step)).as(query)
                        .isEqualTo(Engine.rowAtATime().evalRange(expr, rows, start, end, step));
            } else {
                long at = r.nextInt(330) * S + r.nextInt(3);
                assertThat(new Engine().evalInstant(expr, counting, at)).as(query)
                        .isEqualTo(Engine.rowAtATime().evalInstant(expr, rows, at));
            }
            answered += counting.answered;
            declined += counting.declined;
        }
        assertThat(answered).as("queries answered from counts").isGreaterThan(100);
        assertThat(declined).as("queries declined for metadata labels").isPositive();
    }

    @Test
    void sampleBudget_exceeded_clearErrorInsteadOfOutOfMemory() throws IOException {
        MemorySource rows = new MemorySource();
        for (int i = 0; i < 1000; i++) {
            rows.add(Map.of("app", "gen"), i * S, "line " + i);
        }
        SampleExpr expr = (SampleExpr) LogQL.parse("sum(count_over_time({app=\"gen\"}[1h]))");
        // a sample per row and what the series weighs beside them
        long needed = 1000 + SampleBudget.SERIES_SAMPLES;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Engine(true, false, needed - 1).evalInstant(expr,
                rows, 2000 * S)).isInstanceOf(QueryMemoryBudgetException.class)
                .hasMessageContaining("needs more memory than its budget: over " + (needed - 1) + " samples");
        assertThat(new Engine(true, false, needed).evalInstant(expr, rows, 2000 * S))
                .isEqualTo(new MetricResult.Vector(List.of(new MetricResult.Sample(Map.of(), 2000 * S, 1000))));
    }

    /**
     * A grouping by a label with a value per row makes a series per row, each weighing more than its one sample (a
     * server ran out of memory on {@code sum by (path)} over 3 M lines with a path per row): the budget counts them.
     */
    @Test
    void sampleBudget_countsEachSeries_aGroupingByAValuePerRow() throws IOException {
        MemorySource rows = new MemorySource();
        for (int i = 0; i < 1000; i++) {
            rows.add(Map.of("app", "gen"), i * S, "id=" + i + " level=" + (i % 3));
        }
        SampleExpr perRow = (SampleExpr) LogQL.parse("sum by (id) (count_over_time({app=\"gen\"} | logfmt [1h]))");
        SampleExpr few = (SampleExpr) LogQL.parse("sum by (level) (count_over_time({app=\"gen\"} | logfmt [1h]))");
        long budget = 1000 * (1 + SampleBudget.SERIES_SAMPLES) - 1;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Engine(true, false, budget).evalInstant(perRow,
                rows, 2000 * S)).isInstanceOf(QueryMemoryBudgetException.class);
        assertThat(((MetricResult.Vector) new Engine(true, false, budget + 1).evalInstant(perRow, rows, 2000 * S))
                .samples()).hasSize(1000);
        assertThat(((MetricResult.Vector) new Engine(true, false, budget).evalInstant(few, rows, 2000 * S))
                .samples()).hasSize(3);
    }
}
