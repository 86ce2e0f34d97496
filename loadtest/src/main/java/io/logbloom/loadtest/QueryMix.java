package io.logbloom.loadtest;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Chooses the next query of the query phase from what was pushed.
 *
 * <p>The mix, by share of requests: 50 % needle lookups
 * ({@code {run="…", …} | trace_id="…"} over the pushed range, which must return exactly the
 * expected line), 15 % rare substring ({@code {run="…"} |= "disk quota exceeded"}), 15 %
 * label-filtered log queries ({@code {run="…", service="…", level=~"warn|error"}}), 10 %
 * {@code sum by (level) (rate({run="…"}[1m]))} and 10 %
 * {@code quantile_over_time(0.99, {run="…"} |= "duration_ms=" | logfmt | unwrap duration_ms [1m])}
 * (the line filter keeps only logfmt lines, which all carry {@code duration_ms}).
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

    private final String runId;
    private final NeedleReservoir needles;
    private final RangeSource range;
    private final int limit;

    /** Where the queried time range comes from: fixed after a push run, growing during a mixed run. */
    interface RangeSource {
        long startNanos();

        long endNanos();
    }

    QueryMix(String runId, NeedleReservoir needles, RangeSource range, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        this.runId = runId;
        this.needles = needles;
        this.range = range;
        this.limit = limit;
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
        int pick = random.nextInt(100);
        if (pick < 50) {
            Needle needle = needles.pick(random);
            if (needle == null) {
                return null;
            }
            return new PlannedQuery(NEEDLE, needle.query(), start, end, limit, null, needle);
        }
        if (pick < 65) {
            String phrase = LogGenerator.RARE_PHRASES.get(random.nextInt(LogGenerator.RARE_PHRASES.size()));
            return new PlannedQuery(SUBSTRING, "{" + run + "} |= \"" + phrase + "\"", start, end, limit, null, null);
        }
        if (pick < 80) {
            String service = SERVICES[random.nextInt(SERVICES.length)];
            return new PlannedQuery(LABELS, "{" + run + ", service=\"" + service + "\", level=~\"warn|error\"}",
                    start, end, limit, null, null);
        }
        Duration step = Duration.ofSeconds(Math.max(1, (end - start) / 1_000_000_000L / METRIC_POINTS + 1));
        if (pick < 90) {
            return new PlannedQuery(RATE, "sum by (level) (rate({" + run + "}[1m]))", start, end, limit, step, null);
        }
        return new PlannedQuery(QUANTILE, "quantile_over_time(0.99, {" + run + "} |= \"duration_ms=\" | logfmt"
                + " | unwrap duration_ms [1m])", start, end, limit, step, null);
    }
}
