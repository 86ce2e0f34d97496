package io.logbloom.bench;

import com.sun.net.httpserver.HttpServer;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.ObjectTail;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexListingCachingStore;
import io.logbloom.index.PersistedIndex;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.kafka.Announcement;
import io.logbloom.kafka.ConsumedOffsets;
import io.logbloom.kafka.KafkaMetrics;
import io.logbloom.kafka.RemoteUnflushedSource;
import io.logbloom.kafka.UnflushedEndpoint;
import io.logbloom.logql.Engine;
import io.logbloom.querier.LogqlBloomQueries;
import io.logbloom.querier.Querier;
import io.logbloom.querier.QuerierConfig;
import io.logbloom.querier.QueryOutcome;
import io.logbloom.querier.QueryRequest;
import io.logbloom.querier.QueryRunner;
import io.logbloom.querier.UnflushedSource;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Needle queries against a store that answers like a remote one (S3: every read request waits {@code --latency-ms}
 * before the local disk answers), with the index listings kept ({@code querier.index_listing_ttl}, target
 * {@code all}) and without (a LIST per query), alternating in one run. Builds the data set through the real
 * {@link Ingester} (unique {@code trace_id} per line), then per round opens a fresh ingester and querier over the
 * slow store and runs {@code --needles} needles for distinct ids; prints per mode the median latency of all needles,
 * of the later half (caches warm) and of each round's first (cold caches: blooms, object directories), and the store
 * requests per needle by kind. Not thread-safe.
 *
 * With {@code --parallel-index} the modes are a querier over the store alone (a cluster's querier: it lists every
 * query) whose index reads the listings of the query's periods and the files it has not cached one after another or
 * {@link IndexConfig#DEFAULT_PARALLEL_READS} at a time; {@code --span-hours 720} spreads the data over 30 daily periods.
 *
 * With {@code --cluster} the modes are that querier asking an idle ingester over loopback HTTP first (a cluster's
 * querier), listing every query or keeping its listings (the ingester names the index files it wrote: none).
 *
 * With {@code --merge-first} both modes keep the listings, each round first merges a line per stream into the store
 * (as the ingester does all day), and the modes are the ingester handing the blooms it writes to the querier or not.
 *
 * <p>Run: {@code java -Xmx1g -cp bench/target/benchmarks.jar io.logbloom.bench.RemoteStoreNeedleReport}
 * (flags: {@code --raw-mb N}, {@code --streams N}, {@code --latency-ms N}, {@code --needles N}, {@code --rounds N},
 * {@code --span-hours N}, {@code --merge-first}, {@code --parallel-index}, {@code --cluster}).
 */
public final class RemoteStoreNeedleReport {
    private static final long SEC = 1_000_000_000L;
    private static final int BATCH_LINES = 2000;

    private RemoteStoreNeedleReport() {}

    /** Read requests of one kind sent to the wrapped store, each delayed. */
    static final class SlowStore implements ObjectStore {
        private final ObjectStore delegate;
        private final long latencyMillis;
        final AtomicLong lists = new AtomicLong();
        final AtomicLong gets = new AtomicLong();
        final AtomicLong other = new AtomicLong();

        SlowStore(ObjectStore delegate, long latencyMillis) {
            this.delegate = delegate;
            this.latencyMillis = latencyMillis;
        }

        private void await(AtomicLong kind) throws IOException {
            kind.incrementAndGet();
            try {
                Thread.sleep(latencyMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted during the simulated round trip");
            }
        }

        @Override
        public void put(String key, byte[] data) throws IOException {
            delegate.put(key, data);
        }

        @Override
        public byte[] get(String key) throws IOException {
            await(gets);
            return delegate.get(key);
        }

        @Override
        public byte[] getRange(String key, long offset, int length) throws IOException {
            await(gets);
            return delegate.getRange(key, offset, length);
        }

        @Override
        public ObjectTail getTail(String key, int maxLength) throws IOException {
            await(gets); // one suffix-ranged GET, as S3 answers it
            return delegate.getTail(key, maxLength);
        }

        @Override
        public long size(String key) throws IOException {
            await(other);
            return delegate.size(key);
        }

        @Override
        public boolean exists(String key) throws IOException {
            await(other);
            return delegate.exists(key);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            await(lists);
            return delegate.list(prefix);
        }

        @Override
        public void delete(String key) throws IOException {
            delegate.delete(key);
        }

        long total() {
            return lists.get() + gets.get() + other.get();
        }
    }

    /** Builds the data set, runs the rounds, prints one JSON line. */
    public static void main(String[] args) throws Exception {
        long rawMb = 40;
        int streams = 16;
        long latencyMillis = 20;
        int needles = 30;
        int rounds = 4;
        boolean mergeFirst = false;
        boolean parallelIndex = false;
        boolean cluster = false;
        long spanHours = 6;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--raw-mb" -> rawMb = Long.parseLong(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--latency-ms" -> latencyMillis = Long.parseLong(args[++i]);
                case "--needles" -> needles = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--merge-first" -> mergeFirst = true;
                case "--parallel-index" -> parallelIndex = true;
                case "--cluster" -> cluster = true;
                case "--span-hours" -> spanHours = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + " (flags: --raw-mb N, --streams N, --latency-ms N, --needles N, --rounds N, --span-hours N,"
                        + " --merge-first, --parallel-index, --cluster)");
            }
        }
        Path dir = Files.createTempDirectory("logbloom-remote-needle");
        Clock clock = Clock.systemUTC();
        IngestConfig d = IngestConfig.defaults(dir.resolve("wal"));
        LimitsConfig unlimited = BenchLimits.unlimited(d.limits(), d.limits().maxGlobalStreamsPerUser());
        IngestConfig config = new IngestConfig(unlimited, d.wal(), d.flush(), d.chunk(), d.tokenizer(), d.bloom(),
                d.index(), d.budget());
        long spanNanos = spanHours * 3600 * SEC;
        long base = clock.millis() * 1_000_000L - spanNanos - 600 * SEC;
        List<String> ids = new ArrayList<>();
        long lines = 0;
        try (FileSystemObjectStore disk = new FileSystemObjectStore(dir.resolve("objects"))) {
            long target = rawMb << 20;
            long raw = 0;
            long estimate = target / 110;
            long every = Math.max(1, estimate / needles);
            SplittableRandom rnd = new SplittableRandom(7);
            try (Ingester ingester = new Ingester(config, disk, clock, new PrometheusRegistry())) {
                while (raw < target) {
                    List<PushStream> push = new ArrayList<>(streams);
                    for (int s = 0; s < streams; s++) {
                        List<LogEntry> entries = new ArrayList<>(BATCH_LINES / streams);
                        for (int i = 0; i < BATCH_LINES / streams; i++) {
                            String traceId = Long.toHexString(rnd.nextLong() | Long.MIN_VALUE)
                                    + Long.toHexString(lines);
                            if (lines % every == every / 2 && ids.size() < needles) {
                                ids.add(traceId);
                            }
                            String line = "ts=" + lines + " level=info method=GET path=/api/orders status="
                                    + (200 + rnd.nextInt(4) * 100) + " duration=" + rnd.nextInt(900) + "ms bytes="
                                    + rnd.nextInt(100_000);
                            entries.add(new LogEntry(base + Math.min(lines * (spanNanos / estimate), spanNanos), line,
                                    List.of(new Label("trace_id", traceId))));
                            raw += line.length() + traceId.length();
                            lines++;
                        }
                        push.add(new PushStream("{app=\"svc-" + s + "\"}", entries));
                    }
                    PushResult r = ingester.push("bench", push);
                    if (!r.errors().isEmpty()) {
                        throw new IllegalStateException("push rejected: " + r.errors().get(0));
                    }
                }
                ingester.flushAll();
            }
        }
        long[][] all = new long[2][];
        long[][] warm = new long[2][];
        long[][] first = new long[2][];
        double[][] perNeedle = new double[2][3];
        String[] modes = mergeFirst ? new String[] {"bloomsReadBack", "bloomsHandedOver"}
                : parallelIndex ? new String[] {"indexReadsInSequence", "indexReadsSideBySide"}
                : cluster ? new String[] {"clusterListEveryQuery", "clusterListingsKept"}
                : new String[] {"listEveryQuery", "listingsKept"};
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < 2; k++) {
                int mode = round % 2 == 0 ? k : 1 - k;
                int wide = IndexConfig.DEFAULT_PARALLEL_READS;
                Round how = mergeFirst ? new Round(true, true, mode == 1, 0, false, streams, base + round * 2L + mode)
                        : parallelIndex ? new Round(false, false, false, mode == 1 ? wide : 1, false, streams, 0)
                        : cluster ? new Round(mode == 1, false, false, wide, true, streams, 0)
                        : new Round(mode == 1, false, false, 0, false, streams, 0);
                long[] latencies = runRound(dir, config, clock, latencyMillis, how, ids, base, perNeedle[mode]);
                all[mode] = concat(all[mode], latencies);
                warm[mode] = concat(warm[mode], Arrays.copyOfRange(latencies, latencies.length / 2, latencies.length));
                first[mode] = concat(first[mode], new long[] {latencies[0]});
            }
        }
        StringBuilder json = new StringBuilder();
        json.append(String.format(Locale.ROOT,
                "{\"rawMb\":%d,\"spanHours\":%d,\"lines\":%d,\"latencyMs\":%d,\"needles\":%d,\"rounds\":%d",
                rawMb, spanHours, lines, latencyMillis, needles, rounds));
        for (int mode = 0; mode < 2; mode++) {
            double queries = (double) needles * rounds;
            json.append(String.format(Locale.ROOT, ",\"%s\":{\"p50Ms\":%.1f,\"warmP50Ms\":%.1f,\"firstMs\":%.1f,"
                            + "\"listsPerNeedle\":%.2f,\"getsPerNeedle\":%.2f,\"otherPerNeedle\":%.2f}",
                    modes[mode], median(all[mode]) / 1e6, median(warm[mode]) / 1e6, median(first[mode]) / 1e6,
                    perNeedle[mode][0] / queries,
                    perNeedle[mode][1] / queries, perNeedle[mode][2] / queries));
        }
        System.out.println(json.append('}'));
    }

    /**
     * How a round runs: index listings kept or not; with {@code mergeFirst}, a line per stream pushed at {@code ts} and
     * merged into the store before the needles, the blooms that merge writes handed to the querier or not; with
     * {@code indexReads} above 0, a querier over the store alone whose index reads that many listings and files at a
     * time; with {@code cluster}, that querier asks an ingester over HTTP first (a cluster's querier), keeping its
     * listings as {@code keepListings} says.
     */
    private record Round(boolean keepListings, boolean mergeFirst, boolean handOverBlooms, int indexReads,
            boolean cluster, int streams, long ts) {}

    /**
     * One ingester and querier over the slow store (with {@code indexReads}, a querier alone); the needles' latencies
     * in nanoseconds, in order.
     */
    private static long[] runRound(Path dir, IngestConfig config, Clock clock, long latencyMillis, Round how,
            List<String> ids, long base, double[] requests) throws IOException {
        try (FileSystemObjectStore disk = new FileSystemObjectStore(dir.resolve("objects"))) {
            SlowStore slow = new SlowStore(disk, latencyMillis);
            IndexListingCachingStore listings = how.keepListings()
                    ? new IndexListingCachingStore(slow, Duration.ofMinutes(1), System::nanoTime) : null;
            ObjectStore store = listings != null ? listings : slow;
            if (how.indexReads() > 0) {
                try (IdleIngester ingester = how.cluster() ? new IdleIngester() : null;
                        PersistedIndex index = new PersistedIndex(store,
                                config.index().withParallelReads(how.indexReads()),
                                new IndexFileCache(store, config.index()));
                        Querier querier = Querier.overStore(QuerierConfig.defaults(), store, index,
                                ingester == null ? UnflushedSource.NONE : ingester.source(listings, clock), clock,
                                new PrometheusRegistry())) {
                    return needles(querier, slow, clock, ids, base, requests);
                }
            }
            Ingester[] ingesterOf = new Ingester[1];
            try (Querier querier = Querier.overIngester(QuerierConfig.defaults(), store, () -> ingesterOf[0], clock,
                    new PrometheusRegistry());
                    Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry(),
                            how.handOverBlooms() ? querier::bloomStored : SeriesBloomStore.Stored.NONE)) {
                ingesterOf[0] = ingester;
                if (how.mergeFirst()) {
                    List<PushStream> push = new ArrayList<>();
                    for (int s = 0; s < how.streams(); s++) {
                        push.add(new PushStream("{app=\"svc-" + s + "\"}", List.of(new LogEntry(how.ts(),
                                "merged line " + s, List.of(new Label("trace_id", "merged-" + how.ts() + "-" + s))))));
                    }
                    ingester.push("bench", push);
                    ingester.flushAll();
                }
                return needles(querier, slow, clock, ids, base, requests);
            }
        }
    }

    /** The needles' latencies in nanoseconds, in order; the store requests they made added to {@code requests}. */
    private static long[] needles(Querier querier, SlowStore slow, Clock clock, List<String> ids, long base,
            double[] requests) throws IOException {
        QueryRunner runner = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
        long end = clock.millis() * 1_000_000L;
        long[] latencies = new long[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            String query = "{app=~\".+\"} | trace_id=\"" + ids.get(i) + "\"";
            long lists = slow.lists.get();
            long gets = slow.gets.get();
            long other = slow.other.get();
            long t = System.nanoTime();
            QueryOutcome outcome = runner.run(new QueryRequest("bench", query, base - SEC, end, 0, 100, false,
                    false, true, false));
            latencies[i] = System.nanoTime() - t;
            if (((QueryOutcome.Logs) outcome).result().entryCount() != 1) {
                throw new IllegalStateException("BUG: needle " + ids.get(i) + " found "
                        + ((QueryOutcome.Logs) outcome).result().entryCount() + " lines, not 1");
            }
            requests[0] += slow.lists.get() - lists;
            requests[1] += slow.gets.get() - gets;
            requests[2] += slow.other.get() - other;
        }
        return latencies;
    }

    /**
     * An ingester of a cluster with nothing unflushed, answering {@code POST /internal/unflushed} on loopback as the
     * server does (an incarnation and the index files it wrote lately: none), so a querier pays the real round trip.
     */
    private static final class IdleIngester implements AutoCloseable {
        private final HttpServer http;

        IdleIngester() throws IOException {
            UnflushedEndpoint endpoint = new UnflushedEndpoint(
                    (tenant, matchers, from, through) -> new Ingester.Unflushed(List.of(), () -> { }),
                    () -> (targets, maxWait) -> new ConsumedOffsets.CatchUp(Set.of(), Map.of()),
                    (tenant, since) -> Optional.of(List.of()), () -> "bench.1");
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext(RemoteUnflushedSource.PATH, exchange -> {
                UnflushedEndpoint.Answer answer = endpoint.answer(exchange.getRequestBody().readAllBytes(),
                        exchange.getRequestHeaders().getFirst(UnflushedEndpoint.INDEX_FILES_SINCE_HEADER));
                if (answer.incarnation() != null) {
                    exchange.getResponseHeaders().add(UnflushedEndpoint.INCARNATION_HEADER, answer.incarnation());
                }
                if (answer.indexFilesAt() >= 0) {
                    exchange.getResponseHeaders().add(UnflushedEndpoint.INDEX_FILES_AT_HEADER,
                            String.valueOf(answer.indexFilesAt()));
                }
                exchange.getResponseHeaders().add(UnflushedEndpoint.PARTITIONS_HEADER, answer.partitionsHeader());
                exchange.sendResponseHeaders(200, answer.body().length == 0 ? -1 : answer.body().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer.body());
                }
            });
            http.start();
        }

        /** A querier's source of unflushed rows asking this ingester, keeping {@code listings} (or null). */
        UnflushedSource source(IndexListingCachingStore listings, Clock clock) {
            List<Announcement> members = List.of(new Announcement("bench-ingester", "ingester",
                    "127.0.0.1:" + http.getAddress().getPort(), List.of(0), clock.millis()));
            KafkaMetrics metrics = new KafkaMetrics(new PrometheusRegistry());
            return listings == null ? new RemoteUnflushedSource(() -> members, Duration.ofSeconds(10), null, metrics)
                    : new RemoteUnflushedSource(() -> members, Duration.ofSeconds(10), null, metrics, listings, clock);
        }

        @Override
        public void close() {
            http.stop(0);
        }
    }

    private static long[] concat(long[] a, long[] b) {
        if (a == null) {
            return b.clone();
        }
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
