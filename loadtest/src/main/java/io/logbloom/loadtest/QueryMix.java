package io.logbloom.loadtest;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
 * Not in the default mix, asked for by name: {@code count}, weight 10, an instant count
 * {@code sum(count_over_time({run="…"} |= "text" [range]))} over the whole pushed range for a text the push tallied
 * ({@code push --count-lines-containing}), which must equal the manifest's tally.
 *
 * <p>Thread-safe: each call uses the caller's random source; the reservoir is thread-safe.
 */
final class QueryMix {
    static final String NEEDLE = "query_needle";
    static final String SUBSTRING = "query_substring";
    static final String LABELS = "query_labels";
    static final String RATE = "query_rate";
    static final String QUANTILE = "query_quantile";
    static final String COUNT = "query_count";
    /** The kinds of {@code --query-kinds}'s default: every kind but {@code count}. */
    static final String DEFAULT_KINDS = "needle,substring,labels,rate,quantile";
    // Loki refuses range queries above 11,000 points; 250 points keep metric queries light.
    private static final int METRIC_POINTS = 250;
    private static final String[] SERVICES = {"checkout", "api-gateway", "cart", "auth", "search", "frontend"};

    /** Every query kind with its share of the default mix, in percent. */
    static final Map<String, Integer> DEFAULT_WEIGHTS = weights();

    private final String runId;
    private final NeedleReservoir needles;
    private final RangeSource range;
    private final int limit;
    private final String[] kinds;
    private final int[] cumulativeWeights;
    private final List<Map.Entry<String, Long>> lineCounts;

    /** Where the queried time range comes from: fixed after a push run, growing during a mixed run. */
    interface RangeSource {
        long startNanos();

        long endNanos();
    }

    QueryMix(String runId, NeedleReservoir needles, RangeSource range, int limit) {
        this(runId, needles, range, limit, List.of(DEFAULT_KINDS.split(",")), Map.of());
    }

    /**
     * Creates a mix of only the given kinds (names as in the report, with or without {@code query_}), keeping their
     * relative shares; {@code lineCounts} are the push's tallies ({@link Manifest#linesContaining}) the {@code count}
     * kind checks, which it needs.
     */
    QueryMix(String runId, NeedleReservoir needles, RangeSource range, int limit, Collection<String> kinds,
            Map<String, Long> lineCounts) {
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
        List<String> chosen = new java.util.ArrayList<>();
        for (String kind : kinds) {
            String name = kind.startsWith("query_") ? kind : "query_" + kind;
            if (!DEFAULT_WEIGHTS.containsKey(name)) {
                throw new IllegalArgumentException("unknown query kind '" + kind + "', expected some of "
                        + "needle, substring, labels, rate, quantile, count");
            }
            if (!chosen.contains(name)) {
                chosen.add(name);
            }
        }
        if (chosen.contains(COUNT) && lineCounts.isEmpty()) {
            throw new IllegalArgumentException("query kind 'count' checks the line tallies of a finished push: push with "
                    + "--count-lines-containing TEXT, then run 'query' on its manifest (a mixed run's counts grow as it "
                    + "pushes)");
        }
        this.lineCounts = List.copyOf(lineCounts.entrySet());
        this.kinds = chosen.toArray(new String[0]);
        this.cumulativeWeights = new int[this.kinds.length];
        int total = 0;
        for (int i = 0; i < this.kinds.length; i++) {
            total += DEFAULT_WEIGHTS.get(this.kinds[i]);
            cumulativeWeights[i] = total;
        }
    }

    private static Map<String, Integer> weights() {
        Map<String, Integer> weights = new java.util.LinkedHashMap<>();
        weights.put(NEEDLE, 50);
        weights.put(SUBSTRING, 15);
        weights.put(LABELS, 15);
        weights.put(RATE, 10);
        weights.put(QUANTILE, 10);
        weights.put(COUNT, 10);
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
            case COUNT -> {
                Map.Entry<String, Long> tally = lineCounts.get(random.nextInt(lineCounts.size()));
                // One point at the range's end whose window covers the whole range: (end - seconds, end].
                long seconds = (end - start + 999_999_999L) / 1_000_000_000L;
                yield new PlannedQuery(COUNT, "sum(count_over_time({" + run + "} |= \"" + LogStream.escape(tally.getKey())
                        + "\" [" + seconds + "s]))", end, end, limit, Duration.ofSeconds(1), null, tally.getValue());
            }
            default -> throw new IllegalStateException("BUG: unknown query kind " + kind);
        };
    }
}
