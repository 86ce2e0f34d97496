package io.logbloom.api;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.logbloom.index.LabelMatcher;
import io.logbloom.logql.Engine;
import io.logbloom.logql.Expr;
import io.logbloom.logql.LogExpr;
import io.logbloom.logql.LogQL;
import io.logbloom.logql.LogQLParseException;
import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.MetricResult;
import io.logbloom.logql.ResultEntry;
import io.logbloom.logql.ResultStream;
import io.logbloom.querier.IndexStats;
import io.logbloom.querier.LogqlBloomQueries;
import io.logbloom.querier.Querier;
import io.logbloom.querier.QuerierErrorCode;
import io.logbloom.querier.QuerierException;
import io.logbloom.querier.QueryOutcome;
import io.logbloom.querier.QueryRequest;
import io.logbloom.querier.QueryRunner;
import io.logbloom.querier.QueryStatistics;
import io.logbloom.querier.SeriesVolume;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The Loki query API routes ({@code /loki/api/v1/query}, {@code query_range}, {@code labels},
 * {@code label/{name}/values}, {@code series}, {@code index/stats}, {@code index/volume},
 * {@code index/volume_range}, {@code format_query}, {@code detected_labels},
 * {@code detected_fields}, {@code detected_field/{name}/values}), GET and form-encoded POST alike, with Loki's parameters and JSON.
 * Owns the {@link Querier} (and its fetch pool). Querier failures are mapped here onto
 * {@link HttpException} so the server's single classifier answers them: bad query or parameter
 * and limits 400, timeout 504 with Loki's text, storage faults 500. Thread-safe.
 */
public final class QueryRoutes implements AutoCloseable {
    /** Request header that turns bloom skipping off for one request ({@code off}). */
    static final String BLOOMS_HEADER = "X-Logbloom-Blooms";
    /** Request header carrying Loki's response encoding flags. */
    static final String ENCODING_FLAGS_HEADER = "X-Loki-Response-Encoding-Flags";
    /** Loki's 400 to a log query sent to the instant query endpoint ({@code ErrUnsupportedSyntaxForInstantQuery}). */
    static final String LOG_QUERY_NOT_INSTANT =
            "log queries are not supported as an instant query type, please change your query to a range query type";
    /** Loki's default number of volume groups. */
    static final int DEFAULT_VOLUME_LIMIT = 100;
    /** Lines sampled by detected_fields when no line_limit is given (Loki's default). */
    static final int DEFAULT_DETECTED_LINE_LIMIT = 1000;

    private final Querier querier;
    private final QueryRunner runner;
    private final io.logbloom.querier.MetadataQueries metadata;
    private final TenantResolver tenants;
    private final java.time.Clock clock;
    private final boolean volumeEnabled;
    private final int volumeMaxSeries;

    /**
     * Routes over {@code querier}: target all's, over its own ingester, or the querier role's, reading the bucket and
     * remote ingesters; every query's entry source wrapped by {@code sourceFilter} (deletes, retention).
     */
    public QueryRoutes(LogbloomConfig config, Querier querier, java.time.Clock clock,
            io.logbloom.querier.QuerySourceFilter sourceFilter) {
        Objects.requireNonNull(config, "config is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.runner = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract,
                config.querier().maxConcurrent(), sourceFilter, ConfigMapping.resultsCacheConfig(config));
        this.metadata = new io.logbloom.querier.MetadataQueries(querier, sourceFilter);
        this.tenants = new TenantResolver(config.authEnabled());
        this.volumeEnabled = config.limits().volumeEnabled();
        this.volumeMaxSeries = config.limits().volumeMaxSeries();
    }

    /** The querier behind the routes. */
    public Querier querier() {
        return querier;
    }

    /** The query runner behind the routes (also used by the tail route). */
    QueryRunner runner() {
        return runner;
    }

