package io.logbloom.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms the JVM's just-in-time compiler before the server takes traffic: starts a private server in this
 * process (a temporary data directory, loopback, a free port, nothing shared with the real one), pushes
 * {@link WarmupTraffic} through HTTP as a shipper would, flushes it into columnar objects, sends a mix of
 * queries and checks their answers, in a few such rounds, then keeps pushing and then querying until the compilers
 * go quiet ({@link CompilerSettle}, within a time budget), stops the private server and deletes its directory.
 *
 * <p>Why: a fresh JVM interprets the request paths until they have run a few hundred times, and compiles
 * them while the first real requests arrive, so on a small machine the first pushes and queries after a
 * start cost two to three times their steady-state CPU (a needle query 14 ms instead of 4.5 ms over its
 * first fifteen runs). The private server runs the same classes, so the compiled code is reused by the
 * real one. A failed warm-up is logged and never stops the start.
 *
 * <p>Not thread-safe: run once, before the real server starts.
 */
final class JitWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(JitWarmup.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Limits raised so the warm-up pushes measure nothing but the code paths. The bloom cache holds a few dozen of the
     * rounds' series blooms (about 2 KB each) and a few of the settled warm-up's (about 11 KB): the queries load most
     * blooms and find some cached, in every phase. With the default cache every bloom stayed cached after a round's
     * first queries, the JIT compiled the needle path as if a bloom were never loaded, and a real server threw that
     * code away at its first query after a load, which loads them all (C2 then spent 140 ms compiling it again while
     * the next needles ran). Blocks are cut at 16 KB: the warm-up's streams hold a few dozen KB per merge, so with the
     * default 1 MB no merge ever cut a block, C2 left that branch of the stream appender to an uncommon trap, and the
     * first real merge, during a push, threw the appender and the merge loop away and compiled them again.
     */
    private static final String CONFIG = """
            limits:
              ingestion_rate_mb: 100000
              ingestion_burst_size_mb: 100000
              max_global_streams_per_user: 100000
              reject_old_samples: false
              max_query_series: 100000
            querier:
              bloom_cache_size: 64KB
            ingester:
              chunk_block_size: 16KB
            """;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** Push-flush-query rounds of a warm-up with enough lines. */
    static final int MAX_ROUNDS = 4;
    /** Queries of the largest warm-up: a scan's window does not grow with the lines, so neither need they. */
    static final int MAX_QUERIES = 1_000;

    /** How far back the warm-up's first line is timestamped: its lines are 1 ms apart and must not reach now. */
    static final Duration HISTORY = Duration.ofHours(2);

    private final int lines;
    private final int queries;
    private final Duration settle;
    private final Optional<CompilerSettle> compilers;
    private final Clock clock;

    /**
     * A warm-up pushing {@code lines} lines and sending {@code queries} queries in its rounds, then spending up to
     * {@code settle} pushing (half of it at most) and querying until {@code compilers} go quiet (none: no settling).
     */
    JitWarmup(int lines, int queries, Duration settle, Optional<CompilerSettle> compilers, Clock clock) {
        if (lines < 1 || queries < 0) {
            throw new IllegalArgumentException("warm-up needs lines >= 1 and queries >= 0, got " + lines + ", "
                    + queries);
        }
        if (settle.isNegative()) {
            throw new IllegalArgumentException("warm-up settle time must not be negative, got " + settle);
        }
        this.lines = lines;
        this.queries = queries;
        this.settle = settle;
        this.compilers = Objects.requireNonNull(compilers, "compilers is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /**
     * The queries sent for {@code lines} warm-up lines: one per 20 lines, at least 20 and at most 1 000 (1 000 for the
     * default 20 000 lines, of which 750 needles). A method run once per query reaches C2 only after several hundred
     * calls, more while C2's queue is long, and then takes it a few hundred ms (C2 inlines most of the query path into
     * it): 40 queries left the needle path compiling through the first hundred needles after a load, and on a slower
     * two-core box 400 left {@code IndexUnion.chunks}, {@code StoreReader.plan} and {@code SeriesPostings.chunks} to be
     * compiled during the first real queries (docs/measurements.md, "A slower machine", 2026-11-28).
     */
    static int queriesFor(int lines) {
        return Math.max(20, Math.min(MAX_QUERIES, lines / 20));
    }

    /**
     * Whether a full batch pushed after lines ending at {@code endNanos} (exclusive) would be timestamped before
     * {@code nowNanos}: the warm-up pushes no line from the future, which the private server would refuse.
     */
    static boolean batchIsPast(long endNanos, long nowNanos) {
        return endNanos + WarmupTraffic.BATCH_LINES * WarmupTraffic.LINE_INTERVAL_NANOS < nowNanos;
    }

    /** Push-flush-query rounds of a warm-up of {@code lines} lines: up to {@value #MAX_ROUNDS}, each of a batch at least. */
    static int rounds(int lines) {
        return (int) Math.max(1, Math.min(MAX_ROUNDS, (long) lines / WarmupTraffic.BATCH_LINES));
    }

    /**
     * What a warm-up did.
     *
     * @param lines          lines pushed and acknowledged
     * @param queries        queries answered as expected
     * @param failedQueries  queries answered otherwise (a bug worth a look; logged)
     * @param pushSeconds    wall-clock time of the pushes
     * @param flushSeconds   wall-clock time of the flushes (seals, merges, blooms)
     * @param settleSeconds  wall-clock time spent pushing and querying until the compilers went quiet
     * @param settled        whether they did within the budget (false too when there was none)
     * @param bloomsCached   series bloom lookups of its queries that found the bloom cached
     * @param bloomsLoaded   series bloom lookups of its queries that read the bloom from the store
     * @param seconds        wall-clock duration of the whole warm-up
     */
    record Report(long lines, int queries, int failedQueries, double pushSeconds, double flushSeconds,
            double settleSeconds, boolean settled, long bloomsCached, long bloomsLoaded, double seconds) {
        static Report none(long startNanos) {
            return new Report(0, 0, 0, 0, 0, 0, false, 0, 0, (System.nanoTime() - startNanos) / 1e9);
        }
    }

    /** Runs the warm-up, logging instead of throwing: the real server starts whatever happens here. */
    Report runQuietly() {
        long start = System.nanoTime();
        LOG.info("warming up the JIT compiler on a private in-process server: {} lines, {} queries (server.warmup_lines), "
                + "then up to {} s until the compilers go quiet (server.warmup_settle_seconds)", lines, queries,
                settle.toSeconds());
        try {
            Report report = run();
            LOG.info("warm-up done in {} s: {} lines pushed in {} s, flushed in {} s, {} queries answered, {} answered "
                    + "wrongly (series blooms loaded {} times, found cached {} times); {}", seconds(report.seconds()),
                    report.lines(), seconds(report.pushSeconds()), seconds(report.flushSeconds()), report.queries(),
                    report.failedQueries(), report.bloomsLoaded(), report.bloomsCached(),
                    settle.isZero() || compilers.isEmpty() ? "no settling"
                            : "settled for " + seconds(report.settleSeconds()) + " s, compilers "
                                    + (report.settled() ? "quiet" : "still busy at the end"));
            return report;
        } catch (IOException | RuntimeException e) {
            LOG.warn("warm-up failed, starting without it: {}", e.toString());
            return Report.none(start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Report.none(start);
        }
    }

    private static String seconds(double s) {
        return String.format(java.util.Locale.ROOT, "%.1f", s);
    }

    /** Runs the warm-up; the private server and its directory are gone when this returns or throws. */
    Report run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path dir = Files.createTempDirectory("logbloom-warmup");
        try {
            LogbloomConfig config = LogbloomConfig.parse(CONFIG, Map.of()).withOverrides(0, "127.0.0.1", dir, "all");
            try (LogbloomServer server = new LogbloomServer(config, clock)) {
                Session session = new Session("http://127.0.0.1:" + server.start(),
                        new WarmupTraffic(42, clock.millis() * 1_000_000L - HISTORY.toNanos()));
                // in rounds, each flushed into new objects before its queries: the first queries of a round miss
                // the caches and find more objects per series, as queries after a real load do, so the compiled
                // query paths keep their code when real data arrives instead of being thrown away at its first query
                int rounds = rounds(lines);
                long pushNanos = 0;
                long flushNanos = 0;
                for (int round = 1; round <= rounds; round++) {
                    long roundStart = System.nanoTime();
                    long roundLines = (long) lines * round / rounds;
                    while (session.pushed < roundLines) {
                        session.push((int) Math.min(WarmupTraffic.BATCH_LINES, roundLines - session.pushed));
                    }
                    long pushEnd = System.nanoTime();
                    session.flush();
                    pushNanos += pushEnd - roundStart;
                    flushNanos += System.nanoTime() - pushEnd;
                    while (session.sent < (long) queries * round / rounds) {
                        session.query();
                    }
                }
                // then each path until the compilers have caught up with it: pushing first (half the budget at
                // most), flushed, then querying the larger store with what is left
                double settleSeconds = 0;
                boolean settled = false;
                if (compilers.isPresent() && !settle.isZero()) {
                    CompilerSettle compiling = compilers.get();
                    CompilerSettle.Outcome pushing = compiling.repeat(session::pushPacedIfPast, settle.dividedBy(2));
                    long pushEnd = System.nanoTime();
                    session.flush();
                    flushNanos += System.nanoTime() - pushEnd;
                    CompilerSettle.Outcome querying = compiling.repeat(session::query,
                            settle.minusNanos((long) (pushing.seconds() * 1e9)));
                    settleSeconds = pushing.seconds() + querying.seconds();
                    settled = pushing.quiet() && querying.quiet();
                }
                return new Report(session.pushed, session.answered, session.failed, pushNanos / 1e9, flushNanos / 1e9,
                        settleSeconds, settled, bloomCacheRequests(server, "hit"), bloomCacheRequests(server, "miss"),
                        (System.nanoTime() - start) / 1e9);
            }
        } finally {
            deleteTree(dir);
            // the private server's buffers and caches are garbage now; without a full collection G1 keeps the heap it
            // grew to for them committed (about 200 MB resident of 385 MB after 200 000 lines, 180 MB after this)
            System.gc();
        }
    }

    /** The warm-up's traffic to its private server and what came of it. */
    private final class Session {
        /**
         * HTTP/1.1 as shippers send it: the client's default asks the first request to upgrade to HTTP/2, headers no
         * real push carries, so the header parser was compiled for them.
         */
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        private final String base;
        private final WarmupTraffic traffic;
        private long pushed;
        private int sent;
        private int answered;
        private int failed;

        Session(String base, WarmupTraffic traffic) {
            this.base = base;
            this.traffic = traffic;
        }

        void push(int batch) throws IOException, InterruptedException {
            send(http, HttpRequest.newBuilder(URI.create(base + "/loki/api/v1/push"))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(traffic.nextBody(batch))), 204);
            pushed += batch;
        }

        /**
         * Pushes a full batch if its lines would all be timestamped in the past (false, nothing sent, otherwise), then
         * waits as long as the push took: the push path stays hot while the compilers get a core of their own, and the
         * private server has half the lines to flush afterwards.
         */
        boolean pushPacedIfPast() throws IOException, InterruptedException {
            if (!batchIsPast(traffic.endNanos(), clock.millis() * 1_000_000L)) {
                return false;
            }
            long start = System.nanoTime();
            push(WarmupTraffic.BATCH_LINES);
            long tookNanos = System.nanoTime() - start;
            Thread.sleep(tookNanos / 1_000_000L, (int) (tookNanos % 1_000_000L));
            return true;
        }

        void flush() throws IOException, InterruptedException {
            send(http, HttpRequest.newBuilder(URI.create(base + "/flush")).POST(HttpRequest.BodyPublishers.noBody()),
                    204);
        }

        /** Sends the next query and checks its answer; true: there is always another to send. */
        boolean query() throws IOException, InterruptedException {
            if (answeredAsExpected(http, base, traffic.query(sent++))) {
                answered++;
            } else {
                failed++;
            }
            return true;
        }
    }

    private boolean answeredAsExpected(HttpClient http, String base, WarmupTraffic.WarmupQuery q)
            throws IOException, InterruptedException {
        String url = base + (q.instant() ? "/loki/api/v1/query?time=" + q.toNanos()
                : "/loki/api/v1/query_range?start=" + q.fromNanos() + "&end=" + q.toNanos() + "&limit=100")
                + "&query=" + URLEncoder.encode(q.logql(), StandardCharsets.UTF_8);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            LOG.warn("warm-up query {} answered {}: {}", q.logql(), r.statusCode(), r.body());
            return false;
        }
        if (q.lines() < 0) {
            return true;
        }
        int got = 0;
        for (JsonNode stream : JSON.readTree(r.body()).path("data").path("result")) {
            got += stream.path("values").size();
        }
        if (got != q.lines()) {
            LOG.warn("warm-up query {} returned {} lines, expected {}", q.logql(), got, q.lines());
            return false;
        }
        return true;
    }

    private static void send(HttpClient http, HttpRequest.Builder request, int expectedStatus)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != expectedStatus) {
            throw new IOException("warm-up request " + r.request().method() + " " + r.request().uri().getPath()
                    + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** The private server's series bloom lookups with {@code outcome} ({@code hit} or {@code miss}) so far. */
    private static long bloomCacheRequests(LogbloomServer server, String outcome) {
        return (long) server.registry().scrape().stream()
                .filter(m -> m.getMetadata().getPrometheusName().equals("logbloom_querier_bloom_cache_requests"))
                .flatMap(m -> ((CounterSnapshot) m).getDataPoints().stream())
                .filter(d -> outcome.equals(d.getLabels().get("outcome")))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("cannot delete the warm-up directory {}: {}", dir, e.toString());
        }
    }
}
