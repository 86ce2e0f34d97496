package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.Grouping;
import io.logbloom.logql.SampleExpr.LogRange;
import io.logbloom.logql.SampleExpr.RangeAggregation;
import io.logbloom.logql.SampleExpr.RangeOp;
import io.logbloom.logql.SampleExpr.Unwrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The range-aggregation role of the {@link Engine}: reads a range aggregation's selector once for the whole
 * query span, either as counts a source answers from its columns ({@link EntrySource#countLines}) or entry by
 * entry through the compiled pipeline, buffers each series' samples (within the query's {@link SampleBudget})
 * and slides every step's window over them. Stateless apart from its configuration; thread-safe.
 */
final class RangeAggregator {
    private final boolean sourceCounts;

    /** {@code sourceCounts} lets sources answer count-like aggregations from their columns. */
    RangeAggregator(boolean sourceCounts) {
        this.sourceCounts = sourceCounts;
    }



    /** Sorted samples of one series. */
    static final class SeriesBuffer {
        long[] ts = new long[16];
        double[] values = new double[16];
        int size;

        void add(long t, double v) {
            if (size == ts.length) {
                ts = Arrays.copyOf(ts, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            ts[size] = t;
            values[size] = v;
            size++;
        }

        /**
         * Sorts by time, stably (equal times keep arrival order, which first/last_over_time and float sums see).
         * A bottom-up merge sort over the parallel primitive arrays that starts from the natural ascending runs:
         * a series merged from k sorted streams costs about n log k moves and no boxing.
         */
        void sort() {
            int runs = 1;
            for (int i = 1; i < size; i++) {
                if (ts[i - 1] > ts[i]) {
                    runs++;
                }
            }
            if (runs == 1) {
                return;
            }
            int[] bounds = new int[runs + 1];
            int r = 1;
            for (int i = 1; i < size; i++) {
                if (ts[i - 1] > ts[i]) {
                    bounds[r++] = i;
                }
            }
            bounds[runs] = size;
            long[] t = ts;
            double[] v = values;
            long[] t2 = new long[size];
            double[] v2 = new double[size];
            while (runs > 1) {
                int merged = 0;
                for (int k = 0; k < runs; k += 2) {
                    int lo = bounds[k];
                    int mid = bounds[Math.min(k + 1, runs)];
                    int hi = bounds[Math.min(k + 2, runs)];
                    int i = lo;
                    int j = mid;
                    int o = lo;
                    while (i < mid && j < hi) {
                        if (t[j] < t[i]) {
                            t2[o] = t[j];
                            v2[o++] = v[j++];
                        } else {
                            t2[o] = t[i];
                            v2[o++] = v[i++];
                        }
                    }
                    System.arraycopy(t, i, t2, o, mid - i);
                    System.arraycopy(v, i, v2, o, mid - i);
                    o += mid - i;
                    System.arraycopy(t, j, t2, o, hi - j);
                    System.arraycopy(v, j, v2, o, hi - j);
                    bounds[merged++] = lo;
                }
                bounds[merged] = size;
                runs = merged;
                long[] swapT = t;
                t = t2;
                t2 = swapT;
                double[] swapV = v;
                v = v2;
                v2 = swapV;
            }
            ts = t;
            values = v;
        }

        /** First index with ts > bound. */
        int firstAfter(long bound) {
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ts[mid] <= bound) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /**
     * Evaluates a range aggregation; when {@code pushed}, the samples of each group of {@code outer} (null: one
     * group) are merged into one series.
     */
    List<Map<Map<String, String>, Double>> evaluate(RangeAggregation r, EntrySource source, long[] steps,
            SampleBudget budget, boolean pushed, Grouping outer) throws IOException {
        LogRange lr = r.range();
        long rangeNanos = lr.range().toNanos();
        long offsetNanos = lr.offset().toNanos();
        long from = steps[0] - offsetNanos - rangeNanos;
        long through = steps[steps.length - 1] - offsetNanos + 1;
        List<Grouping> chain = new ArrayList<>(2);
        if (r.grouping() != null) {
            chain.add(r.grouping());
        }
        if (pushed) {
            chain.add(outer);
        }
        LabelGrouping grouping = chain.isEmpty() ? null : LabelGrouping.of(chain);
        Map<Map<String, String>, SeriesBuffer> series =
                counted(r, source, from, through, steps, grouping, budget);
        // a counted sample stands for several lines: a window's count is the sum of its samples (an unwrap's
        // samples are single rows, and count_over_time has no unwrap)
        RangeOp windowOp = series != null && r.op() == RangeOp.COUNT_OVER_TIME ? RangeOp.SUM_OVER_TIME : r.op();
        if (series == null) {
            series = collect(r, source, from, through, grouping, budget);
        }
        List<Map<Map<String, String>, Double>> out = new ArrayList<>(steps.length);
        double rangeSeconds = rangeNanos / 1e9;
        if (r.op() == RangeOp.ABSENT_OVER_TIME) {
            Map<String, String> absentLabels = new TreeMap<>();
            for (Matcher m : lr.log().selector()) {
                if (m.type() == MatchType.EQUAL) {
                    absentLabels.put(m.name(), m.value());
                }
            }
            Map<String, String> key = LabelSet.of(absentLabels);
            for (long t : steps) {
                long hi = t - offsetNanos;
                long lo = hi - rangeNanos;
                boolean any = false;
                for (SeriesBuffer b : series.values()) {
                    if (b.firstAfter(lo) < b.firstAfter(hi)) {
                        any = true;
                        break;
                    }
                }
                Map<Map<String, String>, Double> m = new HashMap<>();
                if (!any) {
                    m.put(key, 1.0);
                }
                out.add(m);
            }
            return out;
        }
        for (long t : steps) {
            long hi = t - offsetNanos;
            long lo = hi - rangeNanos;
            Map<Map<String, String>, Double> m = new HashMap<>();
            for (Map.Entry<Map<String, String>, SeriesBuffer> e : series.entrySet()) {
                SeriesBuffer b = e.getValue();
                int a = b.firstAfter(lo);
                int z = b.firstAfter(hi);
                if (a >= z) {
                    continue;
                }
                double value = RangeFunctions.apply(windowOp, r.parameter(), b.ts, b.values, a, z, rangeSeconds);
                m.put(e.getKey(), value);
            }
            out.add(m);
        }
        return out;
    }

    /**
     * Whether the stages from {@code from} on are all {@code | drop} of error labels ({@code | drop __error__,
     * __error_details__}, as generated queries append) after line filters only: no stage before them can set an error,
     * so they drop nothing, and the count is that of the line filters. Only under a {@code by} that keeps neither
     * label (without one, every label of a row shapes its series).
     */
    private static boolean onlyNoOpErrorDrops(List<Stage> stages, int from, Set<String> grouped) {
        if (grouped == null || grouped.stream().anyMatch(LineLabels::isError)) {
            return false;
        }
        for (int i = from; i < stages.size(); i++) {
            if (!(stages.get(i) instanceof Stage.Drop d)) {
                return false;
            }
            for (Stage.LabelSelect l : d.labels()) {
                if (!LineLabels.isError(l.name())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The samples of a count or byte range aggregation, or of an unwrapped one, as the source evaluates them from
     * its columns (line filters on bytes, then the rest of the pipeline as a {@link ColumnarPipeline}), grouped as
     * {@link #collect} would; null when the query has another shape or the source declines. Sums of rows sharing
     * their windows are integers, so every range function sees the same values; unwrapped samples stay one per row.
     */
    private Map<Map<String, String>, SeriesBuffer> counted(RangeAggregation r, EntrySource source, long from,
            long through, long[] steps, LabelGrouping grouping, SampleBudget budget) throws IOException {
        LogRange lr = r.range();
        boolean lineBytes = r.op() == RangeOp.BYTES_OVER_TIME || r.op() == RangeOp.BYTES_RATE;
        if (!sourceCounts || lr.unwrap() == null && !(lineBytes || r.op() == RangeOp.COUNT_OVER_TIME
                || r.op() == RangeOp.RATE)) {
            return null;
        }
        List<Stage> stages = lr.log().stages();
        int lineFilters = 0;
        while (lineFilters < stages.size() && stages.get(lineFilters) instanceof Stage.LineFilter) {
            lineFilters++;
        }
        Set<String> grouped = grouping == null ? null : grouping.keptNames();
        ColumnarPipeline pipeline = null;
        boolean filtersOnly = lineFilters == stages.size() || onlyNoOpErrorDrops(stages, lineFilters, grouped);
        if (!filtersOnly || lr.unwrap() != null) {
            pipeline = ColumnarPipeline.compile(lr, r.op(), grouped, lineFilters);
            if (pipeline == null) {
                return null;
            }
        }
        LineFilterBytes filter = LineFilterBytes.compile(stages.subList(0, lineFilters));
        long offsetNanos = lr.offset().toNanos();
        long rangeNanos = lr.range().toNanos();
        long[] boundaries = new long[steps.length * 2];
        for (int i = 0; i < steps.length; i++) {
            boundaries[2 * i] = steps[i] - offsetNanos - rangeNanos;
            boundaries[2 * i + 1] = steps[i] - offsetNanos;
        }
        Arrays.sort(boundaries);
        Optional<List<StreamSamples>> answer = source.countLines(new LineCountQuery(lr.log().selector(), filter,
                lineBytes, from, through, boundaries, grouped, pipeline, budget.remaining()));
        if (answer.isEmpty()) {
            return null;
        }
        Map<Map<String, String>, SeriesBuffer> series = new HashMap<>();
        for (StreamSamples s : answer.get()) {
            if (s.size() == 0) {
                continue;
            }
            LabelSet key = grouping == null ? LabelSet.of(s.labels()) : grouping.key(s.labels());
            SeriesBuffer b = series.get(key);
            if (b == null) {
                budget.take(SampleBudget.SERIES_SAMPLES);
                b = new SeriesBuffer();
                series.put(key, b);
            }
            budget.take(s.size());
            for (int i = 0; i < s.size(); i++) {
                b.add(s.timestamps()[i], s.values()[i]);
            }
        }
        for (SeriesBuffer b : series.values()) {
            b.sort();
        }
        return series;
    }

    private Map<Map<String, String>, SeriesBuffer> collect(RangeAggregation r, EntrySource source, long from,
            long through, LabelGrouping grouping, SampleBudget budget) throws IOException {
        LogRange lr = r.range();
        // as Loki, the unwrapped label stays a label only when a by() grouping names it
        RowSampler sampler = new RowSampler(lr, r.op(), grouping != null && grouping.keepsOnly());
        Map<Map<String, String>, SeriesBuffer> series = new HashMap<>();
        for (SourceStream s : source.select(lr.log().selector(), from, through, Direction.FORWARD)) {
            Iterator<StreamEntry> it = s.entries();
            while (it.hasNext()) {
                StreamEntry e = it.next();
                if (e.timestampNanos() <= from || e.timestampNanos() >= through) {
                    continue;
                }
                if (!sampler.sample(e.timestampNanos(), e.line(), s.labels(), e.structuredMetadata())) {
                    continue;
                }
                LineLabels labels = sampler.labels();
                if (labels.hasError() && !sampler.preservesErrors()) {
                    throw pipelineError(labels);
                }
                LabelSet key = grouping == null ? LabelSet.of(labels.view()) : grouping.key(labels);
                SeriesBuffer b = series.get(key);
                if (b == null) {
                    budget.take(SampleBudget.SERIES_SAMPLES);
                    b = new SeriesBuffer();
                    series.put(key, b);
                }
                budget.take(1);
                b.add(e.timestampNanos(), sampler.value());
            }
        }
        for (SeriesBuffer b : series.values()) {
            b.sort();
        }
        if (sampler.labels().referencedMetadata()) {
            source.structuredMetadataReferenced();
        }
        return series;
    }

    private static LogQLValidationException pipelineError(LineLabels labels) {
        String err = labels.get(LineLabels.ERROR);
        return new LogQLValidationException("pipeline error: '" + err + "' for series: '" + formatLabels(labels.all())
                + "'.\nUse a label filter to intentionally skip this error. (e.g | __error__!=\"" + err + "\").\n"
                + "To skip all potential errors you can match empty errors.(e.g __error__=\"\")\n"
                + "The label filter can also be specified after unwrap. (e.g | unwrap latency | __error__=\"\" )\n");
    }

    static String formatLabels(Map<String, String> labels) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append('=').append(GoStrings.quote(e.getValue()));
            first = false;
        }
        return sb.append('}').toString();
    }
}