    /** Registers every query route for GET and POST. */
    public void register(Javalin app) {
        both(app, "/loki/api/v1/query", "query", this::query);
        both(app, "/loki/api/v1/query_range", "query_range", this::queryRange);
        both(app, "/loki/api/v1/labels", "labels", this::labels);
        both(app, "/loki/api/v1/label", "labels", this::labels);
        both(app, "/loki/api/v1/label/{name}/values", "label_values", this::labelValues);
        both(app, "/loki/api/v1/series", "series", this::series);
        both(app, "/loki/api/v1/index/stats", "index_stats", this::indexStats);
        both(app, "/loki/api/v1/index/volume", "index_volume", this::volume);
        both(app, "/loki/api/v1/index/volume_range", "index_volume_range", this::volumeRange);
        both(app, "/loki/api/v1/format_query", "format_query", this::formatQuery);
        both(app, "/loki/api/v1/detected_labels", "detected_labels", this::detectedLabels);
        both(app, "/loki/api/v1/detected_fields", "detected_fields", this::detectedFields);
        both(app, "/loki/api/v1/detected_field/{name}/values", "detected_field_values", this::detectedFieldValues);
    }

    /** A handler body that may throw. */
    @FunctionalInterface
    interface Route {
        void handle(Context ctx, Function<String, String> params, String tenant) throws Exception;
    }

    private void both(Javalin app, String path, String name, Route route) {
        Handler h = ctx -> {
            long start = System.nanoTime();
            try {
                route.handle(ctx, params(ctx), tenants.tenant(ctx.header(TenantResolver.HEADER)));
            } catch (QuerierException e) {
                throw toHttp(e);
            } finally {
                querier.metrics().observeRequest(name, (System.nanoTime() - start) / 1e9);
            }
        };
        app.get(path, h);
        app.post(path, h);
    }

    /** Maps a querier failure to the HTTP edge; storage faults stay server errors with no detail leaked. */
    static Exception toHttp(QuerierException e) {
        if (e.code() == QuerierErrorCode.STORAGE) {
            return new IOException(e.getMessage(), e);
        }
        String reason = e.code().name().toLowerCase(Locale.ROOT);
        if (e.code() == QuerierErrorCode.TIMEOUT) {
            return new HttpException(e.code().httpStatus(), reason, HttpErrors.DEADLINE_EXCEEDED);
        }
        return new HttpException(e.code().httpStatus(), reason, e.getMessage());
    }

    /** Query-string parameter, else form parameter (POST {@code application/x-www-form-urlencoded}). */
    static Function<String, String> params(Context ctx) {
        boolean form = ctx.method().name().equals("POST") && ctx.contentType() != null
                && ctx.contentType().startsWith("application/x-www-form-urlencoded");
        return name -> {
            String v = ctx.queryParam(name);
            if (v == null && form) {
                v = ctx.formParam(name);
            }
            return v;
        };
    }

    static List<String> multi(Context ctx, String name) {
        List<String> values = new ArrayList<>(ctx.queryParams(name));
        boolean form = ctx.method().name().equals("POST") && ctx.contentType() != null
                && ctx.contentType().startsWith("application/x-www-form-urlencoded");
        if (form) {
            values.addAll(ctx.formParams(name));
        }
        return values;
    }

    private long nowNanos() {
        return clock.millis() * 1_000_000L;
    }

    /**
     * False when the request carries {@code Cache-Control: no-cache} or {@code no-store} (Loki's opt-out of its
     * results cache): the query is then evaluated whole, neither read from nor written to the cache.
     */
    static boolean cacheAllowed(Context ctx) {
        String v = ctx.header("Cache-Control");
        if (v == null) {
            return true;
        }
        for (String directive : v.split(",")) {
            String d = directive.trim().toLowerCase(java.util.Locale.ROOT);
            if (d.equals("no-cache") || d.equals("no-store")) {
                return false;
            }
        }
        return true;
    }

    static boolean bloomsRequested(Context ctx) {
        String v = ctx.header(BLOOMS_HEADER);
        return v == null || !(v.trim().equalsIgnoreCase("off") || v.trim().equalsIgnoreCase("false"));
    }

