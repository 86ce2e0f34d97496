package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.*;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Evaluates queries over an {@link EntrySource}.
 *
 * <p>Log queries merge the selected streams by timestamp (a k-way merge over the lazy per-stream iterators, so
 * a limit stops reading early), run the pipeline per line and group the surviving lines by their final label
 * set. Metric queries are evaluated step by step like Loki/Prometheus: steps at start, start+step, ..., ≤ end;
 * at step t a range function sees the samples with timestamps in (t - offset - range, t - offset]. Range
 * aggregations are the {@link RangeAggregator}'s role (counts from a source's columns, or entries through the
 * pipeline, within a per-query {@link SampleBudget}). Vector aggregation, binary operators (PromQL vector matching), label_replace and vector()
 * are computed per step.
 *
 * <p>Stateless apart from its configuration, so one instance may serve concurrent queries; each call compiles
 * its own pipelines.
 */
public final class Engine {

    /** Loki's limit on points per series of a range query; bounds memory of a single query. */
    public static final int MAX_POINTS_PER_SERIES = 11_000;

    private static final Comparator<Map<String, String>> LABEL_ORDER = Engine::compareLabels;

    /**
     * Heap a query may fill with range-aggregation samples by default: a quarter of the JVM's maximum heap, so a
     * few wide queries at once fail with a clear error before the process runs out of memory.
     */
    static final double DEFAULT_HEAP_SHARE = 0.25;
    /** Heap per buffered sample: a long and a double, times two for the growth headroom of the arrays. */
    static final int BYTES_PER_SAMPLE = 32;

    private final boolean pushDownGrouping;
    private final long maxSamplesPerQuery;
    private final RangeAggregator ranges;

    /** Creates an engine with every optimization on. */
    public Engine() {
        this(true, true);
    }

    /**
     * The engine as it was before sources counted lines from their columns: every range aggregation reads
     * entries one at a time (the reference of property tests and the baseline of benchmarks).
     */
    public static Engine rowAtATime() {
        return new Engine(true, false);
    }

    /** The default per-query sample budget: {@link #DEFAULT_HEAP_SHARE} of the maximum heap. */
    static long defaultMaxSamples() {
        return Math.max(1, (long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_SHARE) / BYTES_PER_SAMPLE);
    }

    /**
     * Creates an engine; {@code pushDownGrouping} false evaluates {@code sum by (...) (rate(...))} and its kin
     * series by series (the reference path of tests and the baseline of benchmarks).
     */
    public Engine(boolean pushDownGrouping) {
        this(pushDownGrouping, true);
    }

    /**
     * Creates an engine; {@code sourceCounts} lets a source answer count and byte range aggregations over line
     * filters from its columns ({@link EntrySource#countLines}); false always reads entries.
     */
    public Engine(boolean pushDownGrouping, boolean sourceCounts) {
        this(pushDownGrouping, sourceCounts, defaultMaxSamples());
    }

    /**
     * As {@link #Engine(boolean, boolean)}, with a query failing ({@link QueryMemoryBudgetException}) once its range
     * aggregations hold more than {@code maxSamplesPerQuery} samples in memory.
     */
    public Engine(boolean pushDownGrouping, boolean sourceCounts, long maxSamplesPerQuery) {
        if (maxSamplesPerQuery < 1) {
            throw new IllegalArgumentException("maxSamplesPerQuery must be >= 1: " + maxSamplesPerQuery);
        }
        this.pushDownGrouping = pushDownGrouping;
        this.ranges = new RangeAggregator(sourceCounts);
        this.maxSamplesPerQuery = maxSamplesPerQuery;
    }

    // ------------------------------------------------------------------ log queries

