package io.logbloom.bench;

import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.WalConfig;
import io.logbloom.logql.Engine;
import io.logbloom.querier.LogqlBloomQueries;
import io.logbloom.querier.Querier;
import io.logbloom.querier.QuerierConfig;
import io.logbloom.querier.QueryOutcome;
import io.logbloom.querier.QueryRequest;
import io.logbloom.querier.QueryRunner;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The scan-speed issue's measurement, in one process and one run: builds a fixed engine-v2 data set
 * through the real {@link Ingester} and merge (100 streams over three {@code env} values, logfmt
 * lines with {@code ts=N}, {@code status}, {@code bytes} and an occasional {@code retrying}, a unique
 * {@code trace_id} in structured metadata per line, filesystem store), flushes it, then runs the
 * issue's five instant queries over the whole range (and an unwrap of a logfmt field, a logfmt filter on a field
 * mid-line, a count grouped by a parsed label, a {@code json} parser with a parameter) plus one dashboard
 * range query, each with the row-at-a-time reference engine and with the engine that answers from columns, alternating, and
 * prints the median latency of each and the ratio. Every pair of answers must be equal (else the run
 * fails), so a fast wrong answer cannot pass. Block and chunk caches are on (a dashboard's steady
 * state); warm-up runs of each query fill them and are not counted: they go on until the JIT is done compiling (at
 * most {@code --max-warmups N}, default 10).
 * A last row repeats the dashboard query over {@code [now-6h, now]} without and with the results cache. Not
 * thread-safe (one run per process).
 *
 * <p>Run: {@code java -Xmx2g -cp bench/target/benchmarks.jar io.logbloom.bench.QueryScanReport --lines 1000000}
 * (flags: {@code --lines N}, {@code --streams N}, {@code --runs N}, {@code --dir PATH}).
 *
 * <p>Server-like mode, for the shipped configuration: {@code --server-like} sizes the chunk cache (heap/8, at most
 * 256 MiB) and the bloom cache (heap/16, at most 128 MiB) from the heap as the server's {@code auto} sizes do, so a
 * run at {@code -Xmx512m} shows what a server with a cache smaller than the data answers, not a warm big-heap cache.
 * {@code --data PATH} queries an existing server data directory instead of building one (work on a copy: the
 * ingester replays its WAL there), as tenant {@code --tenant} (default {@code fake}) over {@code --selector}
 * (default {@code {env=~".+"}}), for {@code --span-seconds} (default 6h) up to {@code --end-nanos} (default: the
 * newest row in the objects, plus one); the MB/s column divides {@code --raw-bytes} (default: the line and metadata
 * bytes the object directories record) by the median. {@code --columnar-only} skips the row-at-a-time reference
 * (minutes per query at 3 M lines); compare two builds by running each jar on a copy of the same data, alternately:
 * {@code java -Xmx512m -cp benchmarks.jar io.logbloom.bench.QueryScanReport --server-like --columnar-only --data
 * /tmp/copy/data --selector '{run="bar-s6"}'}. {@code --only REGEX} runs only the rows whose names it finds
 * ({@code --only '^needle'}); {@code --stats} prints under each row the columnar engine's median process CPU time per
 * query (a figure a busy shared machine disturbs less than latency), its first (cold) run, whose cost includes
 * building what later runs reuse (number filters, decoded blocks), and the last run's chunks fetched and skipped.
 */
public final class QueryScanReport {
    private static final long SEC = 1_000_000_000L;
    /** Lines per push, like a client batch. */
    private static final int BATCH_LINES = 5000;
    /** The data spans five hours, so a {@code [6h]} range at the end covers all of it. */
    private static final long SPAN_NANOS = 5L * 3600 * SEC;

    /** A warm-up run during which the JIT compiled for at most this long ends the warm-up. */
    private static final long JIT_QUIET_MILLIS = 5;

    private QueryScanReport() {}