    static boolean categorize(Context ctx) {
        return categorize(ctx.header(ENCODING_FLAGS_HEADER));
    }

    /** Whether an encoding-flags header value asks for categorized labels. */
    static boolean categorize(String v) {
        if (v == null) {
            return false;
        }
        for (String flag : v.split(",")) {
            if (flag.trim().equals(QueryJson.CATEGORIZE_LABELS)) {
                return true;
            }
        }
        return false;
    }

    private static void json(Context ctx, byte[] body) {
        ctx.contentType("application/json; charset=utf-8").result(body);
    }

    private static String requiredQuery(Function<String, String> params) {
        String q = params.apply("query");
        if (q == null || q.isBlank()) {
            throw new HttpException(400, "bad_request", "query parameter \"query\" is required");
        }
        return q;
    }

    private void query(Context ctx, Function<String, String> p, String tenant) throws IOException {
        String q = requiredQuery(p);
        Expr expr = QueryRunner.parse(q);
        if (expr instanceof LogExpr) { // Loki's querier refuses these before reading any other parameter
            throw new HttpException(400, "bad_request", LOG_QUERY_NOT_INSTANT);
        }
        long t = QueryParams.time(p, nowNanos());
        int limit = QueryParams.limit(p);
        boolean forward = QueryParams.forward(p);
        QueryOutcome out = runner.run(new QueryRequest(tenant, q, t, t, 0, limit, forward, true, bloomsRequested(ctx)),
                expr);
        respond(ctx, out, forward, 0);
    }

    private void queryRange(Context ctx, Function<String, String> p, String tenant) throws IOException {
        String q = requiredQuery(p);
        QueryParams.Range range = QueryParams.queryRange(p, nowNanos());
        int limit = QueryParams.limit(p);
        boolean forward = QueryParams.forward(p);
        Expr expr = QueryRunner.parse(q);
        long step = expr instanceof LogExpr ? 0 : QueryParams.step(p, range);
        long interval = QueryParams.interval(p);
        QueryOutcome out = runner.run(new QueryRequest(tenant, q, range.startNanos(), range.endNanos(), step, limit,
                forward, false, bloomsRequested(ctx), cacheAllowed(ctx)), expr);
        respond(ctx, out, forward, interval);
    }

    private void respond(Context ctx, QueryOutcome out, boolean forward, long intervalNanos) {
        if (out instanceof QueryOutcome.Logs logs) {
            boolean categorize = categorize(ctx);
            json(ctx, QueryJson.streams(streams(logs.result(), categorize, forward, intervalNanos), categorize,
                    logs.stats()));
            return;
        }
        MetricResult result = ((QueryOutcome.Metrics) out).result();
        QueryStatistics stats = out.stats();
        if (result instanceof MetricResult.Matrix m) {
            List<QueryJson.SeriesOut> series = new ArrayList<>(m.series().size());
            for (MetricResult.Series s : m.series()) {
                long[] ts = new long[s.points().size()];
                double[] vs = new double[ts.length];
                for (int i = 0; i < ts.length; i++) {
                    ts[i] = s.points().get(i).timestampNanos();
                    vs[i] = s.points().get(i).value();
                }
                series.add(new QueryJson.SeriesOut(s.metric(), ts, vs));
            }
            json(ctx, QueryJson.matrix(series, stats));
        } else if (result instanceof MetricResult.Vector v) {
            List<QueryJson.SampleOut> samples = new ArrayList<>(v.samples().size());
            for (MetricResult.Sample s : v.samples()) {
                samples.add(new QueryJson.SampleOut(s.metric(), s.timestampNanos(), s.value()));
            }
            json(ctx, QueryJson.vector(samples, stats));
        } else {
            MetricResult.Scalar s = (MetricResult.Scalar) result;
            json(ctx, QueryJson.scalar(s.timestampNanos(), s.value(), stats));
        }
    }