    /** Evaluates a log query over [startNanos, endNanos), returning at most {@code limit} entries in {@code dir} order. */
    public LogQueryResult evalLogs(LogExpr expr, EntrySource source, long startNanos, long endNanos, int limit,
            Direction dir) throws IOException {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, got " + limit);
        }
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("end " + endNanos + " is before start " + startNanos);
        }
        List<SourceStream> streams = source.select(expr.selector(), startNanos, endNanos, dir);
        Pipeline pipeline = Pipeline.compile(expr.stages());
        boolean forward = dir == Direction.FORWARD;
        Comparator<Head> order = (a, b) -> {
            int c = forward ? Long.compare(a.timestampNanos, b.timestampNanos) : Long.compare(b.timestampNanos, a.timestampNanos);
            return c != 0 ? c : Integer.compare(a.index, b.index);
        };
        PriorityQueue<Head> heads = new PriorityQueue<>(Math.max(1, streams.size()), order);
        Map<Map<String, String>, Group> groups = new HashMap<>();
        for (int i = 0; i < streams.size(); i++) {
            Head h = new Head(i, streams.get(i), pipeline, groups, startNanos, endNanos);
            if (h.advance()) {
                heads.add(h);
            }
        }
        int count = 0;
        while (!heads.isEmpty() && count < limit) {
            Head h = heads.poll();
            if (h.entry != null) {
                groups.computeIfAbsent(h.groupKey, k -> new Group(h.streamLabels)).entries.add(h.entry);
                count++;
            }
            if (h.advance()) {
                heads.add(h);
            }
        }
        List<Map<String, String>> keys = new ArrayList<>(groups.keySet());
        sortByLabels(keys);
        List<ResultStream> out = new ArrayList<>();
        for (Map<String, String> k : keys) {
            Group g = groups.get(k);
            out.add(new ResultStream(k, g.streamLabels, g.entries));
        }
        if (pipeline.labels().referencedMetadata()) {
            source.structuredMetadataReferenced();
        }
        return new LogQueryResult(out);
    }

    /**
     * How many raw entries a stream may run through the pipeline between two visits of the merge heap: lines
     * that are filtered out then cost no heap operation, while a satisfied limit still stops every stream at most
     * this many entries past the last returned time (the lazy chunk reads behind a stream stay bounded).
     */
    private static final int LOOKAHEAD_ENTRIES = 64;

    /**
     * One stream in the k-way merge of a log query: either its next surviving line (with its result computed),
     * or, after {@value #LOOKAHEAD_ENTRIES} filtered-out entries, a marker keyed by the last time read — a lower
     * bound for the stream's remaining lines, since a stream's entries come sorted in the query direction. A
     * {@link LazyEntries} stream is also a marker, keyed by its {@link LazyEntries#boundNanos}, before its first read
     * and whenever its buffered entries run out: its next block is read only when the merge reaches that bound, so a
     * limit met by newer lines of other streams leaves it unread. The heap orders heads by (time, stream index),
     * which is the order of the merged lines.
     */
    private static final class Head {
        final int index;
        final SourceStream stream;
        final Pipeline pipeline;
        final Map<Map<String, String>, Group> groups;
        final long startNanos;
        final long endNanos;
        long timestampNanos;
        /** The surviving line's result, or null for a marker. */
        ResultEntry entry;
        LabelSet groupKey;
        Map<String, String> streamLabels;
        /** Whether {@link #advance} ran before: a fresh lazy stream first enters the heap by its bound, unread. */
        boolean started;

        Head(int index, SourceStream stream, Pipeline pipeline, Map<Map<String, String>, Group> groups,
                long startNanos, long endNanos) {
            this.index = index;
            this.stream = stream;
            this.pipeline = pipeline;
            this.groups = groups;
            this.startNanos = startNanos;
            this.endNanos = endNanos;
        }

        /** Reads to the next surviving line or the next marker; false when the stream is exhausted. */
        boolean advance() {
            Iterator<StreamEntry> it = stream.entries();
            entry = null;
            for (int read = 0; read < LOOKAHEAD_ENTRIES; read++) {
                // a stream not read yet, or whose next entry needs a read after this call read some, waits in the
                // heap by its bound: a limit reached before its turn leaves those blocks unread
                if ((read > 0 || !started) && it instanceof LazyEntries lazy && !lazy.nextBuffered()) {
                    started = true;
                    long bound = lazy.boundNanos();
                    if (bound == Long.MIN_VALUE || bound == Long.MAX_VALUE) {
                        return false;
                    }
                    timestampNanos = bound;
                    return true;
                }
                started = true;
                if (!it.hasNext()) {
                    return false;
                }
                StreamEntry e = it.next();
                long ts = e.timestampNanos();
                timestampNanos = ts;
                if (ts < startNanos || ts >= endNanos) {
                    continue;
                }
                String line = pipeline.process(ts, e.line(), stream.labels(), e.structuredMetadata());
                if (line != null) {
                    LineLabels labels = pipeline.labels();
                    groupKey = LabelSet.of(labels.view());
                    streamLabels = groups.containsKey(groupKey) ? null : labels.of(LineLabels.Origin.STREAM);
                    entry = new ResultEntry(ts, line, labels.of(LineLabels.Origin.METADATA),
                            labels.of(LineLabels.Origin.PARSED));
                    return true;
                }
            }
            return true;
        }
    }

    private static final class Group {
        final Map<String, String> streamLabels;
        final List<ResultEntry> entries = new ArrayList<>();

        Group(Map<String, String> streamLabels) {
            this.streamLabels = streamLabels;
        }
    }

    // ------------------------------------------------------------------ metric queries

    /** Evaluates a metric query at steps start, start+step, ..., ≤ end; returns a matrix. */
    public MetricResult.Matrix evalRange(SampleExpr expr, EntrySource source, long startNanos, long endNanos,
            long stepNanos) throws IOException {
        if (stepNanos <= 0) {
            throw new IllegalArgumentException("zero or negative query resolution step widths are not accepted. "
                    + "Try a positive integer (step " + stepNanos + "ns)");
        }
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("end " + endNanos + " is before start " + startNanos);
        }
        long n = (endNanos - startNanos) / stepNanos + 1;
        if (n > MAX_POINTS_PER_SERIES) {
            throw new IllegalArgumentException("exceeded maximum resolution of 11,000 points per timeseries. "
                    + "Try increasing the value of the step parameter (" + n + " points requested)");
        }
        long[] steps = new long[(int) n];
        for (int i = 0; i < n; i++) {
            steps[i] = startNanos + i * stepNanos;
        }
        Value v = eval(expr, new Context(source, steps, new SampleBudget(maxSamplesPerQuery)));
        Map<Map<String, String>, List<MetricResult.Point>> series = new HashMap<>();
        if (v instanceof ScalarValue s) {
            List<MetricResult.Point> pts = new ArrayList<>();
            for (int i = 0; i < steps.length; i++) {
                pts.add(new MetricResult.Point(steps[i], s.values[i]));
            }
            return new MetricResult.Matrix(List.of(new MetricResult.Series(Map.of(), pts)));
        }
        VectorValue vec = (VectorValue) v;
        for (int i = 0; i < steps.length; i++) {
            for (Map.Entry<Map<String, String>, Double> e : vec.steps.get(i).entrySet()) {
                series.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new MetricResult.Point(steps[i], e.getValue()));
            }
        }
        List<Map<String, String>> keys = new ArrayList<>(series.keySet());
        sortByLabels(keys);
        List<MetricResult.Series> out = new ArrayList<>();
        for (Map<String, String> k : keys) {
            out.add(new MetricResult.Series(k, series.get(k)));
        }
        return new MetricResult.Matrix(out);
    }

    /** Evaluates a metric query at one instant; returns a vector, or a scalar for scalar expressions. */
    public MetricResult evalInstant(SampleExpr expr, EntrySource source, long timeNanos) throws IOException {
        Value v = eval(expr, new Context(source, new long[] {timeNanos}, new SampleBudget(maxSamplesPerQuery)));
        if (v instanceof ScalarValue s) {
            return new MetricResult.Scalar(timeNanos, s.values[0]);
        }
        Map<Map<String, String>, Double> step = ((VectorValue) v).steps.get(0);
        List<MetricResult.Sample> out = new ArrayList<>();
        for (Map.Entry<Map<String, String>, Double> e : step.entrySet()) {
            out.add(new MetricResult.Sample(e.getKey(), timeNanos, e.getValue()));
        }
        if (!(step instanceof LinkedHashMap) || !isSorted(expr)) {
            List<Map.Entry<String, MetricResult.Sample>> keyed = new ArrayList<>(out.size());
            out.forEach(x -> keyed.add(Map.entry(sortKey(x.metric()), x)));
            keyed.sort(Map.Entry.comparingByKey());
            out.clear();
            keyed.forEach(x -> out.add(x.getValue()));
        }
        return new MetricResult.Vector(out);
    }

    private static boolean isSorted(SampleExpr e) {
        return e instanceof VectorAggregation v && (v.op() == VectorOp.SORT || v.op() == VectorOp.SORT_DESC);
    }

    private record Context(EntrySource source, long[] steps, SampleBudget budget) {
    }

    private sealed interface Value permits ScalarValue, VectorValue {
    }

    private record ScalarValue(double[] values) implements Value {
    }

    /** Per step: label set → value. */
    private record VectorValue(List<Map<Map<String, String>, Double>> steps) implements Value {
    }

    private Value eval(SampleExpr e, Context ctx) throws IOException {
        if (e instanceof Literal l) {
            double[] v = new double[ctx.steps.length];
            Arrays.fill(v, l.value());
            return new ScalarValue(v);
        }
        if (e instanceof VectorLiteral l) {
            List<Map<Map<String, String>, Double>> steps = new ArrayList<>();
            for (int i = 0; i < ctx.steps.length; i++) {
                Map<Map<String, String>, Double> m = new HashMap<>();
                m.put(Map.of(), l.value());
                steps.add(m);
            }
            return new VectorValue(steps);
        }
        if (e instanceof RangeAggregation r) {
            return new VectorValue(ranges.evaluate(r, ctx.source, ctx.steps, ctx.budget, false, null));
        }
        if (e instanceof VectorAggregation v) {
            if (pushDownGrouping && v.inner() instanceof RangeAggregation r && groupsBeforeRange(v.op(), r.op())) {
                // sum by (g) (rate(...)): one series per group already; the aggregation below just relabels it
                return vectorAggregation(v, new VectorValue(ranges.evaluate(r, ctx.source, ctx.steps, ctx.budget, true,
                        v.grouping())));
            }
            return vectorAggregation(v, (VectorValue) eval(v.inner(), ctx));
        }
        if (e instanceof LabelReplace r) {
            return labelReplace(r, eval(r.inner(), ctx));
        }
        Binary b = (Binary) e;
        return binary(b, eval(b.lhs(), ctx), eval(b.rhs(), ctx));
    }

    // ---- range aggregation

    /**
     * Whether {@code op by (g) (rangeOp(...))} equals applying rangeOp to the samples of each group merged into one
     * series: true where the outer operation distributes over the window function (a sum of window sums, a min
     * of window mins, ...), so the engine never builds one series per distinct label set (with per-line
     * structured metadata, one per line). Loki's sharding relies on the same identities. Sums of rates differ
     * from the rate of the summed counts only by floating-point rounding; count of series, averages, quantiles
     * and topk do not distribute and are never pushed down.
     */
    static boolean groupsBeforeRange(VectorOp op, RangeOp rangeOp) {
        return switch (op) {
            case SUM -> rangeOp == RangeOp.RATE || rangeOp == RangeOp.COUNT_OVER_TIME || rangeOp == RangeOp.BYTES_RATE
                    || rangeOp == RangeOp.BYTES_OVER_TIME || rangeOp == RangeOp.SUM_OVER_TIME;
            case MIN -> rangeOp == RangeOp.MIN_OVER_TIME;
            case MAX -> rangeOp == RangeOp.MAX_OVER_TIME;
            default -> false;
        };
    }

    // ---- vector aggregation

    private static TreeMap<String, String> group(Map<String, String> labels, Grouping g) {
        TreeMap<String, String> out = new TreeMap<>();
        if (g == null) {
            return out;
        }
        if (g.without()) {
            out.putAll(labels);
            for (String l : g.labels()) {
                out.remove(l);
            }
        } else {
            for (String l : g.labels()) {
                String v = labels.get(l);
                if (v != null) {
                    out.put(l, v);
                }
            }
        }
        return out;
    }

    private Value vectorAggregation(VectorAggregation v, VectorValue in) {
        List<Map<Map<String, String>, Double>> out = new ArrayList<>();
        for (Map<Map<String, String>, Double> step : in.steps) {
            out.add(aggregateStep(v, step));
        }
        return new VectorValue(out);
    }

    private static Map<Map<String, String>, Double> aggregateStep(VectorAggregation v, Map<Map<String, String>, Double> step) {
        switch (v.op()) {
            case SORT, SORT_DESC -> {
                List<Map.Entry<Map<String, String>, Double>> es = new ArrayList<>(step.entrySet());
                Comparator<Map.Entry<Map<String, String>, Double>> c = Comparator.comparingDouble(Map.Entry::getValue);
                if (v.op() == VectorOp.SORT_DESC) {
                    c = c.reversed();
                }
                es.sort(c.thenComparing(Map.Entry::getKey, LABEL_ORDER));
                Map<Map<String, String>, Double> m = new LinkedHashMap<>();
                es.forEach(e -> m.put(e.getKey(), e.getValue()));
                return m;
            }
            case TOPK, BOTTOMK -> {
                Map<Map<String, String>, List<Map.Entry<Map<String, String>, Double>>> groups = new HashMap<>();
                for (Map.Entry<Map<String, String>, Double> e : step.entrySet()) {
                    groups.computeIfAbsent(group(e.getKey(), v.grouping()), k -> new ArrayList<>()).add(e);
                }
                Map<Map<String, String>, Double> m = new HashMap<>();
                Comparator<Map.Entry<Map<String, String>, Double>> c = Comparator.comparingDouble(e -> nanLast(e.getValue(), v.op() == VectorOp.TOPK));
                if (v.op() == VectorOp.TOPK) {
                    c = c.reversed();
                }
                c = c.thenComparing(Map.Entry::getKey, LABEL_ORDER);
                for (List<Map.Entry<Map<String, String>, Double>> g : groups.values()) {
                    g.sort(c);
                    for (int i = 0; i < Math.min(v.parameter(), g.size()); i++) {
                        m.put(g.get(i).getKey(), g.get(i).getValue());
                    }
                }
                return m;
            }
            default -> {
                Map<Map<String, String>, List<Double>> all = new HashMap<>();
                LabelGrouping grouping = LabelGrouping.of(java.util.Collections.singletonList(v.grouping()));
                for (Map.Entry<Map<String, String>, Double> e : step.entrySet()) {
                    all.computeIfAbsent(grouping.key(e.getKey()), k -> new ArrayList<>()).add(e.getValue());
                }
                Map<Map<String, String>, Double> m = new HashMap<>();
                for (Map.Entry<Map<String, String>, List<Double>> e : all.entrySet()) {
                    m.put(e.getKey(), aggregate(v.op(), e.getValue()));
                }
                return m;
            }
        }
    }

    private static double nanLast(double v, boolean top) {
        if (Double.isNaN(v)) {
            return top ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return v;
    }

    private static double aggregate(VectorOp op, List<Double> values) {
        int n = values.size();
        switch (op) {
            case SUM: {
                double s = 0;
                for (double d : values) {
                    s += d;
                }
                return s;
            }
            case AVG: {
                double mean = 0;
                int i = 0;
                for (double d : values) {
                    i++;
                    mean += (d - mean) / i;
                }
                return mean;
            }
            case MIN: {
                double m = Double.NaN;
                for (double d : values) {
                    if (Double.isNaN(m) || d < m) {
                        m = d;
                    }
                }
                return m;
            }
            case MAX: {
                double m = Double.NaN;
                for (double d : values) {
                    if (Double.isNaN(m) || d > m) {
                        m = d;
                    }
                }
                return m;
            }
            case COUNT:
                return n;
            case STDVAR:
            case STDDEV: {
                double mean = 0;
                double m2 = 0;
                int i = 0;
                for (double d : values) {
                    i++;
                    double delta = d - mean;
                    mean += delta / i;
                    m2 += delta * (d - mean);
                }
                double var = m2 / n;
                return op == VectorOp.STDDEV ? Math.sqrt(var) : var;
            }
            default:
                throw new IllegalStateException("BUG: not a simple aggregation: " + op);
        }
    }

    // ---- label_replace

    private static Value labelReplace(LabelReplace r, Value in) {
        if (in instanceof ScalarValue) {
            throw new LogQLValidationException("label_replace expects a vector, got a scalar");
        }
        com.google.re2j.Pattern p = Matcher.anchored(r.regex());
        List<Map<Map<String, String>, Double>> out = new ArrayList<>();
        for (Map<Map<String, String>, Double> step : ((VectorValue) in).steps) {
            Map<Map<String, String>, Double> m = new HashMap<>();
            for (Map.Entry<Map<String, String>, Double> e : step.entrySet()) {
                String src = e.getKey().getOrDefault(r.source(), "");
                com.google.re2j.Matcher mm = p.matcher(src);
                Map<String, String> key = e.getKey();
                if (mm.matches()) {
                    String value = GoRegex.expand(r.replacement(), mm, p);
                    TreeMap<String, String> k = new TreeMap<>(key);
                    if (value.isEmpty()) {
                        k.remove(r.destination());
                    } else {
                        k.put(r.destination(), value);
                    }
                    key = LabelSet.of(k);
                }
                m.put(key, e.getValue());
            }
            out.add(m);
        }
        return new VectorValue(out);
    }

    // ---- binary operators

    private Value binary(Binary b, Value l, Value r) {
        BinaryOp op = b.op();
        boolean bool = b.modifiers().returnBool();
        if (l instanceof ScalarValue ls && r instanceof ScalarValue rs) {
            double[] out = new double[ls.values.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = scalarOp(op, ls.values[i], rs.values[i], bool);
            }
            return new ScalarValue(out);
        }
        if (l instanceof VectorValue lv && r instanceof ScalarValue rs) {
            return vectorScalar(op, lv, rs.values, false, bool);
        }
        if (l instanceof ScalarValue ls && r instanceof VectorValue rv) {
            return vectorScalar(op, rv, ls.values, true, bool);
        }
        VectorValue lv = (VectorValue) l;
        VectorValue rv = (VectorValue) r;
        List<Map<Map<String, String>, Double>> out = new ArrayList<>();
        for (int i = 0; i < lv.steps.size(); i++) {
            out.add(vectorVector(op, bool, b.modifiers().matching(), lv.steps.get(i), rv.steps.get(i)));
        }
        return new VectorValue(out);
    }

    /** The value of {@code a op b} for two numbers; a comparison yields 1 or 0. */
    static double scalarBinary(BinaryOp op, double a, double b) {
        return scalarOp(op, a, b, true);
    }

    private static double scalarOp(BinaryOp op, double a, double b, boolean bool) {
        return switch (op) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> b == 0 ? Double.NaN : a / b; // Loki guards division by zero with NaN
            case MOD -> b == 0 ? Double.NaN : a % b;
            case POW -> Math.pow(a, b);
            case EQ -> a == b ? 1 : 0;
            case NEQ -> a != b ? 1 : 0;
            case GT -> a > b ? 1 : 0;
            case GTE -> a >= b ? 1 : 0;
            case LT -> a < b ? 1 : 0;
            case LTE -> a <= b ? 1 : 0;
            default -> throw new IllegalStateException("BUG: set operator between scalars: " + op);
        };
    }

    private static VectorValue vectorScalar(BinaryOp op, VectorValue v, double[] scalar, boolean scalarLeft, boolean bool) {
        if (op.setOp()) {
            throw new LogQLValidationException("set operator \"" + op.symbol() + "\" not allowed in binary scalar expression");
        }
        List<Map<Map<String, String>, Double>> out = new ArrayList<>();
        for (int i = 0; i < v.steps.size(); i++) {
            Map<Map<String, String>, Double> m = new HashMap<>();
            for (Map.Entry<Map<String, String>, Double> e : v.steps.get(i).entrySet()) {
                double a = scalarLeft ? scalar[i] : e.getValue();
                double b = scalarLeft ? e.getValue() : scalar[i];
                double res = scalarOp(op, a, b, bool);
                if (op.comparison()) {
                    if (bool) {
                        m.put(e.getKey(), res);
                    } else if (res == 1) {
                        m.put(e.getKey(), e.getValue());
                    }
                } else {
                    m.put(e.getKey(), res);
                }
            }
            out.add(m);
        }
        return new VectorValue(out);
    }

    private static Map<String, String> signature(Map<String, String> labels, VectorMatching vm) {
        TreeMap<String, String> out = new TreeMap<>();
        if (vm == null) {
            out.putAll(labels);
        } else if (vm.on()) {
            for (String l : vm.labels()) {
                String v = labels.get(l);
                if (v != null) {
                    out.put(l, v);
                }
            }
        } else {
            out.putAll(labels);
            vm.labels().forEach(out::remove);
        }
        return out;
    }

    private static Map<Map<String, String>, Double> vectorVector(BinaryOp op, boolean bool, VectorMatching vm,
            Map<Map<String, String>, Double> lhs, Map<Map<String, String>, Double> rhs) {
        Map<Map<String, String>, Double> out = new HashMap<>();
        if (op.setOp()) {
            java.util.Set<Map<String, String>> rightSigs = new java.util.HashSet<>();
            for (Map<String, String> k : rhs.keySet()) {
                rightSigs.add(signature(k, vm));
            }
            switch (op) {
                case AND -> lhs.forEach((k, v) -> {
                    if (rightSigs.contains(signature(k, vm))) {
                        out.put(k, v);
                    }
                });
                case UNLESS -> lhs.forEach((k, v) -> {
                    if (!rightSigs.contains(signature(k, vm))) {
                        out.put(k, v);
                    }
                });
                default -> {
                    java.util.Set<Map<String, String>> leftSigs = new java.util.HashSet<>();
                    lhs.forEach((k, v) -> {
                        out.put(k, v);
                        leftSigs.add(signature(k, vm));
                    });
                    rhs.forEach((k, v) -> {
                        if (!leftSigs.contains(signature(k, vm))) {
                            out.put(k, v);
                        }
                    });
                }
            }
            return out;
        }
        Cardinality card = vm == null ? Cardinality.ONE_TO_ONE : vm.cardinality();
        Map<Map<String, String>, Double> many = lhs;
        Map<Map<String, String>, Double> one = rhs;
        boolean swapped = card == Cardinality.ONE_TO_MANY;
        if (swapped) {
            many = rhs;
            one = lhs;
        }
        Map<Map<String, String>, Map.Entry<Map<String, String>, Double>> oneBySig = new HashMap<>();
        for (Map.Entry<Map<String, String>, Double> e : one.entrySet()) {
            Map<String, String> sig = signature(e.getKey(), vm);
            if (oneBySig.put(sig, e) != null) {
                throw new LogQLValidationException("found duplicate series for the match group " + RangeAggregator.formatLabels(sig)
                        + " on the " + (swapped ? "left" : "right")
                        + " hand-side of the operation; many-to-many matching not allowed: matching labels must be "
                        + "unique on one side");
            }
        }
        java.util.Set<Map<String, String>> seenSigs = new java.util.HashSet<>();
        for (Map.Entry<Map<String, String>, Double> e : many.entrySet()) {
            Map<String, String> sig = signature(e.getKey(), vm);
            Map.Entry<Map<String, String>, Double> match = oneBySig.get(sig);
            if (match == null) {
                continue;
            }
            if (card == Cardinality.ONE_TO_ONE && !seenSigs.add(sig)) {
                throw new LogQLValidationException("multiple matches for labels: many-to-one matching must be explicit "
                        + "(group_left/group_right)");
            }
            double lval = swapped ? match.getValue() : e.getValue();
            double rval = swapped ? e.getValue() : match.getValue();
            double res = scalarOp(op, lval, rval, bool);
            double value;
            if (op.comparison()) {
                if (!bool && res == 0) {
                    continue;
                }
                value = bool ? res : lval;
            } else {
                value = res;
            }
            out.put(resultLabels(e.getKey(), match.getKey(), vm, card), value);
        }
        return out;
    }

    private static Map<String, String> resultLabels(Map<String, String> many, Map<String, String> one, VectorMatching vm,
            Cardinality card) {
        TreeMap<String, String> out = new TreeMap<>(many);
        if (vm != null) {
            if (card == Cardinality.ONE_TO_ONE) {
                if (vm.on()) {
                    out.keySet().retainAll(vm.labels());
                } else {
                    vm.labels().forEach(out::remove);
                }
            }
            for (String l : vm.include()) {
                String v = one.get(l);
                if (v != null && !v.isEmpty()) {
                    out.put(l, v);
                } else {
                    out.remove(l);
                }
            }
        }
        return LabelSet.of(out);
    }

    // ---- helpers

    /** Sorts label sets in the order the engine returns series and streams (name, then value, pair by pair), computing each set's sort key once. */
    public static void sortByLabels(List<Map<String, String>> keys) {
        List<Map.Entry<String, Map<String, String>>> keyed = new ArrayList<>(keys.size());
        for (Map<String, String> k : keys) {
            keyed.add(Map.entry(sortKey(k), k));
        }
        keyed.sort(Map.Entry.comparingByKey());
        for (int i = 0; i < keyed.size(); i++) {
            keys.set(i, keyed.get(i).getValue());
        }
    }

    /** A string whose natural order is the label order (name, then value, pair by pair). */
    static String sortKey(Map<String, String> labels) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            sb.append(e.getKey()).append('\u0000').append(e.getValue()).append('\u0000');
        }
        return sb.toString();
    }

    static int compareLabels(Map<String, String> a, Map<String, String> b) {
        Iterator<Map.Entry<String, String>> ia = new TreeMap<>(a).entrySet().iterator();
        Iterator<Map.Entry<String, String>> ib = new TreeMap<>(b).entrySet().iterator();
        while (ia.hasNext() && ib.hasNext()) {
            Map.Entry<String, String> x = ia.next();
            Map.Entry<String, String> y = ib.next();
            int c = x.getKey().compareTo(y.getKey());
            if (c != 0) {
                return c;
            }
            c = x.getValue().compareTo(y.getValue());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(ia.hasNext(), ib.hasNext());
    }
}
