package io.logbloom.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.OtlpConfig;
import io.logbloom.patterns.MinedPattern;
import io.logbloom.patterns.PatternMiner;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The routes Grafana Logs Drilldown calls beyond the query API: {@code /loki/api/v1/patterns} (Drain
 * patterns mined at ingest, counts per step, Loki's JSON: {@code {"status":"success","data":[{"pattern",
 * "level","samples":[[unix seconds, count]]}]}}) when the pattern ingester is enabled, and
 * {@code /loki/api/v1/drilldown-limits} (the limits the app reads to decide what to show, in Loki's shape,
 * with {@code pattern_ingester_enabled} and {@code version}). Thread-safe.
 */
final class DrilldownRoutes {
    private final LogbloomConfig config;
    private final PatternMiner miner;
    private final TenantResolver tenants;
    private final String version;
    private final Clock clock;

    /** Routes over {@code miner} (null when {@code pattern_ingester.enabled} is false). */
    DrilldownRoutes(LogbloomConfig config, PatternMiner miner, String version, Clock clock) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.miner = miner;
        this.tenants = new TenantResolver(config.authEnabled());
        this.version = Objects.requireNonNull(version, "version is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    void register(Javalin app) {
        if (miner != null) {
            app.get("/loki/api/v1/patterns", this::patterns);
            app.post("/loki/api/v1/patterns", this::patterns);
        }
        app.get("/loki/api/v1/drilldown-limits", this::limits);
    }

    private void patterns(Context ctx) {
        String tenant = tenants.tenant(ctx.header(TenantResolver.HEADER));
        Function<String, String> p = QueryRoutes.params(ctx);
        String query = p.apply("query");
        if (query == null || query.isBlank()) {
            throw new HttpException(400, "bad_request", "query parameter \"query\" is required");
        }
        List<LabelMatcher> matchers = QueryRoutes.selectorMatchers(query);
        QueryParams.Range r = QueryParams.queryRange(p, clock.millis() * 1_000_000L);
        long stepMillis = QueryParams.step(p, r) / 1_000_000L;
        Predicate<Map<String, String>> streams = labels -> {
            for (LabelMatcher m : matchers) {
                if (!m.matches(labels.getOrDefault(m.name(), ""))) {
                    return false;
                }
            }
            return true;
        };
        List<MinedPattern> found = miner.patterns(tenant, streams, r.startNanos() / 1_000_000L,
                r.endNanos() / 1_000_000L + 1, stepMillis);
        ctx.contentType("application/json; charset=utf-8").result(QueryJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("status", "success");
            g.writeArrayFieldStart("data");
            for (MinedPattern m : found) {
                g.writeStartObject();
                g.writeStringField("pattern", m.pattern());
                if (!m.level().isEmpty()) {
                    g.writeStringField("level", m.level());
                }
                g.writeArrayFieldStart("samples");
                for (MinedPattern.Sample s : m.samples()) {
                    g.writeStartArray();
                    g.writeNumber(s.timestampMillis() / 1000);
                    g.writeNumber(s.count());
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }));
    }

    private void limits(Context ctx) {
        tenants.tenant(ctx.header(TenantResolver.HEADER));
        LogbloomConfig.Limits l = config.limits();
        ctx.contentType("application/json; charset=utf-8").result(QueryJson.write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("limits");
            g.writeBooleanField("discover_log_levels", l.discoverLogLevels());
            strings(g, "discover_service_name", l.discoverServiceName());
            strings(g, "log_level_fields", l.logLevelFields());
            g.writeNumberField("max_entries_limit_per_query", l.maxEntriesLimitPerQuery());
            g.writeBooleanField("max_line_size_truncate", false);
            g.writeStringField("max_query_bytes_read", Long.toString(l.maxQueryBytesRead()));
            g.writeStringField("max_query_length", "0s");
            g.writeStringField("max_query_lookback", "0s");
            g.writeStringField("max_query_range", "0s");
            g.writeNumberField("max_query_series", l.maxQuerySeries());
            g.writeBooleanField("metric_aggregation_enabled", false);
            otlp(g, l.otlpConfig());
            g.writeBooleanField("pattern_persistence_enabled", false);
            g.writeStringField("query_timeout", ConfigNode.formatDuration(l.queryTimeout()));
            g.writeStringField("retention_period", "0s");
            g.writeBooleanField("volume_enabled", l.volumeEnabled());
            g.writeNumberField("volume_max_series", l.volumeMaxSeries());
            g.writeEndObject();
            g.writeBooleanField("pattern_ingester_enabled", miner != null);
            g.writeStringField("version", version);
            g.writeEndObject();
        }));
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /** Loki's {@code otlp_config} as its Go struct marshals it (capitalized field names). */
    private static void otlp(JsonGenerator g, OtlpConfig o) throws IOException {
        g.writeObjectFieldStart("otlp_config");
        g.writeObjectFieldStart("ResourceAttributes");
        g.writeBooleanField("IgnoreDefaults", false);
        rules(g, "AttributesConfig", o.resourceAttributes());
        g.writeEndObject();
        rules(g, "ScopeAttributes", o.scopeAttributes());
        rules(g, "LogAttributes", o.logAttributes());
        g.writeBooleanField("SeverityTextAsLabel", o.severityTextAsLabel());
        g.writeEndObject();
    }

    private static void rules(JsonGenerator g, String name, List<OtlpConfig.Rule> rules) throws IOException {
        g.writeFieldName(name);
        if (rules.isEmpty()) {
            g.writeNull();
            return;
        }
        g.writeStartArray();
        for (OtlpConfig.Rule r : rules) {
            g.writeStartObject();
            g.writeStringField("Action", r.action().name().toLowerCase(Locale.ROOT));
            if (r.attributes().isEmpty()) {
                g.writeNullField("Attributes");
            } else {
                strings(g, "Attributes", r.attributes());
            }
            g.writeStringField("Regex", r.regex() == null ? "" : r.regex().pattern());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