    /**
     * Result streams in Loki's two encodings: by final label set (default), or by stream labels with
     * metadata and parsed labels per entry (categorize-labels). {@code interval} keeps only entries
     * at least that far apart in each stream, as Loki's {@code interval} parameter.
     */
    static List<QueryJson.StreamOut> streams(LogQueryResult result, boolean categorize, boolean forward,
            long intervalNanos) {
        Map<Map<String, String>, List<ResultEntry>> groups = new LinkedHashMap<>();
        for (ResultStream s : result.streams()) {
            groups.computeIfAbsent(categorize ? s.streamLabels() : s.labels(), k -> new ArrayList<>())
                    .addAll(s.entries());
        }
        Comparator<ResultEntry> order = Comparator.comparingLong(ResultEntry::timestampNanos);
        if (!forward) {
            order = order.reversed();
        }
        List<QueryJson.StreamOut> out = new ArrayList<>(groups.size());
        for (Map.Entry<Map<String, String>, List<ResultEntry>> g : groups.entrySet()) {
            List<ResultEntry> entries = g.getValue();
            if (categorize) {
                entries.sort(order);
            }
            List<QueryJson.EntryOut> kept = new ArrayList<>(entries.size());
            Long last = null;
            for (ResultEntry e : entries) {
                if (intervalNanos > 0 && last != null && Math.abs(e.timestampNanos() - last) < intervalNanos) {
                    continue;
                }
                last = e.timestampNanos();
                kept.add(new QueryJson.EntryOut(e.timestampNanos(), e.line(), new TreeMap<>(e.structuredMetadata()),
                        new TreeMap<>(e.parsedLabels())));
            }
            out.add(new QueryJson.StreamOut(g.getKey(), kept));
        }
        return out;
    }

    /** The matchers of an optional selector parameter; empty when absent. */
    static List<LabelMatcher> selectorMatchers(String selector) {
        if (selector == null || selector.isBlank()) {
            return List.of();
        }
        Expr expr = QueryRunner.parse(selector);
        if (!(expr instanceof LogExpr log)) {
            throw new HttpException(400, "bad_request", "expected a stream selector, got a metric query: " + selector);
        }
        List<LabelMatcher> out = new ArrayList<>();
        for (io.logbloom.logql.Matcher m : log.selector()) {
            out.add(LabelMatcher.of(LabelMatcher.MatchType.valueOf(m.type().name()), m.name(), m.value()));
        }
        return out;
    }

    private void labels(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        json(ctx, QueryJson.strings(metadata.labelNames(tenant, selectorMatchers(p.apply("query")), r.startNanos(),
                inclusiveEnd(r))));
    }

    private void labelValues(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        String name = ctx.pathParam("name");
        json(ctx, QueryJson.strings(metadata.labelValues(tenant, name, selectorMatchers(p.apply("query")),
                r.startNanos(), inclusiveEnd(r))));
    }

    private void series(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        List<String> match = multi(ctx, "match[]");
        if (match.isEmpty()) {
            match = multi(ctx, "match");
        }
        if (match.isEmpty()) {
            throw new HttpException(400, "bad_request", "0 matcher groups supplied");
        }
        List<List<LabelMatcher>> groups = new ArrayList<>();
        for (String m : match) {
            groups.add(selectorMatchers(m));
        }
        json(ctx, QueryJson.series(metadata.series(tenant, groups, r.startNanos(), inclusiveEnd(r))));
    }

    private void indexStats(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        IndexStats stats = metadata.indexStats(tenant, selectorMatchers(requiredQuery(p)), r.startNanos(),
                inclusiveEnd(r));
        json(ctx, QueryJson.indexStats(stats));
    }

