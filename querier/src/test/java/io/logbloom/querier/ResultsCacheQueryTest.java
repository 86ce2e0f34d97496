package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.MetricResult;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Metric range queries split and answered from the results cache, against the same queries evaluated whole. */
final class ResultsCacheQueryTest {
    private static final String TENANT = "t1";
    private static final long SEC = 1_000_000_000L;
    private static final long MIN = 60 * SEC;
    private static final long HOUR = 60 * MIN;
    private static final String[] APPS = {"api", "db", "web"};
    private static final String[] QUERIES = {
        "count_over_time({env=\"prod\"}[5m])",
        "sum by (app) (rate({env=\"prod\"} |= \"error\" [10m]))",
        "bytes_over_time({app=\"api\"}[7m] offset 3m)",
        "sum(count_over_time({env=\"prod\"} | logfmt | took > 300 [15m]))",
        "max_over_time({env=\"prod\"} | logfmt | unwrap took [20m]) by (app)",
        "quantile_over_time(0.9, {env=\"prod\"} | logfmt | unwrap took [10m]) by (app)",
        "topk(2, sum by (app) (count_over_time({env=\"prod\"}[30m])))",
        "absent_over_time({app=\"nope\"}[5m])",
        "sum(rate({env=\"prod\"}[1h])) / 2",
        "sum by (level) (count_over_time({env=\"prod\"} | logfmt [2m])) > 1",
    };
    private static final long[] STEPS = {15 * SEC, MIN, 5 * MIN, 7 * MIN, 2 * HOUR};

    private final QuerierFakes.Storage storage = new QuerierFakes.Storage(0);
    private final QuerierTest.MutableClock clock = new QuerierTest.MutableClock();
    /** Counts evaluations: the runner wraps one entry source per evaluation (whole query or split). */
    private final AtomicInteger evaluations = new AtomicInteger();
    /** Ranges [from, through) the fake delete filter may hide rows in. */
    private final List<long[]> hidden = new ArrayList<>();
    private long now;
    private Querier querier;

    @BeforeEach
    void load() {
        now = clock.now.getEpochSecond() * SEC + 30 * MIN;
        clock.now = clock.now.plusSeconds(30 * 60);
        Random rnd = new Random(5);
        // 9 hours of lines every ~20s per app, flushed in 30-minute chunks
        for (String app : APPS) {
            Labels labels = Labels.of("app", app, "env", "prod");
            for (long chunkStart = now - 9 * HOUR; chunkStart < now - 20 * MIN; chunkStart += 30 * MIN) {
                List<LogEntry> entries = new ArrayList<>();
                for (long t = chunkStart + rnd.nextInt(20) * SEC; t < chunkStart + 30 * MIN && t < now - 20 * MIN;
                        t += (10 + rnd.nextInt(20)) * SEC) {
                    entries.add(line(t, rnd));
                }
                storage.flush(TENANT, labels, entries);
            }
            List<LogEntry> recent = new ArrayList<>();
            for (long t = now - 20 * MIN + app.length() * SEC; t < now; t += 25 * SEC) {
                recent.add(line(t, rnd));
            }
            storage.memory.put(labels, recent);
        }
        querier = new Querier(QuerierConfig.defaults(), storage.store, storage, storage, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, storage, clock, new PrometheusRegistry());
    }

    private static LogEntry line(long t, Random rnd) {
        return new LogEntry(t, "level=" + (rnd.nextInt(5) == 0 ? "error" : "info") + " took=" + rnd.nextInt(900)
                + " msg=\"" + (rnd.nextBoolean() ? "error talking" : "all fine") + "\"", List.of());
    }