    /** Builds the data set, runs every query with both engines, prints the table. */
    public static void main(String[] args) throws Exception {
        long lines = 1_000_000;
        int streams = 100;
        int runs = 5;
        Path dir = null;
        ServerLike serverLike = new ServerLike();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lines" -> lines = Long.parseLong(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--server-like" -> serverLike.heapShares = true;
                case "--columnar-only" -> serverLike.columnarOnly = true;
                case "--data" -> serverLike.data = Path.of(args[++i]);
                case "--tenant" -> serverLike.tenant = args[++i];
                case "--selector" -> serverLike.selector = args[++i];
                case "--span-seconds" -> serverLike.spanNanos = Long.parseLong(args[++i]) * SEC;
                case "--end-nanos" -> serverLike.endNanos = Long.parseLong(args[++i]);
                case "--raw-bytes" -> serverLike.rawBytes = Long.parseLong(args[++i]);
                case "--only" -> serverLike.only = java.util.regex.Pattern.compile(args[++i]);
                case "--stats" -> serverLike.stats = true;
                case "--max-warmups" -> serverLike.maxWarmups = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + " (flags: --lines N, --streams N, --runs N, --dir PATH, --server-like, --columnar-only,"
                        + " --data PATH, --tenant T, --selector S, --span-seconds N, --end-nanos N, --raw-bytes N,"
                        + " --only REGEX, --stats, --max-warmups N)");
            }
        }
        if (serverLike.data != null) {
            existingData(serverLike, runs);
            return;
        }
        if (dir == null) {
            dir = TempTrees.createDeletedOnExit("logbloom-scan");
        }
        Clock clock = Clock.systemUTC();
        IngestConfig d = IngestConfig.defaults(dir.resolve("wal"));
        LimitsConfig unlimited = BenchLimits.unlimited(d.limits(), 100_000);
        IngestConfig config = new IngestConfig(unlimited,
                new WalConfig(dir.resolve("wal"), WalConfig.FsyncPolicy.INTERVAL, Duration.ofSeconds(1), 64L << 20),
                d.flush(), ChunkConfig.defaults(), new BloomTokenizerConfig(true, false, 4, 0, true), d.bloom(),
                d.index());
        long endNanos = clock.millis() * 1_000_000L;
        long base = endNanos - SPAN_NANOS - 600 * SEC;
        long needle = lines / 3;
        long rawBytes = 0;
        long ingestStart = System.nanoTime();
        try (FileSystemObjectStore store = new FileSystemObjectStore(dir.resolve("objects"))) {
            try (Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry())) {
                rawBytes = ingest(ingester, lines, streams, base);
                ingester.flushAll();
            }
            double ingestSeconds = (System.nanoTime() - ingestStart) / 1e9;
            try (Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry())) {
                QuerierConfig qc = serverLike.querierConfig();
                try (Querier querier = Querier.overIngester(qc, store, () -> ingester, clock,
                        new PrometheusRegistry())) {
                    Map<String, QueryRunner> engines = new LinkedHashMap<>();
                    if (!serverLike.columnarOnly) {
                        engines.put("reference", new QueryRunner(querier, Engine.rowAtATime(),
                                LogqlBloomQueries::extract));
                    }
                    engines.put("columnar", new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract));
                    Map<String, String> queries = serverLike.selected(queries(serverLike.selector, needle, "6h"));
                    System.out.printf(Locale.ROOT, "data: %d lines, %d streams, %.1f MB raw, ingest %.1f s, store %.1f MB%n",
                            lines, streams, rawBytes / 1e6, ingestSeconds, dirMb(dir.resolve("objects")));
                    System.out.printf(Locale.ROOT, "%-16s %12s %12s %9s %10s%n", "query", "reference ms", "columnar ms",
                            "ratio", "col MB/s");
                    table(engines, queries, "bench", endNanos, SPAN_NANOS, runs, rawBytes, serverLike.stats,
                            serverLike.maxWarmups);
                    if (serverLike.selects("dashboard repeat")) {
                        dashboardRepeat(querier, queries(serverLike.selector, needle, "6h").get("dashboard rate"),
                                endNanos, runs);
                    }
                }
            }
        }
    }

    /** The queries over {@code sel}, ranges {@code range} (the dashboard's rate uses 1m windows). */
    private static Map<String, String> queries(String sel, long needle, String range) {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("needle ts=N", "sum(count_over_time(" + sel + " |= \"ts=" + needle + " \" [" + range + "]))");
        queries.put("status=500", "sum(count_over_time(" + sel + " |= \"status=500\" [" + range + "]))");
        queries.put("retry by env", "sum by (env) (count_over_time(" + sel + " |= \"retry\" [" + range + "]))");
        queries.put("logfmt bytes", "sum(count_over_time(" + sel + " | logfmt | bytes > 99000 [" + range + "]))");
        queries.put("logfmt unwrap", "sum by (env) (sum_over_time(" + sel + " | logfmt | unwrap bytes [" + range
                + "]))");
        queries.put("logfmt by status",
                "sum by (status) (count_over_time(" + sel + " | logfmt | bytes > 50000 [" + range + "]))");
        // the server bar's parser query: a label filter on a field in the middle of the line, grouped by a stream label
        queries.put("logfmt status", "sum by (env) (count_over_time(" + sel + " | logfmt | status >= 500 [" + range
                + "]))");
        // the lines are logfmt: every row fails to parse as JSON, so this row measures the json-parameter path's cost
        // per row (the result is empty on both engines)
        queries.put("json param", "sum(count_over_time(" + sel + " | json s=\"status\" | __error__=\"\" | s >= 500 ["
                + range + "]))");
        queries.put("plain count", "sum(count_over_time(" + sel + " [" + range + "]))");
        queries.put("dashboard rate", "sum by (env) (rate(" + sel + " |= \"status=5\" [1m]))");
        return queries;
    }

    /** The settings of the server-like mode (see the class comment). Not thread-safe. */
    private static final class ServerLike {
        boolean heapShares;
        boolean columnarOnly;
        Path data;
        String tenant = "fake";
        String selector = "{env=~\".+\"}";
        long spanNanos = 6 * 3600 * SEC;
        long endNanos;
        long rawBytes;
        /** Runs only the queries whose row name this finds (all when null). */
        java.util.regex.Pattern only;
        /** Prints, under each row, the columnar engine's first (cold) run and the last run's read statistics. */
        boolean stats;
        /** Warm-up runs at most, per query, before the measured ones (see {@link #table}). */
        int maxWarmups = 10;

        /** Whether the row named {@code name} runs. */
        boolean selects(String name) {
            return only == null || only.matcher(name).find();
        }

        /** The queries whose row names {@link #selects} accepts, in order. */
        Map<String, String> selected(Map<String, String> queries) {
            Map<String, String> out = new LinkedHashMap<>();
            queries.forEach((name, query) -> {
                if (selects(name)) {
                    out.put(name, query);
                }
            });
            return out;
        }

        /** Caches sized as the server's {@code auto} heap shares (HeapShares in api), or the big-heap defaults. */
        QuerierConfig querierConfig() {
            long heap = Runtime.getRuntime().maxMemory();
            long chunkCache = heapShares ? Math.min(heap / 8, 256L << 20) : 512L << 20;
            long bloomCache = heapShares ? Math.min(heap / 16, 128L << 20) : 128L << 20;
            return new QuerierConfig(true, 8, chunkCache, bloomCache, 5000, 100_000, Duration.ofMinutes(10), 0);
        }
    }

    /** Runs the queries of the server-like mode over an existing data directory and prints their medians. */
    private static void existingData(ServerLike s, int runs) throws Exception {
        Clock clock = Clock.systemUTC();
        IngestConfig d = IngestConfig.defaults(s.data.resolve("wal"));
        LimitsConfig unlimited = BenchLimits.unlimited(d.limits(), 100_000);
        IngestConfig config = new IngestConfig(unlimited, d.wal(), d.flush(), d.chunk(), d.tokenizer(), d.bloom(),
                d.index());
        try (FileSystemObjectStore store = new FileSystemObjectStore(s.data);
                Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry());
                Querier querier = Querier.overIngester(s.querierConfig(), store, () -> ingester, clock,
                        new PrometheusRegistry())) {
            long newest = Long.MIN_VALUE;
            long raw = 0;
            for (String key : store.list(s.tenant + "/")) {
                if (!key.endsWith(".lbo")) {
                    continue;
                }
                ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofObject(store, key)).directory();
                for (ColumnarStreamInfo stream : directory.streams()) {
                    newest = Math.max(newest, stream.maxTimeNanos());
                    raw += stream.rawBytes();
                }
            }
            long end = s.endNanos != 0 ? s.endNanos : newest + 1;
            long rawBytes = s.rawBytes != 0 ? s.rawBytes : raw;
            Map<String, QueryRunner> engines = new LinkedHashMap<>();
            if (!s.columnarOnly) {
                engines.put("reference", new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract));
            }
            engines.put("columnar", new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract));
            System.out.printf(Locale.ROOT, "data: %s, %.1f MB raw, store %.1f MB, chunk cache %d MB, heap %d MB%n",
                    s.data, rawBytes / 1e6, dirMb(s.data.resolve("objects")), s.querierConfig().chunkCacheBytes() >> 20,
                    Runtime.getRuntime().maxMemory() >> 20);
            System.out.printf(Locale.ROOT, "%-16s %12s %12s %9s %10s%n", "query", "reference ms", "columnar ms",
                    "ratio", "col MB/s");
            table(engines, s.selected(queries(s.selector, 1_110_000, (s.spanNanos / SEC) + "s")), s.tenant, end, s.spanNanos,
                    runs, rawBytes, s.stats, s.maxWarmups);
        }
    }

    /**
     * Runs each query {@code runs} times with every engine, alternating, after warm-up runs, checks the answers agree,
     * and prints the medians and the columnar engine's raw MB/s. Warm-up goes on until a warm-up run saw the JIT
     * compile for at most {@link #JIT_QUIET_MILLIS} (at most {@code maxWarmups} runs): right after the ingest the
     * compiler still works through its queue for seconds, on one of the two cores a scan uses, so a median of runs
     * that soon measures the compiler as much as the scan (status=500 took 300 to 360 ms with one warm-up run and
     * 206 to 234 ms once the compiler was done, in the same build).
     */
    private static void table(Map<String, QueryRunner> engines, Map<String, String> queries, String tenant,
            long endNanos, long spanNanos, int runs, long rawBytes, boolean stats, int maxWarmups)
            throws java.io.IOException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        for (Map.Entry<String, String> q : queries.entrySet()) {
            boolean range = q.getKey().startsWith("dashboard");
            QueryRequest request = range
                    ? new QueryRequest(tenant, q.getValue(), endNanos - spanNanos, endNanos, 60 * SEC, 100, false,
                            false, true)
                    : new QueryRequest(tenant, q.getValue(), endNanos, endNanos, 0, 100, false, true, true);
            Map<String, double[]> millis = new LinkedHashMap<>();
            for (String engine : engines.keySet()) {
                millis.put(engine, new double[runs]);
            }
            Object first = null;
            double firstColumnarMs = 0;
            double[] columnarCpuMs = new double[runs];
            io.logbloom.querier.QueryStatistics lastStats = null;
            int warmups = 0;
            boolean warming = true;
            for (int i = 0; i < runs; ) {
                long jitBefore = jit.getTotalCompilationTime();
                for (Map.Entry<String, QueryRunner> e : engines.entrySet()) {
                    long t = System.nanoTime();
                    long cpu = processCpuNanos();
                    QueryOutcome.Metrics outcome = (QueryOutcome.Metrics) e.getValue().run(request);
                    Object answer = outcome.result();
                    double ms = (System.nanoTime() - t) / 1e6;
                    if (!warming && e.getKey().equals("columnar")) {
                        columnarCpuMs[i] = (processCpuNanos() - cpu) / 1e6;
                    }
                    if (!warming) {
                        millis.get(e.getKey())[i] = ms;
                    }
                    if (e.getKey().equals("columnar")) {
                        firstColumnarMs = warmups == 0 && warming ? ms : firstColumnarMs;
                        lastStats = outcome.stats();
                    }
                    if (first == null) {
                        first = answer;
                    } else if (!first.equals(answer)) {
                        throw new IllegalStateException("BUG: answers differ on " + q.getValue() + ": " + first
                                + " vs " + answer);
                    }
                }
                if (warming) {
                    warmups++;
                    warming = warmups < maxWarmups && jit.getTotalCompilationTime() - jitBefore > JIT_QUIET_MILLIS;
                } else {
                    i++;
                }
            }
            double ref = millis.containsKey("reference") ? median(millis.get("reference")) : Double.NaN;
            double col = median(millis.get("columnar"));
            System.out.printf(Locale.ROOT, "%-16s %12.1f %12.1f %9.3f %10.0f   %s%n", q.getKey(), ref, col, col / ref,
                    rawBytes / 1e6 / (col / 1e3), q.getValue());
            if (stats) {
                System.out.printf(Locale.ROOT, "%-16s columnar process CPU %.1f ms (median), first run %.1f ms,"
                        + " %d warm-up runs; last run: %d chunks fetched (%d from cache), %d skipped by blooms and"
                        + " number filters, %d lines read, index %.1f ms, blooms %.1f ms%n", "", median(columnarCpuMs),
                        firstColumnarMs, warmups,
                        lastStats.chunksFetched(),
                        lastStats.chunksFromCache(), lastStats.chunksSkipped(), lastStats.decompressedLines(),
                        lastStats.indexTimeNanos() / 1e6, lastStats.bloomFilterTimeNanos() / 1e6);
            }
        }
    }

    /**
     * A dashboard refreshing {@code [now-6h, now]}: the columnar engine evaluating the whole range each time versus
     * the same engine behind the results cache (1h splits, 10m freshness), whose repeats evaluate only the newest
     * splits. Answers must be equal.
     */
    private static void dashboardRepeat(Querier querier, String query, long endNanos, int runs) throws Exception {
        QueryRunner whole = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
        QueryRunner cached = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract, Integer.MAX_VALUE,
                io.logbloom.querier.QuerySourceFilter.none(), io.logbloom.querier.ResultsCacheConfig.defaults());
        QueryRequest request = new QueryRequest("bench", query, endNanos - 6 * 3600 * SEC, endNanos, 60 * SEC, 100,
                false, false, true);
        double[] wholeMs = new double[runs];
        double[] cachedMs = new double[runs];
        long hitsBefore = querier.metrics().resultsCacheHits();
        for (int i = 0; i <= runs; i++) {
            long t = System.nanoTime();
            Object a = ((QueryOutcome.Metrics) whole.run(request)).result();
            double ms = (System.nanoTime() - t) / 1e6;
            t = System.nanoTime();
            Object b = ((QueryOutcome.Metrics) cached.run(request)).result();
            double cms = (System.nanoTime() - t) / 1e6;
            if (!a.equals(b)) {
                throw new IllegalStateException("BUG: cached dashboard differs from the whole evaluation of " + query);
            }
            if (i > 0) {
                wholeMs[i - 1] = ms;
                cachedMs[i - 1] = cms;
            }
        }
        double w = median(wholeMs);
        double c = median(cachedMs);
        System.out.printf(Locale.ROOT, "%-16s %12.1f %12.1f %9.3f   uncached vs results cache, %d split hits; %s%n",
                "dashboard repeat", w, c, c / w, querier.metrics().resultsCacheHits() - hitsBefore, query);
    }

    private static final String[] LEVELS = {"info", "info", "info", "warn", "error", "debug"};
    private static final String[] PATHS =
            {"/api/orders", "/api/users", "/healthz", "/api/cart", "/login", "/api/search"};

    /**
     * Line {@code n} of this report's data: logfmt with {@code ts=n}, a status of 200, 300, 400 or 500, numbers and
     * one line in 50 saying {@code retrying}.
     */
    static String line(SplittableRandom rnd, long n) {
        String msg = rnd.nextInt(50) == 0 ? "retrying upstream after backoff" : "request served";
        return String.format(Locale.ROOT,
                "ts=%d level=%s method=GET path=%s status=%d duration=%dms bytes=%d user=u%d msg=\"%s\"",
                n, LEVELS[rnd.nextInt(LEVELS.length)], PATHS[rnd.nextInt(PATHS.length)],
                200 + rnd.nextInt(4) * 100, rnd.nextInt(900), rnd.nextInt(100_000), rnd.nextInt(5000), msg);
    }

    private static long ingest(Ingester ingester, long lines, int streams, long base) throws java.io.IOException {
        SplittableRandom rnd = new SplittableRandom(42);
        String[] envs = {"prod", "staging", "dev"};
        long step = Math.max(1, SPAN_NANOS / Math.max(1, lines));
        long rawBytes = 0;
        long n = 0;
        while (n < lines) {
            List<PushStream> push = new ArrayList<>(streams);
            int perStream = Math.max(1, BATCH_LINES / streams);
            for (int s = 0; s < streams && n < lines; s++) {
                List<LogEntry> entries = new ArrayList<>(perStream);
                for (int i = 0; i < perStream && n < lines; i++) {
                    String traceId = Long.toHexString(rnd.nextLong() | Long.MIN_VALUE) + Long.toHexString(n);
                    String line = line(rnd, n);
                    entries.add(new LogEntry(base + n * step, line, List.of(new Label("trace_id", traceId))));
                    rawBytes += line.length() + traceId.length();
                    n++;
                }
                push.add(new PushStream("{app=\"svc-" + s + "\", env=\"" + envs[s % envs.length] + "\"}", entries));
            }
            PushResult r = ingester.push("bench", push);
            if (!r.errors().isEmpty()) {
                throw new IllegalStateException("push rejected: " + r.errors().get(0));
            }
        }
        return rawBytes;
    }

    /** The CPU time of the whole process so far (all threads, JIT and GC included). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double dirMb(Path root) throws java.io.IOException {
        try (var files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum() / 1e6;
        }
    }
}
