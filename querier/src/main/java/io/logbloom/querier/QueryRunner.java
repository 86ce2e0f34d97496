package io.logbloom.querier;

import io.logbloom.logql.Direction;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.Expr;
import io.logbloom.logql.LogExpr;
import io.logbloom.logql.LogQL;
import io.logbloom.logql.LogQLParseException;
import io.logbloom.logql.LogQLValidationException;
import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.MetricResult;
import io.logbloom.logql.SampleExpr;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.time.Duration;
import java.util.function.Function;

/**
 * Runs LogQL queries: parse, check limits, derive one bloom query per selector from the log
 * expressions that read it, evaluate with the LogQL {@link Engine} over a {@link QuerierEntrySource}
 * (which skips, fetches and merges lazily, so a log query stops fetching once its limit is
 * reached), then check result limits and collect statistics. Thread-safe: per-query state lives in
 * the {@link QueryContext}.
 */
public final class QueryRunner {
    private final Querier querier;
    private final Engine engine;
    private final Function<LogExpr, BloomQuery> bloomExtractor;
    /** Query slots: a query waits here for at most its timeout, and the wait is its stats' queueTime. */
    private final Semaphore slots;
    private final QuerySourceFilter sourceFilter;
    private final SplitRangeEvaluator ranges;

    /** Runs queries over {@code querier} with {@code engine}; {@code bloomExtractor} maps a log expression to its bloom query. */
    public QueryRunner(Querier querier, Engine engine, Function<LogExpr, BloomQuery> bloomExtractor) {
        this(querier, engine, bloomExtractor, Integer.MAX_VALUE);
    }

    /** As {@link #QueryRunner(Querier, Engine, Function)}, running at most {@code maxConcurrent} queries at once. */
    public QueryRunner(Querier querier, Engine engine, Function<LogExpr, BloomQuery> bloomExtractor, int maxConcurrent) {
        this(querier, engine, bloomExtractor, maxConcurrent, QuerySourceFilter.none());
    }

    /**
     * As {@link #QueryRunner(Querier, Engine, Function, int)}, with every query's entry source wrapped by
     * {@code sourceFilter} (deleted and expired lines hidden).
     */
    public QueryRunner(Querier querier, Engine engine, Function<LogExpr, BloomQuery> bloomExtractor, int maxConcurrent,
            QuerySourceFilter sourceFilter) {
        this(querier, engine, bloomExtractor, maxConcurrent, sourceFilter, ResultsCacheConfig.disabled());
    }

