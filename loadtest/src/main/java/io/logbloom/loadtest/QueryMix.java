package io.logbloom.loadtest;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Chooses the next query of the query phase from what was pushed.
 *
 * <p>The default mix, by share of requests (a subset keeps the relative shares): 50 % needle lookups
 * ({@code {run="…", …} | trace_id="…"} over the pushed range, which must return exactly the
 * expected line), 15 % rare substring ({@code {run="…"} |= "disk quota exceeded"}), 15 %
 * label-filtered log queries ({@code {run="…", service="…", level=~"warn|error"}}), 10 %
 * {@code sum by (level) (rate({run="…"}[1m]))} and 10 %
 * {@code quantile_over_time(0.99, {run="…"} |= "duration_ms=" | logfmt | unwrap duration_ms [1m]) by (level)}
 * (the line filter keeps only logfmt lines, which all carry {@code duration_ms}; grouping by level keeps
 * the result to a few series: without it every label set, trace_id metadata included, is a series).
 *
 * <p>Thread-safe: each call uses the caller's random source; the reservoir is thread-safe.
 */
final class QueryMix {
    static final String NEEDLE = "query_needle";
    static final String SUBSTRING = "query_substring";
    static final String LABELS = "query_labels";
    static final String RATE = "query_rate";
    static final String QUANTILE = "query_quantile";
    // Loki refuses range queries above 11,000 points; 250 points keep metric queries light.
    private static final int METRIC_POINTS = 250;
    private static final String[] SERVICES = {"checkout", "api-gateway", "cart", "auth", "search", "frontend"};

    /** Every query kind with its share of the default mix, in percent. */
    static final java.util.Map<String, Integer> DEFAULT_WEIGHTS = weights();

    private final String runId;
    private final NeedleReservoir needles;
    private final RangeSource range;
    private final int limit;
    private final String[] kinds;
    private final int[] cumulativeWeights;

    /** Where the queried time range comes from: fixed after a push run, growing during a mixed run. */
    interface RangeSource {
        long startNanos();

        long endNanos();
    }

    QueryMix(String runId, NeedleReservoir needles, RangeSource range, int limit) {
        this(runId, needles, range, limit, DEFAULT_WEIGHTS.keySet());
    }

    /** Creates a mix of only the given kinds (names as in the report, with or without {@code query_}), keeping their relative shares. */
    QueryMix(String runId, NeedleReservoir needles, RangeSource range, int limit, java.util.Collection<String> kinds) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("query kinds must name at least one of " + DEFAULT_WEIGHTS.keySet());
        }
        this.runId = runId;
        this.needles = needles;
        this.range = range;
        this.limit = limit;
        java.util.List<String> chosen = new java.util.ArrayList<>();
        for (String kind : kinds) {
            String name = kind.startsWith("query_") ? kind : "query_" + kind;
            if (!DEFAULT_WEIGHTS.containsKey(name)) {
                throw new IllegalArgumentException("unknown query kind '" + kind + "', expected some of "
                        + "needle, substring, labels, rate, quantile");
            }
            if (!chosen.contains(name)) {
                chosen.add(name);
            }
        }
        this.kinds = chosen.toArray(new String[0]);
        this.cumulativeWeights = new int[this.kinds.length];
        int total = 0;
        for (int i = 0; i < this.kinds.length; i++) {
            total += DEFAULT_WEIGHTS.get(this.kinds[i]);
            cumulativeWeights[i] = total;
        }
    }

    private static java.util.Map<String, Integer> weights() {
        java.util.Map<String, Integer> weights = new java.util.LinkedHashMap<>();
        weights.put(NEEDLE, 50);
        weights.put(SUBSTRING, 15);
        weights.put(LABELS, 15);
        weights.put(RATE, 10);
        weights.put(QUANTILE, 10);
        return java.util.Collections.unmodifiableMap(weights);
    }

    /** Returns a range source fixed to a manifest's pushed range, widened by a second each side. */
    static RangeSource fixed(Manifest manifest) {
        return new RangeSource() {
            @Override
            public long startNanos() {
                return manifest.startNanos() - 1_000_000_000L;
            }

            @Override
            public long endNanos() {
                return manifest.endNanos() + 1_000_000_000L;
            }
        };
    }

    /** Returns a range source from {@code startNanos} to the current wall clock plus a second. */
    static RangeSource growing(long startNanos, LongSupplier epochNanos) {
        return new RangeSource() {
            @Override
            public long startNanos() {
                return startNanos - 1_000_000_000L;
            }

            @Override
            public long endNanos() {
                return epochNanos.getAsLong() + 1_000_000_000L;
            }
        };
    }

    /** Returns the next query, or {@code null} while no needle is acknowledged yet. */
    PlannedQuery next(SplittableRandom random) {
        long start = range.startNanos();
        long end = range.endNanos();
        String run = "run=\"" + LogStream.escape(runId) + "\"";
        int pick = random.nextInt(cumulativeWeights[cumulativeWeights.length - 1]);
        String kind = kinds[kinds.length - 1];
        for (int i = 0; i < kinds.length; i++) {
            if (pick < cumulativeWeights[i]) {
                kind = kinds[i];
                break;
            }
        }
        Duration step = Duration.ofSeconds(Math.max(1, (end - start) / 1_000_000_000L / METRIC_POINTS + 1));
        return switch (kind) {
            case NEEDLE -> {
                Needle needle = needles.pick(random);
                yield needle == null ? null : new PlannedQuery(NEEDLE, needle.query(), start, end, limit, null, needle);
            }
            case SUBSTRING -> {
                String phrase = LogGenerator.RARE_PHRASES.get(random.nextInt(LogGenerator.RARE_PHRASES.size()));
                yield new PlannedQuery(SUBSTRING, "{" + run + "} |= \"" + phrase + "\"", start, end, limit, null, null);
            }
            case LABELS -> {
                String service = SERVICES[random.nextInt(SERVICES.length)];
                yield new PlannedQuery(LABELS, "{" + run + ", service=\"" + service + "\", level=~\"warn|error\"}",
                        start, end, limit, null, null);
            }
            case RATE -> new PlannedQuery(RATE, "sum by (level) (rate({" + run + "}[1m]))", start, end, limit, step, null);
            case QUANTILE -> new PlannedQuery(QUANTILE, "quantile_over_time(0.99, {" + run + "} |= \"duration_ms=\" | logfmt"
                    + " | unwrap duration_ms [1m]) by (level)", start, end, limit, step, null);
            default -> throw new IllegalStateException("BUG: unknown query kind " + kind);
        };
    }
}
