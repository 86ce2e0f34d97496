package io.logbloom.querier;

import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.LogQL;
import io.logbloom.logql.LogQLValidationException;
import io.logbloom.logql.MetricResult;
import io.logbloom.logql.SampleExpr;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Evaluates metric range queries split by time, answering old splits from the {@link ResultsCache} (Loki's
 * query-frontend split-by-interval plus results cache).
 *
 * <p>Why the merge equals the whole evaluation: a range query's value at step t depends only on the rows each
 * range aggregation reads in its window ending at t (minus its offset), never on other steps. A split is a run of
 * the query's own step grid (the runner aligns start and end to multiples of the step, so every query with that
 * step shares one grid) cut at multiples of the split interval, and the engine evaluates each split with the full
 * lookback of its first step, so each step sees the same rows as in the whole evaluation. Series are then joined by
 * labels and ordered as the engine orders them. The splits together read every row the whole evaluation reads, so
 * if none fails the whole would not fail either; if one fails (a pipeline error, a budget), the query is evaluated
 * whole, so errors are exactly the whole evaluation's too.
 *
 * <p>Which splits are cached: a split is always the whole interval (the query's part of it is trimmed out), so a
 * dashboard whose window slides reuses its older splits. Only steps older than {@code now - maxFreshness} are looked
 * up or stored: a split wholly before that line is cached whole, and the newest split is cached as an extent (Loki's
 * results cache keeps extents the same way) from its first step up to the last step before the line, while its
 * steps after the line are evaluated afresh each time. A later request whose line has moved on extends the cached
 * extent by evaluating only the steps between its end and the new line (the same split argument as above: a run of
 * steps evaluated with its full lookback), so a dashboard refreshing {@code [now-6h, now]} evaluates only the last
 * {@code maxFreshness} of data plus the steps since its previous refresh. An entry is used only while every read it
 * made (for an extended entry, the reads of each part) still sees the same version (see
 * {@link VersionedEntrySource}): late flushes, compactions, retention and delete requests make it miss.
 *
 * <p>Thread-safe: the cache is; per-query state stays on the stack.
 */
final class SplitRangeEvaluator {
    private final Querier querier;
    private final Engine engine;
    private final ResultsCacheConfig config;
    private final ResultsCache cache;
    private final QuerySourceFilter filter;

    /** Opens a fresh entry source for one evaluation (one split, or the whole query). */
    @FunctionalInterface
    interface SourceFactory {
        /** {@code inner} (the store's source, possibly recording its reads) as the query sees it. */
        EntrySource open(java.util.function.UnaryOperator<EntrySource> inner) throws IOException;
    }

    SplitRangeEvaluator(Querier querier, Engine engine, ResultsCacheConfig config, QuerySourceFilter filter) {
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.engine = Objects.requireNonNull(engine, "engine is null");
        this.config = Objects.requireNonNull(config, "config is null");
        this.filter = Objects.requireNonNull(filter, "filter is null");
        this.cache = config.enabled() ? new ResultsCache(config.maxBytes(), querier.metrics()) : null;
    }

    /**
     * The matrix of {@code expr} at steps start, start+step, …, ≤ end ({@code start} and {@code end} multiples of
     * {@code step}); split and cached unless the cache is off or {@code cacheAllowed} is false.
     */
    MetricResult.Matrix evalRange(String tenant, SampleExpr expr, long startNanos, long endNanos, long stepNanos,
            boolean cacheAllowed, SourceFactory sources) throws IOException {
        long points = (endNanos - startNanos) / stepNanos + 1;
        if (cache == null || !cacheAllowed || points > Engine.MAX_POINTS_PER_SERIES) {
            // too many points: the engine's own resolution error applies to the whole query
            return engine.evalRange(expr, sources.open(s -> s), startNanos, endNanos, stepNanos);
        }
        try {
            return splitAndMerge(tenant, expr, startNanos, endNanos, stepNanos, sources);
        } catch (IllegalArgumentException | LogQLValidationException e) {
            // a split also reads rows outside the query's own windows (its whole interval), and which bad row is met
            // first depends on the order of reads: the whole evaluation decides between its answer and its error
            return engine.evalRange(expr, sources.open(s -> s), startNanos, endNanos, stepNanos);
        }
    }

    private MetricResult.Matrix splitAndMerge(String tenant, SampleExpr expr, long startNanos, long endNanos,
            long stepNanos, SourceFactory sources) throws IOException {
        String query = LogQL.format(expr);
        long interval = config.splitInterval().toNanos();
        long freshFrom = nowNanos() - config.maxFreshness().toNanos();
        Map<Map<String, String>, List<MetricResult.Point>> merged = new LinkedHashMap<>();
        // steps sit on the grid of stepNanos and endNanos is one of them (QueryRunner aligns it), so a step after one
        // below endNanos still fits in a long; the step after endNanos need not (a step of centuries), hence the
        // loop ends at endNanos instead of stepping past it, and a split's end saturates
        long t = startNanos;
        while (true) {
            long splitStart = Math.floorDiv(t, interval) * interval;
            long splitEnd = splitStart > Long.MAX_VALUE - interval ? Long.MAX_VALUE : splitStart + interval - 1;
            long lastOfSplit = Math.floorDiv(splitEnd, stepNanos) * stepNanos;
            long last = Math.min(endNanos, lastOfSplit);
            long firstOfSplit = Math.floorDiv(splitStart + stepNanos - 1, stepNanos) * stepNanos;
            ResultsCache.SplitKey key = new ResultsCache.SplitKey(tenant, query, stepNanos, firstOfSplit, lastOfSplit);
            // the last step of this split old enough to cache: all of it, part of it (an extent), or none
            long lastOld = Math.min(lastOfSplit, Math.floorDiv(freshFrom - 1, stepNanos) * stepNanos);
            long evalFrom = t;
            if (lastOld >= t) {
                long through = Math.min(last, lastOld);
                add(merged, cached(key, lastOld, expr, sources), t, through);
                evalFrom = through < last ? through + stepNanos : Long.MAX_VALUE;
            }
            if (evalFrom <= last) {
                add(merged, engine.evalRange(expr, sources.open(s -> s), evalFrom, last, stepNanos), evalFrom, last);
            }
            if (last >= endNanos) {
                return matrix(merged);
            }
            t = last + stepNanos;
        }
    }

    /** The series of {@code points}, ordered by labels as the engine orders them. */
    private static MetricResult.Matrix matrix(Map<Map<String, String>, List<MetricResult.Point>> points) {
        List<Map<String, String>> keys = new ArrayList<>(points.keySet());
        Engine.sortByLabels(keys);
        List<MetricResult.Series> out = new ArrayList<>(keys.size());
        for (Map<String, String> k : keys) {
            out.add(new MetricResult.Series(k, points.get(k)));
        }
        return new MetricResult.Matrix(out);
    }

    private static void add(Map<Map<String, String>, List<MetricResult.Point>> merged, MetricResult.Matrix part,
            long fromStep, long throughStep) {
        for (MetricResult.Series s : part.series()) {
            for (MetricResult.Point p : s.points()) {
                if (p.timestampNanos() >= fromStep && p.timestampNanos() <= throughStep) {
                    merged.computeIfAbsent(s.metric(), k -> new ArrayList<>()).add(p);
                }
            }
        }
    }

    /**
     * The split {@code key} evaluated from its first step through {@code throughStep} (its last, or an earlier one
     * for an extent): from the cache when an unchanged entry covers it, by extending an unchanged entry that
     * stops earlier with only the missing steps, else evaluated whole; stored when every read was cacheable.
     */
    private MetricResult.Matrix cached(ResultsCache.SplitKey key, long throughStep, SampleExpr expr,
            SourceFactory sources) throws IOException {
        ResultsCache.Entry entry = cache.get(key);
        if (entry != null && !unchanged(key.tenant(), entry)) {
            cache.remove(key);
            entry = null;
        }
        if (entry != null && entry.lastStepNanos() >= throughStep) {
            querier.metrics().resultsCacheRequest(true);
            return entry.result();
        }
        querier.metrics().resultsCacheRequest(entry != null);
        long from = entry == null ? key.firstStepNanos() : entry.lastStepNanos() + key.stepNanos();
        VersionedEntrySource[] versioned = new VersionedEntrySource[1];
        EntrySource source = sources.open(inner -> {
            versioned[0] = new VersionedEntrySource(inner, querier, key.tenant(), filter);
            return versioned[0];
        });
        MetricResult.Matrix result = engine.evalRange(expr, source, from, throughStep, key.stepNanos());
        VersionedEntrySource v = versioned[0];
        if (v == null) {
            throw new IllegalStateException("BUG: the source factory did not use the store's source");
        }
        if (entry != null) {
            result = concat(entry.result(), result);
        }
        if (v.cacheable()) {
            List<ResultsCache.SplitRead> reads = new ArrayList<>(v.reads());
            List<List<String>> versions = new ArrayList<>(v.versions());
            if (entry != null) {
                reads.addAll(entry.reads());
                versions.addAll(entry.versions());
            }
            cache.put(key, new ResultsCache.Entry(result, reads, versions, throughStep));
        }
        return result;
    }

    /** The series of {@code older} with the points of {@code newer} (later steps) appended, ordered by labels. */
    private static MetricResult.Matrix concat(MetricResult.Matrix older, MetricResult.Matrix newer) {
        Map<Map<String, String>, List<MetricResult.Point>> points = new LinkedHashMap<>();
        for (MetricResult.Matrix m : List.of(older, newer)) {
            for (MetricResult.Series s : m.series()) {
                points.computeIfAbsent(s.metric(), k -> new ArrayList<>()).addAll(s.points());
            }
        }
        return matrix(points);
    }

    private boolean unchanged(String tenant, ResultsCache.Entry entry) throws IOException {
        for (int i = 0; i < entry.reads().size(); i++) {
            java.util.Optional<List<String>> now = VersionedEntrySource.version(querier, filter, tenant,
                    entry.reads().get(i));
            if (now.isEmpty() || !now.get().equals(entry.versions().get(i))) {
                return false;
            }
        }
        return true;
    }

    private long nowNanos() {
        java.time.Instant now = querier.clock().instant();
        return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
    }

    /** The results cache, or null when it is off (for tests). */
    ResultsCache cache() {
        return cache;
    }
}
