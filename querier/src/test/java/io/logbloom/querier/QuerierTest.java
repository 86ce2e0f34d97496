package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class QuerierTest {
    private static final String TENANT = "t1";
    private static final Labels APP = Labels.of("app", "api");
    private static final Labels DB = Labels.of("app", "db", "trace_id", "stream-level");
    private static final long SEC = 1_000_000_000L;

    private static Querier querier(QuerierFakes.Storage s, QuerierConfig config, Clock clock) {
        return new Querier(config, s.store, s, s, QuerierFakes.SCHEME, QuerierFakes.DECODER, s, clock,
                new PrometheusRegistry());
    }

    private static Querier querier(QuerierFakes.Storage s) {
        return querier(s, QuerierConfig.defaults(), Clock.systemUTC());
    }

    private static LogEntry entry(long sec, String line, String... md) {
        List<Label> labels = new ArrayList<>();
        for (int i = 0; i < md.length; i += 2) {
            labels.add(new Label(md[i], md[i + 1]));
        }
        return new LogEntry(sec * SEC, line, labels);
    }

    private static List<String> drain(List<SeriesEntries> series) {
        List<String> out = new ArrayList<>();
        for (SeriesEntries s : series) {
            Iterator<LogEntry> it = s.entries();
            while (it.hasNext()) {
                LogEntry e = it.next();
                out.add(s.labels() + " " + e.timestampNanos() / SEC + " " + e.line() + " " + e.metadata());
            }
        }
        return out;
    }

    /** 10 chunks of 10 entries; entry i carries trace_id=t<i>. */
    private static QuerierFakes.Storage haystack(int ngram) {
        QuerierFakes.Storage s = new QuerierFakes.Storage(ngram);
        for (int c = 0; c < 10; c++) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = c * 10 + i;
                entries.add(entry(n, "request " + n + " done", "trace_id", "t" + n));
            }
            s.flush(TENANT, APP, entries);
        }
        return s;
    }

    @Test
    void select_mergesChunksAndMemory_dedupesIdentical_bothDirections() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        s.flush(TENANT, APP, List.of(entry(1, "a"), entry(3, "c"), entry(5, "e")));
        s.flush(TENANT, APP, List.of(entry(2, "b"), entry(3, "c"), entry(4, "d")));
        s.memory.put(APP, List.of(entry(5, "e"), entry(6, "f")));
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> fwd = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 100 * SEC, true,
                    BloomQuery.matchAll()));
            assertThat(fwd).extracting(l -> l.split(" ")[1] + l.split(" ")[2])
                    .containsExactly("1a", "2b", "3c", "4d", "5e", "6f");
            assertThat(ctx.statistics(0).totalDuplicates()).isEqualTo(2);
            assertThat(ctx.statistics(0).headChunkLines()).isEqualTo(2);
        }
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> bwd = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 2 * SEC, 6 * SEC, false,
                    BloomQuery.matchAll()));
            assertThat(bwd).extracting(l -> l.split(" ")[1] + l.split(" ")[2])
                    .containsExactly("5e", "4d", "3c", "2b");
        }
    }

    /**
     * Series come out in label order whether the index answers in that order or not, and with series only in
     * memory among them (the plan keeps the index's order when it is sorted and nothing is added).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void select_seriesInLabelOrder_whateverTheIndexOrder(boolean reversedIndex) throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        List<Labels> flushed = List.of(Labels.of("app", "a"), Labels.of("app", "c"), Labels.of("app", "e"));
        for (Labels labels : flushed) {
            s.flush(TENANT, labels, List.of(entry(1, "x")));
        }
        s.reversedIndex = reversedIndex;
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            assertThat(q.select(ctx, List.of(), 0, 100 * SEC, true, BloomQuery.matchAll()))
                    .extracting(SeriesEntries::labels).containsExactlyElementsOf(flushed);
        }
        s.memory.put(Labels.of("app", "b"), List.of(entry(2, "y")));
        s.memory.put(Labels.of("app", "f"), List.of(entry(2, "y")));
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            assertThat(q.select(ctx, List.of(), 0, 100 * SEC, true, BloomQuery.matchAll()))
                    .extracting(s2 -> s2.labels().get("app")).containsExactly("a", "b", "c", "e", "f");
        }
    }

    @Test
    void select_needle_skipsChunksWithoutToken_andMatchesBloomsOff() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        BloomQuery needle = new BloomQuery.MetadataEquals("trace_id", "t42");
        List<LabelMatcher> sel = List.of(LabelMatcher.equal("app", "api"));
        List<String> on;
        QueryStatistics statsOn;
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            on = drain(q.select(ctx, sel, 0, 1000 * SEC, true, needle));
            statsOn = ctx.statistics(0);
        }
        List<String> off;
        QueryStatistics statsOff;
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, false)) {
            off = drain(q.select(ctx, sel, 0, 1000 * SEC, true, needle));
            statsOff = ctx.statistics(0);
        }
        assertThat(statsOn.totalChunksRef()).isEqualTo(10);
        assertThat(statsOn.chunksSkipped()).isEqualTo(9);
        assertThat(statsOn.chunksFetched()).isEqualTo(1);
        assertThat(statsOn.usedBloomFilters()).isTrue();
        assertThat(statsOff.chunksSkipped()).isZero();
        assertThat(statsOff.chunksFetched()).isEqualTo(10);
        // the returned chunk's lines match with blooms off when the caller filters the same way
        assertThat(off).filteredOn(l -> l.contains("value=t42]")).isEqualTo(
                on.stream().filter(l -> l.contains("value=t42]")).toList()).hasSize(1);
    }

    @Test
    void select_remoteStore_readsTheSeriesBloomsInParallel_sameAnswer() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        int series = 6;
        for (int p = 0; p < series; p++) {
            s.flush(TENANT, Labels.of("app", "api", "pod", "p" + p),
                    List.of(entry(p, "request " + p, "trace_id", "t" + p)));
        }
        RoundTrips slow = new RoundTrips(s, java.util.function.UnaryOperator.identity());
        assertThat(s.store.readsAreLocal()).isFalse();
        try (Querier q = new Querier(QuerierConfig.defaults(), s.store, s, slow, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry());
                QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> got = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, true,
                    new BloomQuery.MetadataEquals("trace_id", "t3")));
            assertThat(got).hasSize(1).allMatch(line -> line.contains("request 3"));
            assertThat(ctx.stats.bloomsLoaded.sum()).isEqualTo(series);
            assertThat(ctx.stats.chunksSkipped.sum()).isEqualTo(series - 1);
            assertThat(slow.mostInFlight.get()).as("bloom reads at once").isGreaterThan(1);
        }
    }

    @Test
    void select_remoteStore_cachedBloomsNotCoveringANewChunk_readAgainInParallel() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        int series = 6;
        for (int p = 0; p < series; p++) {
            s.flush(TENANT, Labels.of("app", "api", "pod", "p" + p),
                    List.of(entry(p, "old " + p, "trace_id", "o" + p)));
        }
        // each read returns the bloom as stored at that moment, as a bloom object read from the store would be
        RoundTrips stored = new RoundTrips(s, v -> frozen((QuerierFakes.SetBloom) v));
        try (Querier q = new Querier(QuerierConfig.defaults(), s.store, s, stored, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
            try (QueryContext ctx = q.newContext(TENANT, true)) {
                assertThat(drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, true,
                        new BloomQuery.MetadataEquals("trace_id", "o2")))).hasSize(1);
            }
            for (int p = 0; p < series; p++) { // a merge wrote new chunks; the cached blooms do not cover them
                s.flush(TENANT, Labels.of("app", "api", "pod", "p" + p),
                        List.of(entry(100 + p, "new " + p, "trace_id", "n" + p)));
            }
            stored.mostInFlight.set(0);
            try (QueryContext ctx = q.newContext(TENANT, true)) {
                List<String> got = drain(q.select(ctx, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, true,
                        new BloomQuery.MetadataEquals("trace_id", "n4")));
                assertThat(got).hasSize(1).allMatch(line -> line.contains("new 4"));
                assertThat(ctx.stats.chunksSkipped.sum()).isEqualTo(2 * series - 1);
                assertThat(ctx.stats.bloomsLoaded.sum()).isEqualTo(series);
            }
            assertThat(stored.mostInFlight.get()).as("blooms read again at once").isGreaterThan(1);
        }
    }

    /** The fake's blooms read as from a remote store: each read waits a round trip; the most at once is kept. */
    private static final class RoundTrips implements SeriesBloomSource {
        private final QuerierFakes.Storage storage;
        private final java.util.function.UnaryOperator<SeriesBloomView> asRead;
        private final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();

        RoundTrips(QuerierFakes.Storage storage, java.util.function.UnaryOperator<SeriesBloomView> asRead) {
            this.storage = storage;
            this.asRead = asRead;
        }

        @Override
        public java.util.Optional<SeriesBloomView> load(String tenant, long fingerprint, long period)
                throws java.io.IOException {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(50);
                return storage.load(tenant, fingerprint, period).map(asRead);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }

    /** {@code live} as it is now: later chunks of its series are not covered. */
    private static SeriesBloomView frozen(QuerierFakes.SetBloom live) {
        java.util.Set<String> covered = java.util.Set.copyOf(live.covered);
        return new SeriesBloomView() {
            @Override
            public boolean covers(String objectKey) {
                return covered.contains(objectKey);
            }

            @Override
            public boolean mightContain(String objectKey, long hash) {
                return live.mightContain(objectKey, hash);
            }

            @Override
            public boolean ngramEnabled() {
                return live.ngramEnabled();
            }

            @Override
            public int ngramLength() {
                return live.ngramLength();
            }

            @Override
            public int ngramSkip() {
                return live.ngramSkip();
            }

            @Override
            public boolean wordTokens() {
                return live.wordTokens();
            }

            @Override
            public long sizeBytes() {
                return live.sizeBytes();
            }
        };
    }

    @Test
    void select_bloomCacheHitsAndMisses_counted() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        BloomQuery needle = new BloomQuery.MetadataEquals("trace_id", "t42");
        List<LabelMatcher> sel = List.of(LabelMatcher.equal("app", "api"));
        try (Querier q = querier(s)) {
            for (int i = 0; i < 3; i++) {
                try (QueryContext ctx = q.newContext(TENANT, true)) {
                    drain(q.select(ctx, sel, 0, 1000 * SEC, true, needle));
                }
            }
            // one series, one bloom: read from the store by the first query, found cached by the next two
            assertThat(q.metrics().bloomCacheMisses()).isEqualTo(1);
            assertThat(q.metrics().bloomCacheHits()).isEqualTo(2);
        }
        QuerierConfig d = QuerierConfig.defaults();
        QuerierConfig noCache = new QuerierConfig(true, d.maxConcurrentFetches(), d.chunkCacheBytes(), 0,
                d.maxEntriesLimitPerQuery(), d.maxQuerySeries(), d.queryTimeout(), d.maxQueryBytesRead());
        try (Querier q = querier(s, noCache, Clock.systemUTC())) {
            for (int i = 0; i < 2; i++) {
                try (QueryContext ctx = q.newContext(TENANT, true)) {
                    drain(q.select(ctx, sel, 0, 1000 * SEC, true, needle));
                }
            }
            assertThat(q.metrics().bloomCacheMisses()).isEqualTo(2);
            assertThat(q.metrics().bloomCacheHits()).isZero();
        }
    }

    @Test
    void newQuerier_startsItsPoolThreads_beforeTheFirstQuery() throws Exception {
        QuerierConfig config = QuerierConfig.defaults();
        try (Querier q = querier(haystack(0), config, Clock.systemUTC())) {
            assertThat(q.startedPoolThreads()).isEqualTo(config.maxConcurrentFetches()
                    + Runtime.getRuntime().availableProcessors());
        }
    }

    @Test
    void select_metadataKeyIsStreamLabel_neverSkipped() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        s.flush(TENANT, DB, List.of(entry(1, "x")));
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> got = drain(q.select(ctx, List.of(), 0, 100 * SEC, true,
                    new BloomQuery.MetadataEquals("trace_id", "stream-level")));
            assertThat(got).hasSize(1);
            assertThat(ctx.statistics(0).chunksSkipped()).isZero();
        }
    }

    @Test
    void select_chunkNotCovered_neverSkipped_andMissingBloomFetches() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        s.blooms.values().forEach(b -> b.covered.clear());
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.MetadataEquals("trace_id", "nope"));
            assertThat(ctx.statistics(0).postFilterChunks()).isEqualTo(10);
        }
        s.blooms.clear();
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.MetadataEquals("trace_id", "nope"));
            assertThat(ctx.statistics(0).postFilterChunks()).isEqualTo(10);
        }
    }

    @Test
    void select_staleCachedBloom_reloadedWhenChunkNotCovered() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        try (Querier q = querier(s)) {
            try (QueryContext ctx = q.newContext(TENANT, true)) {
                q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.MetadataEquals("trace_id", "x"));
            }
            s.flush(TENANT, APP, List.of(entry(500, "late", "trace_id", "late")));
            try (QueryContext ctx = q.newContext(TENANT, true)) {
                q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.MetadataEquals("trace_id", "x"));
                assertThat(ctx.statistics(0).chunksSkipped()).isEqualTo(11);
            }
        }
    }

    @Test
    void select_lineContains_ngramMode_skipsAndAlignmentWithoutGramsFetches() throws Exception {
        QuerierFakes.Storage s = haystack(3);
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.LineContains("request 57 "));
            assertThat(ctx.statistics(0).chunksSkipped()).isEqualTo(9);
        }
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.LineContains("zz"));
            assertThat(ctx.statistics(0).chunksSkipped()).isZero();
        }
        QuerierFakes.Storage plain = haystack(0);
        try (Querier q = querier(plain); QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.LineContains("request 57 "));
            assertThat(ctx.statistics(0).chunksSkipped()).isZero();
        }
    }

    @Test
    void select_lineContains_wordTokens_skipOnlyOnWordsBoundedInsideTheLiteral() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0, true);
        for (int c = 0; c < 10; c++) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = c * 10 + i;
                entries.add(entry(n, "request r" + n + " " + n + " done", "trace_id", "t" + n));
            }
            s.flush(TENANT, APP, entries);
        }
        try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
            List<String> lines = drain(q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.LineContains("request r57 ")));
            assertThat(ctx.statistics(0).chunksSkipped()).isEqualTo(9);
            assertThat(lines).anyMatch(l -> l.contains("request r57 57 done"));
        }
        // digit-only words are not indexed (WordTokens), so a bare number proves nothing
        for (String unbounded : List.of("request r57", "57 done", "equest r5", " 57 ")) {
            try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
                q.select(ctx, List.of(), 0, 1000 * SEC, true, new BloomQuery.LineContains(unbounded));
                assertThat(ctx.statistics(0).chunksSkipped()).as(unbounded).isZero();
            }
        }
    }

    @Test
    void select_orAndTrees() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        BloomQuery or = new BloomQuery.Or(List.of(new BloomQuery.MetadataEquals("trace_id", "t3"),
                new BloomQuery.MetadataEquals("trace_id", "t77")));
        BloomQuery andWithAll = new BloomQuery.And(List.of(new BloomQuery.MatchAll(),
                new BloomQuery.MetadataEquals("trace_id", "t3")));
        BloomQuery orWithAll = new BloomQuery.Or(List.of(new BloomQuery.MatchAll(),
                new BloomQuery.MetadataEquals("trace_id", "t3")));
        try (Querier q = querier(s)) {
            assertThat(postFilter(q, or)).isEqualTo(2);
            assertThat(postFilter(q, andWithAll)).isEqualTo(1);
            assertThat(postFilter(q, orWithAll)).isEqualTo(10);
            assertThat(postFilter(q, new BloomQuery.MetadataExists("trace_id"))).isEqualTo(10);
            assertThat(postFilter(q, new BloomQuery.MetadataExists("user"))).isZero();
        }
    }

    private static long postFilter(Querier q, BloomQuery bq) throws Exception {
        try (QueryContext ctx = q.newContext(TENANT, true)) {
            q.select(ctx, List.of(), 0, 1000 * SEC, true, bq);
            return ctx.statistics(0).postFilterChunks();
        }
    }

    @Test
    void select_stopsFetchingWhenConsumerStops() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        QuerierConfig oneAtATime = new QuerierConfig(true, 1, 0, 0, 5000, 500, Duration.ofMinutes(1), 0);
        try (Querier q = querier(s, oneAtATime, Clock.systemUTC()); QueryContext ctx = q.newContext(TENANT, true)) {
            Iterator<LogEntry> it = q.select(ctx, List.of(), 0, 1000 * SEC, false, BloomQuery.matchAll())
                    .get(0).entries();
            for (int i = 0; i < 15; i++) {
                assertThat(it.next().timestampNanos()).isEqualTo((99 - i) * SEC);
            }
            ctx.close();
            assertThat(s.store.gets.get()).isLessThanOrEqualTo(4);
        }
    }

    @Test
    void select_randomizedBloomOnOffEquality() throws Exception {
        Random rnd = new Random(7);
        QuerierFakes.Storage s = new QuerierFakes.Storage(3);
        String[] words = {"alpha", "beta", "gamma", "delta", "error", "warn"};
        long ts = 0;
        for (int c = 0; c < 30; c++) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                ts += 1 + rnd.nextInt(3);
                entries.add(entry(ts, words[rnd.nextInt(words.length)] + " " + rnd.nextInt(50),
                        "user", "u" + rnd.nextInt(20), "trace_id", "x" + rnd.nextInt(200)));
            }
            s.flush(TENANT, Labels.of("app", "a" + rnd.nextInt(3)), entries);
        }
        for (int k = 0; k < 40; k++) {
            BloomQuery bq = switch (rnd.nextInt(4)) {
                case 0 -> new BloomQuery.MetadataEquals("user", "u" + rnd.nextInt(25));
                case 1 -> new BloomQuery.LineContains(words[rnd.nextInt(words.length)] + " " + rnd.nextInt(50));
                case 2 -> new BloomQuery.Or(List.of(new BloomQuery.MetadataEquals("trace_id", "x" + rnd.nextInt(220)),
                        new BloomQuery.LineContains("gamma")));
                default -> new BloomQuery.And(List.of(new BloomQuery.MetadataExists("user"),
                        new BloomQuery.LineContains("delta " + rnd.nextInt(50))));
            };
            long from = rnd.nextInt((int) ts) * SEC;
            long through = from + rnd.nextInt(200) * SEC;
            boolean forward = rnd.nextBoolean();
            List<String> on;
            List<String> off;
            try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, true)) {
                on = drain(q.select(ctx, List.of(), from, through, forward, bq));
            }
            try (Querier q = querier(s); QueryContext ctx = q.newContext(TENANT, false)) {
                off = drain(q.select(ctx, List.of(), from, through, forward, bq));
            }
            assertThat(on).as("query %s", bq).isEqualTo(off.stream().filter(line -> satisfied(bq, line) || on.contains(line)).toList());
            assertThat(off.stream().filter(line -> satisfied(bq, line)).toList()).isSubsetOf(on);
        }
    }

    /** Brute-force truth of a bloom query on a drained line ("labels ts line [metadata]"). */
    private static boolean satisfied(BloomQuery bq, String row) {
        if (bq instanceof BloomQuery.MetadataEquals eq) {
            return row.contains("name=" + eq.key() + ", value=" + eq.value() + "]");
        }
        if (bq instanceof BloomQuery.MetadataExists ex) {
            return row.contains("name=" + ex.key() + ",");
        }
        if (bq instanceof BloomQuery.LineContains lc) {
            return row.substring(0, row.indexOf(" [")).contains(lc.literal());
        }
        if (bq instanceof BloomQuery.And and) {
            return and.parts().stream().allMatch(p -> satisfied(p, row));
        }
        if (bq instanceof BloomQuery.Or or) {
            return or.parts().stream().anyMatch(p -> satisfied(p, row));
        }
        return true;
    }

    @Test
    void select_bytesLimit_rejectedWithLokiMessage() {
        QuerierFakes.Storage s = haystack(0);
        QuerierConfig limited = new QuerierConfig(true, 2, 0, 0, 5000, 500, Duration.ofMinutes(1), 100);
        try (Querier q = querier(s, limited, Clock.systemUTC()); QueryContext ctx = q.newContext(TENANT, true)) {
            assertThatThrownBy(() -> q.select(ctx, List.of(), 0, 1000 * SEC, true, BloomQuery.matchAll()))
                    .isInstanceOf(QuerierException.class)
                    .hasMessageStartingWith("the query would read too many bytes (query: ")
                    .hasMessageContaining("limit: 100 B)")
                    .satisfies(e -> assertThat(((QuerierException) e).code()).isEqualTo(QuerierErrorCode.LIMIT_EXCEEDED));
        }
    }

    @Test
    void select_pastDeadline_timesOut() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        MutableClock clock = new MutableClock();
        QuerierConfig cfg = new QuerierConfig(true, 2, 0, 0, 5000, 500, Duration.ofSeconds(5), 0);
        try (Querier q = querier(s, cfg, clock); QueryContext ctx = q.newContext(TENANT, true)) {
            Iterator<LogEntry> it = q.select(ctx, List.of(), 0, 1000 * SEC, true, BloomQuery.matchAll())
                    .get(0).entries();
            clock.now = clock.now.plusSeconds(6);
            assertThatThrownBy(it::hasNext).isInstanceOf(QuerierException.class)
                    .hasMessage("query timed out: exceeded query_timeout of 5s");
        }
    }

    @Test
    void lookups_includeUnflushedStreams() throws Exception {
        QuerierFakes.Storage s = haystack(0);
        s.memory.put(DB, List.of(entry(3, "mem")));
        try (Querier q = querier(s)) {
            assertThat(q.labelNames(TENANT, List.of(), 0, 1000 * SEC)).containsExactly("app", "trace_id");
            assertThat(q.labelValues(TENANT, "app", List.of(), 0, 1000 * SEC)).containsExactly("api", "db");
            assertThat(q.series(TENANT, List.of(List.of(LabelMatcher.equal("app", "db"))), 0, 1000 * SEC))
                    .containsExactly(DB);
            IndexStats stats = q.indexStats(TENANT, List.of(), 0, 1000 * SEC);
            assertThat(stats.streams()).isEqualTo(2);
            assertThat(stats.chunks()).isEqualTo(10);
            assertThat(stats.entries()).isEqualTo(101);
            assertThat(q.volume(TENANT, List.of(LabelMatcher.equal("app", "api")), 0, 1000 * SEC, List.of(), false, 10))
                    .singleElement().satisfies(v -> assertThat(v.labels()).containsEntry("app", "api"));
            assertThat(q.labelNames("other", List.of(), 0, 1000 * SEC)).isEmpty();
        }
    }

    @Test
    void config_validation_namesValue() {
        assertThatThrownBy(() -> new QuerierConfig(true, 0, 0, 0, 1, 1, Duration.ofSeconds(1), 0))
                .hasMessage("max_concurrent_fetches must be in [1, 1024]: 0");
        assertThatThrownBy(() -> new QuerierConfig(true, 1, 0, 0, 1, 1, Duration.ZERO, 0))
                .hasMessage("query_timeout must be positive: PT0S");
        assertThat(QuerierConfig.defaults().maxEntriesLimitPerQuery()).isEqualTo(5000);
    }

    @Test
    void chunkCache_boundedByBytes() {
        ChunkCache cache = new ChunkCache(10_000);
        for (int i = 0; i < 100; i++) {
            cache.put("k" + i, new byte[1000]);
        }
        assertThat(cache.weightedSize()).isLessThanOrEqualTo(10_000);
        assertThat(new ChunkCache(0).get("k1")).isNull();
    }

    @Test
    void humanBytes_likeGoHumanize() {
        assertThat(StoreReader.humanBytes(5)).isEqualTo("5 B");
        assertThat(StoreReader.humanBytes(1_200_000_000L)).isEqualTo("1.2 GB");
        assertThat(StoreReader.humanBytes(100)).isEqualTo("100 B");
        assertThat(QueryContext.formatDuration(Duration.ofMinutes(1))).isEqualTo("1m0s");
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2024-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void metadataLookups_readTheUnflushedDataBeforeTheIndex() throws Exception {
        // a row uploaded between the two reads is then seen twice, never missed; and a cluster querier hears of the
        // ingesters' new index files before it lists
        QuerierFakes.Storage s = haystack(0);
        s.memory.put(DB, List.of(entry(200, "late")));
        List<String> order = new ArrayList<>();
        io.logbloom.index.IndexReader index = new io.logbloom.index.IndexReader() {
            @Override
            public List<io.logbloom.index.SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long from,
                    long through) {
                order.add("index");
                return s.chunks(tenant, matchers, from, through);
            }

            @Override
            public List<Labels> series(String tenant, List<LabelMatcher> matchers, long from, long through) {
                order.add("index");
                return s.series(tenant, matchers, from, through);
            }

            @Override
            public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long from, long through) {
                order.add("index");
                return s.labelNames(tenant, matchers, from, through);
            }

            @Override
            public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long from,
                    long through) {
                order.add("index");
                return s.labelValues(tenant, name, matchers, from, through);
            }
        };
        UnflushedSource unflushed = (tenant, matchers, from, through) -> {
            order.add("unflushed");
            return s.unflushed(tenant, matchers, from, through);
        };
        List<LabelMatcher> any = List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", ".+"));
        try (Querier q = new Querier(QuerierConfig.defaults(), s.store, index, s, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, unflushed, Clock.systemUTC(), new PrometheusRegistry())) {
            assertThat(q.labelNames(TENANT, any, 0, 300 * SEC)).contains("app", "trace_id");
            assertThat(q.labelValues(TENANT, "app", any, 0, 300 * SEC)).containsExactly("api", "db");
            assertThat(q.series(TENANT, List.of(any), 0, 300 * SEC)).containsExactly(APP, DB);
            assertThat(q.indexStats(TENANT, any, 0, 300 * SEC).streams()).isEqualTo(2);
        }
        assertThat(order).containsExactly("unflushed", "index", "unflushed", "index", "unflushed", "index",
                "unflushed", "index");
    }
}