    private List<SeriesVolume> volumes(Context ctx, Function<String, String> p, String tenant, long from, long through)
            throws IOException {
        if (!volumeEnabled) {
            throw new HttpException(404, "volume_disabled",
                    "volume endpoints are disabled (limits.volume_enabled: false)");
        }
        int limit = Math.min(limitOr(p, DEFAULT_VOLUME_LIMIT), volumeMaxSeries);
        String targets = p.apply("targetLabels");
        List<String> targetLabels = targets == null || targets.isBlank() ? List.of()
                : List.of(targets.split("\\s*,\\s*"));
        String aggregateBy = p.apply("aggregateBy");
        if (aggregateBy != null && !aggregateBy.isEmpty() && !aggregateBy.equals("series")
                && !aggregateBy.equals("labels")) {
            throw new HttpException(400, "bad_request", "invalid aggregateBy '" + aggregateBy
                    + "': must be series or labels");
        }
        return metadata.volume(tenant, selectorMatchers(requiredQuery(p)), from, through, targetLabels,
                !"labels".equals(aggregateBy), limit);
    }

    private void volume(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        json(ctx, QueryJson.volume(volumes(ctx, p, tenant, r.startNanos(), inclusiveEnd(r)), r.endNanos()));
    }

    private void volumeRange(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.queryRange(p, nowNanos());
        long step = QueryParams.step(p, r);
        Map<Map<String, String>, TreeMap<Long, Double>> series = new TreeMap<>(Comparator.comparing(Object::toString));
        for (long t = r.startNanos(); t <= r.endNanos(); t += step) {
            for (SeriesVolume v : volumes(ctx, p, tenant, t - step + 1, t + 1)) {
                series.computeIfAbsent(v.labels(), k -> new TreeMap<>()).put(t, (double) v.bytes());
            }
        }
        List<QueryJson.SeriesOut> out = new ArrayList<>();
        series.forEach((labels, points) -> out.add(new QueryJson.SeriesOut(new TreeMap<>(labels),
                points.keySet().stream().mapToLong(Long::longValue).toArray(),
                points.values().stream().mapToDouble(Double::doubleValue).toArray())));
        json(ctx, QueryJson.volumeRange(out));
    }

