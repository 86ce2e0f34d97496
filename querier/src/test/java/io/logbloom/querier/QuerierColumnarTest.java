package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.logbloom.logql.Engine;
import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.ResultEntry;
import io.logbloom.logql.ResultStream;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reads of series whose rows live in columnar objects (chunk format v2, many series per object). */
final class QuerierColumnarTest {
    private static final String TENANT = "t1";
    private static final Labels API = Labels.of("app", "api");
    private static final Labels DB = Labels.of("app", "db");
    private static final long SEC = 1_000_000_000L;

    private static Querier querier(QuerierFakes.Storage s) {
        return new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME, QuerierFakes.DECODER, s,
                Clock.systemUTC(), new PrometheusRegistry());
    }

    private static List<LogEntry> entries(String prefix, int from, int count) {
        List<LogEntry> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            out.add(new LogEntry(i * SEC, prefix + " " + i, List.of(new Label("trace_id", prefix + i))));
        }
        return out;
    }

    private static List<String> drain(List<SeriesEntries> series) {
        List<String> out = new ArrayList<>();
        for (SeriesEntries s : series) {
            Iterator<LogEntry> it = s.entries();
            while (it.hasNext()) {
                LogEntry e = it.next();
                out.add(s.labels().get("app") + "|" + e.timestampNanos() / SEC + "|" + e.line() + "|" + e.metadata());
            }
        }
        return out;
    }

    private static List<String> expected(String app, List<LogEntry> entries, long fromSec, long throughSec) {
        return entries.stream().filter(e -> e.timestampNanos() >= fromSec * SEC && e.timestampNanos() < throughSec * SEC)
                .map(e -> app + "|" + e.timestampNanos() / SEC + "|" + e.line() + "|" + e.metadata()).toList();
    }

    @Test
    void select_readsOnlyTheSeriesBlocksOverlappingTheRange() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        List<LogEntry> api = entries("api", 0, 100);
        s.flushColumnar(TENANT, Map.of(API, api, DB, entries("db", 0, 100)), 10);
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> got = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 25 * SEC, 45 * SEC, true,
                    BloomQuery.matchAll()));
            assertThat(got).isEqualTo(expected("api", api, 25, 45));
            // blocks of 10 rows: [20,29], [30,39], [40,49] overlap; the other 7 api blocks and all db blocks are not read
            assertThat(ctx.stats.chunksFetched.sum()).isEqualTo(3);
            // the api series' 7 other blocks are left out on their directory time range, unread
            assertThat(ctx.stats.chunksSkippedByTime.sum()).isEqualTo(7);
            assertThat(ctx.stats.bytesSkippedByTime.sum()).isBetween(7 * ctx.stats.compressedBytes.sum() / 3 / 2,
                    7 * ctx.stats.compressedBytes.sum() / 3 * 2);
            QueryStatistics stats = ctx.statistics(0);
            assertThat(stats.chunksSkippedByTime()).isEqualTo(7);
            assertThat(stats.totalChunksRef()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void select_readsIndexDirectoryAndTheAwaitedBlockOnTheQueryThread_onlyWithALocalStoreAndInProcessIngester(
            boolean local) throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        s.store.local = local;
        s.inProcess = local;
        List<LogEntry> api = entries("api", 0, 100);
        s.flushColumnar(TENANT, Map.of(API, api, DB, entries("db", 0, 100)), 10);
        s.store.readerThreads.clear();
        String me = Thread.currentThread().getName();
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            // one block, [20, 29]: the reader waits for it at once, nothing is left to prefetch
            List<String> got = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 22 * SEC, 27 * SEC, true,
                    BloomQuery.matchAll()));

            assertThat(got).isEqualTo(expected("api", api, 22, 27));
            assertThat(s.indexThreads).hasSize(1);
            // the object's directory, then its one block
            assertThat(s.store.readerThreads).hasSize(2);
            if (local) {
                assertThat(s.indexThreads).containsOnly(me);
                assertThat(s.store.readerThreads).containsOnly(me);
            } else {
                assertThat(s.indexThreads).doesNotContain(me);
                assertThat(s.store.readerThreads).doesNotContain(me);
            }
        }
    }

    @Test
    void select_withALocalStore_prefetchesTheBlocksAfterTheAwaitedOneOnThePool() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        s.store.local = true;
        s.inProcess = true;
        List<LogEntry> api = entries("api", 0, 100);
        s.flushColumnar(TENANT, Map.of(API, api), 10);
        s.store.readerThreads.clear();
        String me = Thread.currentThread().getName();
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> got = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 100 * SEC, true,
                    BloomQuery.matchAll()));

            assertThat(got).isEqualTo(expected("api", api, 0, 100));
            // the directory and the first block read here; the nine later blocks prefetched on the pool while the
            // reader merges the ones before
            assertThat(s.store.readerThreads).hasSize(11);
            assertThat(s.store.readerThreads).filteredOn(me::equals).hasSize(2);
            assertThat(s.store.readerThreads).filteredOn(t -> t.startsWith("logbloom-chunk-fetch-")).hasSize(9);
        }
    }

    @Test
    void select_backward_withALimitStopsBeforeOlderBlocks() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        s.flushColumnar(TENANT, Map.of(API, entries("api", 0, 100)), 10);
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            Iterator<LogEntry> it = q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, false,
                    BloomQuery.matchAll()).get(0).entries();
            List<Long> newest = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                newest.add(it.next().timestampNanos() / SEC);
            }
            assertThat(newest).containsExactly(99L, 98L, 97L, 96L, 95L);
            assertThat(ctx.stats.chunksFetched.sum()).isLessThanOrEqualTo(1 + QuerierConfig.defaults().maxConcurrentFetches());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void logQuery_withALimit_readsOnlyTheBlocksItReaches_andEqualsTheFullRead(boolean forward) throws Exception {
        // ten series of ten 10-row blocks, each series in its own 100 s: the 15 lines nearest either end of the
        // range lie in two blocks of one series, and the merge must not open a block of the other nine
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        Map<Labels, List<LogEntry>> data = new java.util.HashMap<>();
        List<String> all = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            List<LogEntry> rows = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                rows.add(new LogEntry((k * 1000L + i) * SEC, "line " + k + " " + i, List.of()));
                all.add((k * 1000L + i) + " s" + k + " line " + k + " " + i);
            }
            data.put(Labels.of("app", "s" + k), rows);
        }
        s.flushColumnar(TENANT, data, 10);
        List<String> merged = new ArrayList<>(all);
        merged.sort(Comparator.comparingLong((String line) -> Long.parseLong(line.substring(0, line.indexOf(' ')))));
        if (!forward) {
            java.util.Collections.reverse(merged);
        }
        try (Querier q = querier(s)) {
            QueryRunner runner = new QueryRunner(q, new Engine(), LogqlBloomQueries::extract);
            QueryOutcome.Logs limited = (QueryOutcome.Logs) runner.run(
                    new QueryRequest(TENANT, "{app=~\"s.*\"}", 0, 100_000 * SEC, 0, 15, forward, false, true));
            QueryOutcome.Logs full = (QueryOutcome.Logs) runner.run(
                    new QueryRequest(TENANT, "{app=~\"s.*\"}", 0, 100_000 * SEC, 0, 5000, forward, false, true));

            assertThat(lines(full.result())).containsExactlyInAnyOrderElementsOf(merged);
            assertThat(lines(limited.result())).containsExactlyInAnyOrderElementsOf(merged.subList(0, 15));
            // two blocks and at most one prefetched per block load, of one series; a full read fetches all 100
            assertThat(full.stats().chunksFetched()).isEqualTo(100);
            assertThat(limited.stats().chunksFetched()).isBetween(2L, 4L);
            assertThat(limited.stats().decompressedLines()).isEqualTo(20);
        }
    }

    private static List<String> lines(LogQueryResult result) {
        List<String> out = new ArrayList<>();
        for (ResultStream stream : result.streams()) {
            for (ResultEntry e : stream.entries()) {
                out.add(e.timestampNanos() / SEC + " " + stream.labels().get("app") + " " + e.line());
            }
        }
        return out;
    }

    @Test
    void select_mergesColumnarObjectsRowChunksAndMemory_inOrder_withoutDuplicates() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        List<LogEntry> first = entries("api", 0, 30);
        List<LogEntry> second = entries("api", 20, 30); // overlaps the first object by 10 identical rows
        s.flushColumnar(TENANT, Map.of(API, first), 7);
        s.flushColumnar(TENANT, Map.of(API, second, DB, entries("db", 0, 3)), 7);
        s.flush(TENANT, API, entries("api", 50, 5));
        s.memory.put(API, entries("api", 55, 5));
        List<LogEntry> all = entries("api", 0, 60);
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            assertThat(drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, true,
                    BloomQuery.matchAll()))).isEqualTo(expected("api", all, 0, 1000));
            List<String> backward = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC,
                    false, BloomQuery.matchAll()));
            List<String> reversed = new ArrayList<>(expected("api", all, 0, 1000));
            java.util.Collections.reverse(reversed);
            assertThat(backward).isEqualTo(reversed);
        }
    }
}