    private QueryRunner runner(ResultsCacheConfig cache) {
        QuerySourceFilter filter = new QuerySourceFilter() {
            @Override
            public EntrySource wrap(String tenant, EntrySource source) {
                evaluations.incrementAndGet();
                return source;
            }

            @Override
            public boolean mayHide(String tenant, long fromNanos, long throughNanos) {
                return hidden.stream().anyMatch(r -> r[0] < throughNanos && fromNanos < r[1]);
            }
        };
        return new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract, 4, filter, cache);
    }

    private static ResultsCacheConfig cache(long bytes) {
        return new ResultsCacheConfig(bytes, Duration.ofHours(1), Duration.ofMinutes(10));
    }

    private static MetricResult range(QueryRunner runner, String q, long start, long end, long step, boolean cache)
            throws Exception {
        QueryOutcome out = runner.run(new QueryRequest(TENANT, q, start, end, step, 100, false, false, true, cache));
        return ((QueryOutcome.Metrics) out).result();
    }

    @Test
    void evalRange_cachedAndRecomputedSplits_equalWholeEvaluation() throws Exception {
        QueryRunner cached = runner(cache(64L << 20));
        QueryRunner whole = runner(ResultsCacheConfig.disabled());
        Random rnd = new Random(42);
        for (int i = 0; i < 60; i++) {
            String q = QUERIES[rnd.nextInt(QUERIES.length)];
            long step = STEPS[rnd.nextInt(STEPS.length)];
            long start = now - 8 * HOUR + (long) (rnd.nextDouble() * 7 * HOUR);
            long end = Math.min(now, start + (long) (rnd.nextDouble() * 5 * HOUR));
            MetricResult expected = range(whole, q, start, end, step, true);
            assertThat(range(cached, q, start, end, step, true)).as("first run of %s step %d", q, step)
                    .isEqualTo(expected);
            assertThat(range(cached, q, start, end, step, true)).as("repeat of %s step %d", q, step)
                    .isEqualTo(expected);
        }
        assertThat(querier.metrics().resultsCacheHits()).isPositive();
        assertThat(querier.metrics().resultsCacheMisses()).isPositive();
    }

    /**
     * A step of 292 years (a hostile request found by HostileInputFuzzTest): the range aligns to [0, step], and the
     * step after the last one does not fit in a long. The split loop stepped past the end, wrapped to negative times
     * and evaluated splits until the query timed out; now it stops at the end: two steps, two evaluations.
     */
    @Test
    void evalRange_stepOfCenturies_evaluatesItsTwoStepsOnce_withoutWrappingPastTheEnd() throws Exception {
        long step = 292L * 365 * 24 * HOUR;
        String q = "sum by (app) (rate({env=\"prod\"} [1m]))";
        // the wrapping loop ran until the query timed out: fail, do not hang the build
        MetricResult result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> range(runner(cache(64L << 20)), q, now - HOUR, now, step, true));
        assertThat(evaluations.get()).isEqualTo(2);
        assertThat(result).isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, now - HOUR, now, step, true));
    }

    /** An end whose step grid's next point does not fit in a long: aligned down to the last step, not wrapped. */
    @Test
    void evalRange_endNearTheLargestTime_alignsDownInsteadOfWrapping() throws Exception {
        String q = "sum by (app) (rate({env=\"prod\"} [1m]))";
        long end = Long.MAX_VALUE - 1;
        MetricResult result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> range(runner(cache(64L << 20)), q, end - 3 * HOUR, end, HOUR, true));
        assertThat(result).isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, end - 3 * HOUR, end, HOUR, true));
        assertThat(result).isInstanceOfSatisfying(MetricResult.Matrix.class, m -> assertThat(m.series()).isEmpty());
    }

    @Test
    void dashboardRepeat_evaluatesOnlyTheNewestSplit() throws Exception {
        QueryRunner runner = runner(cache(64L << 20));
        String q = "sum by (app) (count_over_time({env=\"prod\"} |= \"error\" [5m]))";
        MetricResult first = range(runner, q, now - 6 * HOUR, now, MIN, true);
        // a 6h window 30 minutes into the hour touches 7 splits; the newest is evaluated as an extent up to the
        // freshness line (not stored: it reads the unflushed rows of the last 20 minutes) and the steps after it
        assertThat(evaluations.get()).isEqualTo(8);
        assertThat(querier.metrics().resultsCacheMisses()).isEqualTo(7);

        clock.now = clock.now.plusSeconds(30);
        evaluations.set(0);
        MetricResult second = range(runner, q, now - 6 * HOUR + 30 * SEC, now + 30 * SEC, MIN, true);
        assertThat(evaluations.get()).isEqualTo(2);
        assertThat(querier.metrics().resultsCacheHits()).isEqualTo(6);
        assertThat(second).isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, now - 6 * HOUR + 30 * SEC,
                now + 30 * SEC, MIN, true));
        assertThat(first).isNotEqualTo(second);
    }

    /** Moves the unflushed rows of the last 20 minutes into the store, as a flush would. */
    private void flushRecent() {
        for (Map.Entry<Labels, List<LogEntry>> e : storage.memory.entrySet()) {
            storage.flush(TENANT, e.getKey(), e.getValue());
        }
        storage.memory.clear();
    }

    @Test
    void dashboardRepeat_allFlushed_evaluatesOnlyTheStepsAfterTheCachedExtent() throws Exception {
        flushRecent();
        QueryRunner runner = runner(cache(64L << 20));
        QueryRunner whole = runner(ResultsCacheConfig.disabled());
        String q = "sum by (app) (count_over_time({env=\"prod\"} |= \"error\" [5m]))";
        range(runner, q, now - 6 * HOUR, now, MIN, true);
        evaluations.set(0);
        MetricResult repeat = range(runner, q, now - 6 * HOUR, now, MIN, true);
        // every old split and the newest split's extent up to now - 10m hit; only the last 10 minutes are evaluated
        assertThat(evaluations.get()).isEqualTo(1);
        assertThat(repeat).isEqualTo(range(whole, q, now - 6 * HOUR, now, MIN, true));

        clock.now = clock.now.plusSeconds(120);
        long later = now + 2 * MIN;
        evaluations.set(0);
        MetricResult moved = range(runner, q, later - 6 * HOUR, later, MIN, true);
        // the extent grows by the two steps that crossed the freshness line, then the fresh tail
        assertThat(evaluations.get()).isEqualTo(2);
        assertThat(moved).isEqualTo(range(whole, q, later - 6 * HOUR, later, MIN, true));
    }

    @Test
    void slidingDashboard_allFlushed_extentsEqualWholeEvaluation() throws Exception {
        flushRecent();
        QueryRunner cached = runner(cache(64L << 20));
        QueryRunner whole = runner(ResultsCacheConfig.disabled());
        Random rnd = new Random(7);
        long at = now;
        for (int i = 0; i < 40; i++) {
            long advance = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(400) * SEC;
            clock.now = clock.now.plusNanos(advance);
            at += advance;
            String q = QUERIES[rnd.nextInt(QUERIES.length)];
            long step = STEPS[rnd.nextInt(STEPS.length - 1)];
            long end = at - rnd.nextInt(3) * 7 * MIN;
            long start = end - (1 + rnd.nextInt(6)) * HOUR;
            MetricResult expected = range(whole, q, start, end, step, true);
            assertThat(range(cached, q, start, end, step, true)).as("%s step %d at +%ds", q, step, (at - now) / SEC)
                    .isEqualTo(expected);
        }
        assertThat(querier.metrics().resultsCacheHits()).isPositive();
    }

    @Test
    void lateFlushIntoCachedExtent_invalidatesIt() throws Exception {
        flushRecent();
        QueryRunner runner = runner(cache(64L << 20));
        String q = "sum(count_over_time({env=\"prod\"}[10m]))";
        MetricResult before = range(runner, q, now - 2 * HOUR, now, MIN, true);
        assertThat(range(runner, q, now - 2 * HOUR, now, MIN, true)).isEqualTo(before);
        // a late row into the newest split's cached extent (before the freshness line), then flushed
        storage.flush(TENANT, Labels.of("app", "late", "env", "prod"),
                List.of(new LogEntry(now - 25 * MIN + 17 * SEC, "late line", List.of())));
        MetricResult after = range(runner, q, now - 2 * HOUR, now, MIN, true);
        assertThat(after).isNotEqualTo(before)
                .isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, now - 2 * HOUR, now, MIN, true));
    }

    @Test
    void pipelineErrorOnlyBeforeTheQueryWindow_answersAsWholeEvaluation() throws Exception {
        // a line that fails to parse as JSON lies in the first split but before the query's window and its lookback
        storage.flush(TENANT, Labels.of("app", "bad", "env", "prod"),
                List.of(new LogEntry(now - 4 * HOUR - 28 * MIN, "not json", List.of()),
                        new LogEntry(now - 4 * HOUR + 10 * MIN, "{\"a\":1}", List.of())));
        String q = "count_over_time({app=\"bad\"} | json [5m])";
        long start = now - 4 * HOUR;
        MetricResult expected = range(runner(ResultsCacheConfig.disabled()), q, start, now - 3 * HOUR, MIN, true);
        assertThat(expected).isInstanceOf(MetricResult.Matrix.class);
        assertThat(range(runner(cache(64L << 20)), q, start, now - 3 * HOUR, MIN, true)).isEqualTo(expected);
    }

    @Test
    void noCacheRequest_bypassesTheCache() throws Exception {
        QueryRunner runner = runner(cache(64L << 20));
        String q = "count_over_time({app=\"db\"}[5m])";
        range(runner, q, now - 3 * HOUR, now, MIN, false);
        range(runner, q, now - 3 * HOUR, now, MIN, false);
        assertThat(evaluations.get()).isEqualTo(2);
        assertThat(querier.metrics().resultsCacheHits() + querier.metrics().resultsCacheMisses()).isZero();
    }

    @Test
    void lateFlushIntoCachedRange_invalidatesIt() throws Exception {
        QueryRunner runner = runner(cache(64L << 20));
        String q = "sum(count_over_time({env=\"prod\"}[10m]))";
        long start = now - 5 * HOUR;
        long end = now - 3 * HOUR;
        MetricResult before = range(runner, q, start, end, MIN, true);
        range(runner, q, start, end, MIN, true);
        long hits = querier.metrics().resultsCacheHits();
        assertThat(hits).isPositive();

        // an out-of-order push into the old window, then flushed: a new chunk in the index for that range
        storage.flush(TENANT, Labels.of("app", "late", "env", "prod"),
                List.of(new LogEntry(now - 4 * HOUR + 17 * SEC, "late line", List.of())));
        evaluations.set(0);
        MetricResult after = range(runner, q, start, end, MIN, true);
        assertThat(after).isNotEqualTo(before)
                .isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, start, end, MIN, true));
        assertThat(querier.metrics().resultsCacheHits()).as("only the splits the late row does not reach hit")
                .isEqualTo(hits + 2);
    }

    @Test
    void lateUnflushedRowsInCachedRange_areNotHiddenByTheCache() throws Exception {
        QueryRunner runner = runner(cache(64L << 20));
        String q = "sum(count_over_time({env=\"prod\"}[10m]))";
        long start = now - 5 * HOUR;
        long end = now - 3 * HOUR;
        MetricResult before = range(runner, q, start, end, MIN, true);
        storage.memory.put(Labels.of("app", "late", "env", "prod"),
                List.of(new LogEntry(now - 4 * HOUR + 17 * SEC, "late line", List.of())));
        MetricResult after = range(runner, q, start, end, MIN, true);
        assertThat(after).isNotEqualTo(before)
                .isEqualTo(range(runner(ResultsCacheConfig.disabled()), q, start, end, MIN, true));
    }

    @Test
    void deleteRequestOverCachedRange_invalidatesIt() throws Exception {
        QueryRunner runner = runner(cache(64L << 20));
        String q = "count_over_time({app=\"web\"}[5m])";
        long start = now - 5 * HOUR;
        long end = now - 3 * HOUR;
        range(runner, q, start, end, MIN, true);
        hidden.add(new long[] {now - 4 * HOUR, now - 4 * HOUR + MIN});
        long hits = querier.metrics().resultsCacheHits();
        evaluations.set(0);
        range(runner, q, start, end, MIN, true);
        // only the split holding the deleted minute is evaluated again; no other split's 5m lookback reaches it
        assertThat(querier.metrics().resultsCacheHits() - hits).isEqualTo(2);
        assertThat(evaluations.get()).isEqualTo(1);
    }

    @Test
    void cacheBoundedInBytes_evictsLeastRecentlyUsed() throws Exception {
        QueryRunner small = runner(cache(20_000));
        for (int i = 0; i < 6; i++) {
            range(small, "count_over_time({app=\"" + APPS[i % 3] + "\"}[" + (i + 1) + "m])", now - 8 * HOUR,
                    now - 2 * HOUR, MIN, true);
        }
        assertThat(querier.metrics().resultsCacheEvictions()).isPositive();
        assertThat(querier.metrics().resultsCacheBytes()).isPositive().isLessThanOrEqualTo(20_000);
    }
}