    /**
     * As {@link #QueryRunner(Querier, Engine, Function, int, QuerySourceFilter)}, with metric range queries split
     * and their old splits cached as {@code resultsCache} says.
     */
    public QueryRunner(Querier querier, Engine engine, Function<LogExpr, BloomQuery> bloomExtractor, int maxConcurrent,
            QuerySourceFilter sourceFilter, ResultsCacheConfig resultsCache) {
        this.sourceFilter = Objects.requireNonNull(sourceFilter, "sourceFilter is null");
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.engine = Objects.requireNonNull(engine, "engine is null");
        this.bloomExtractor = Objects.requireNonNull(bloomExtractor, "bloomExtractor is null");
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be >= 1: " + maxConcurrent);
        }
        this.slots = new Semaphore(maxConcurrent, true);
        this.ranges = new SplitRangeEvaluator(querier, engine, resultsCache, sourceFilter);
    }

    /** Parses {@code query}; a syntax or validation error is a BAD_REQUEST with the parser's message. */
    public static Expr parse(String query) {
        if (query == null || query.isBlank()) {
            throw new QuerierException(QuerierErrorCode.BAD_REQUEST, "query must not be empty");
        }
        try {
            return LogQL.parse(query);
        } catch (LogQLParseException | LogQLValidationException e) {
            throw new QuerierException(QuerierErrorCode.BAD_REQUEST, e.getMessage(), e);
        }
    }

    /** Runs one query and returns its result and statistics. */
    public QueryOutcome run(QueryRequest request) throws IOException {
        return run(request, parse(request.query()));
    }

    /**
     * Runs one query already parsed: {@code expr} is {@link #parse} of {@code request.query()} (a caller that needed
     * the expression first, e.g. to tell a log query from a metric one, does not pay for a second parse).
     */
    public QueryOutcome run(QueryRequest request, Expr expr) throws IOException {
        Objects.requireNonNull(expr, "expr is null");
        int maxEntries = querier.config().maxEntriesLimitPerQuery();
        if (expr instanceof LogExpr && request.limit() > maxEntries) {
            throw new QuerierException(QuerierErrorCode.LIMIT_EXCEEDED, String.format(
                    "max entries limit per query exceeded, limit > max_entries_limit_per_query (%d > %d)",
                    request.limit(), maxEntries));
        }
        long queuedAt = System.nanoTime();
        acquireSlot();
        try (QueryContext ctx = querier.newContext(request.tenant(), request.bloomsRequested())) {
            ctx.queuedFor(System.nanoTime() - queuedAt);
            QueryOutcome outcome;
            try {
                LogQL.checkPipelines(expr);
                Map<List<Matcher>, BloomQuery> blooms = bloomQueries(expr);
                SplitRangeEvaluator.SourceFactory sources = inner -> sourceFilter.wrap(request.tenant(),
                        inner.apply(new QuerierEntrySource(querier, ctx, blooms)));
                outcome = evaluate(expr, request, sources, ctx);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            } catch (IllegalArgumentException | LogQLValidationException e) {
                // a query error found while building or running the pipeline (bad regex, pipeline error) is the
                // client's: 400 with Loki's message, never a 5xx
                throw new QuerierException(QuerierErrorCode.BAD_REQUEST, e.getMessage(), e);
            }
            querier.finish(outcome.stats());
            return outcome;
        } finally {
            slots.release();
        }
    }

    private void acquireSlot() {
        Duration timeout = querier.config().queryTimeout();
        try {
            if (!slots.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new QuerierException(QuerierErrorCode.TIMEOUT,
                        "query timed out waiting for a free query slot after " + timeout.toSeconds() + "s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuerierException(QuerierErrorCode.TIMEOUT, "query interrupted while waiting for a free slot", e);
        }
    }

    private QueryOutcome evaluate(Expr expr, QueryRequest request, SplitRangeEvaluator.SourceFactory sources,
            QueryContext ctx) throws IOException {
        if (expr instanceof LogExpr log) {
            EntrySource source = sources.open(s -> s);
            long start = request.startNanos();
            long end = request.instant() ? request.endNanos() + 1 : request.endNanos();
            LogQueryResult result = engine.evalLogs(log, source, start, end, request.limit(),
                    request.forward() ? Direction.FORWARD : Direction.BACKWARD);
            return new QueryOutcome.Logs(result, ctx.statistics(result.entryCount()));
        }
        SampleExpr sample = (SampleExpr) expr;
        MetricResult result;
        if (request.instant()) {
            result = engine.evalInstant(sample, sources.open(s -> s), request.endNanos());
        } else {
            // as Loki's query frontend (metricQuerySplitter.alignStartEnd): start rounds down and end rounds up to
            // a multiple of the step, so every range query over the same data sees the same step grid
            long step = request.stepNanos();
            if (step <= 0) { // e.g. a metric query where a route expects a log query (detected_fields) sends step 0
                throw new QuerierException(QuerierErrorCode.BAD_REQUEST,
                        "zero or negative query resolution step widths are not accepted. Try a positive integer");
            }
            long start = request.startNanos() - Math.floorMod(request.startNanos(), step);
            long up = (step - Math.floorMod(request.endNanos(), step)) % step;
            // rounded up unless that passes the largest time a long holds; then down, to the last step in range
            long end = up > Long.MAX_VALUE - request.endNanos() ? request.endNanos() - (step - up)
                    : request.endNanos() + up;
            result = ranges.evalRange(request.tenant(), sample, start, end, step, request.cacheAllowed(), sources);
        }
        long samples = checkSeriesLimit(result);
        return new QueryOutcome.Metrics(result, ctx.statistics(samples));
    }

    private long checkSeriesLimit(MetricResult result) {
        int series;
        long samples;
        if (result instanceof MetricResult.Matrix m) {
            series = m.series().size();
            samples = m.series().stream().mapToLong(s -> s.points().size()).sum();
        } else if (result instanceof MetricResult.Vector v) {
            series = v.samples().size();
            samples = series;
        } else {
            series = 1;
            samples = 1;
        }
        int max = querier.config().maxQuerySeries();
        if (series > max) {
            throw new QuerierException(QuerierErrorCode.LIMIT_EXCEEDED, String.format(
                    "maximum number of series (%d) reached for a single query; consider reducing query cardinality "
                            + "by adding more specific stream selectors, reducing the time range, or aggregating "
                            + "results with functions like sum(), count() or topk()", max));
        }
        return samples;
    }

    /** One bloom query per distinct selector: the Or of the extracted queries of the expressions reading it. */
    Map<List<Matcher>, BloomQuery> bloomQueries(Expr expr) {
        Map<List<Matcher>, List<BloomQuery>> parts = new LinkedHashMap<>();
        for (LogExpr log : LogQL.logExprs(expr)) {
            parts.computeIfAbsent(log.selector(), k -> new ArrayList<>()).add(bloomExtractor.apply(log));
        }
        Map<List<Matcher>, BloomQuery> out = new HashMap<>();
        parts.forEach((selector, queries) ->
                out.put(selector, queries.size() == 1 ? queries.get(0) : new BloomQuery.Or(queries)));
        return out;
    }
}