    private void formatQuery(Context ctx, Function<String, String> p, String tenant) {
        String formatted;
        try {
            formatted = LogQL.format(LogQL.parse(requiredQuery(p)));
        } catch (LogQLParseException e) {
            // Loki answers a query it cannot parse with 400 and a JSON body, unlike the other routes' plain text
            ctx.status(400);
            json(ctx, QueryJson.write(g -> {
                g.writeStartObject();
                g.writeStringField("status", "invalid-query");
                g.writeStringField("error", e.getMessage());
                g.writeEndObject();
            }));
            return;
        }
        json(ctx, QueryJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("status", "success");
            g.writeStringField("data", formatted);
            g.writeEndObject();
        }));
    }

    private void detectedLabels(Context ctx, Function<String, String> p, String tenant) throws IOException {
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        List<LabelMatcher> matchers = selectorMatchers(p.apply("query"));
        List<String> names = metadata.labelNames(tenant, matchers, r.startNanos(), inclusiveEnd(r));
        Map<String, Integer> cardinality = new LinkedHashMap<>();
        for (String name : names) {
            cardinality.put(name, metadata.labelValues(tenant, name, matchers, r.startNanos(), inclusiveEnd(r)).size());
        }
        json(ctx, QueryJson.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("detectedLabels");
            for (Map.Entry<String, Integer> e : cardinality.entrySet()) {
                g.writeStartObject();
                g.writeStringField("label", e.getKey());
                g.writeNumberField("cardinality", e.getValue());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }));
    }

    private DetectedFields detect(Context ctx, Function<String, String> p, String tenant) throws IOException {
        String q = requiredQuery(p);
        QueryParams.Range r = QueryParams.range(p, nowNanos());
        String lineLimit = p.apply("line_limit");
        int lines = lineLimit == null || lineLimit.isEmpty() ? DEFAULT_DETECTED_LINE_LIMIT
                : QueryParams.limit(name -> lineLimit);
        lines = Math.min(lines, querier.config().maxEntriesLimitPerQuery());
        QueryOutcome out = runner.run(new QueryRequest(tenant, q, r.startNanos(), inclusiveEnd(r), 0, lines, false,
                false, bloomsRequested(ctx)));
        if (!(out instanceof QueryOutcome.Logs logs)) {
            throw new HttpException(400, "bad_request", "detected fields need a log query, got: " + q);
        }
        DetectedFields detected = new DetectedFields();
        detected.addAll(logs.result().streams());
        return detected;
    }

    private static int limitOr(Function<String, String> p, int defaultLimit) {
        String v = p.apply("limit");
        return v == null || v.isEmpty() ? defaultLimit : QueryParams.limit(p);
    }

    private void detectedFields(Context ctx, Function<String, String> p, String tenant) throws IOException {
        int fieldLimit = limitOr(p, DEFAULT_DETECTED_LINE_LIMIT);
        DetectedFields detected = detect(ctx, p, tenant);
        json(ctx, QueryJson.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("fields");
            int n = 0;
            for (Map.Entry<String, DetectedFields.Field> e : detected.fields().entrySet()) {
                if (n++ >= fieldLimit) {
                    break;
                }
                DetectedFields.Field f = e.getValue();
                g.writeStartObject();
                g.writeStringField("label", e.getKey());
                g.writeStringField("type", fieldType(f.values));
                g.writeNumberField("cardinality", f.values.size());
                g.writeFieldName("parsers");
                if (f.parsers.isEmpty()) {
                    g.writeNull();
                } else {
                    g.writeStartArray();
                    for (String parser : f.parsers) {
                        g.writeString(parser);
                    }
                    g.writeEndArray();
                }
                g.writeFieldName("jsonPath");
                if (f.jsonPath.isEmpty()) {
                    g.writeNull();
                } else {
                    g.writeStartArray();
                    for (String key : f.jsonPath) {
                        g.writeString(key);
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("fieldLimit", fieldLimit);
            g.writeEndObject();
        }));
    }

    /** {@code detected_field/{name}/values}: Loki's {@code {"values": [...], "limit": n}}. */
    private void detectedFieldValues(Context ctx, Function<String, String> p, String tenant) throws IOException {
        int limit = limitOr(p, DEFAULT_DETECTED_LINE_LIMIT);
        List<String> values = detect(ctx, p, tenant).values(ctx.pathParam("name"), limit);
        json(ctx, QueryJson.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("values");
            for (String v : values) {
                g.writeString(v);
            }
            g.writeEndArray();
            g.writeNumberField("limit", limit);
            g.writeEndObject();
        }));
    }

    /** Loki's detected field types: int, float, boolean, duration, bytes, else string. */
    static String fieldType(Iterable<String> values) {
        String type = null;
        for (String v : values) {
            String t;
            if (v.matches("-?\\d+")) {
                t = "int";
            } else if (v.matches("-?\\d+\\.\\d+([eE][-+]?\\d+)?")) {
                t = "float";
            } else if (v.equals("true") || v.equals("false")) {
                t = "boolean";
            } else if (v.matches("(\\d+(\\.\\d+)?(ns|us|µs|ms|s|m|h))+")) {
                t = "duration";
            } else if (v.matches("\\d+(\\.\\d+)?\\s?([KMGTPE]i?)?B")) {
                t = "bytes";
            } else {
                return "string";
            }
            if (type == null || type.equals(t)) {
                type = t;
            } else if (type.equals("int") && t.equals("float") || type.equals("float") && t.equals("int")) {
                type = "float";
            } else {
                return "string";
            }
        }
        return type == null ? "string" : type;
    }

    private static long inclusiveEnd(QueryParams.Range r) {
        return r.endNanos() == Long.MAX_VALUE ? r.endNanos() : r.endNanos() + 1;
    }

    /** Stops the querier's fetch pool. */
    @Override
    public void close() {
        querier.close();
    }
}
