package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.SeriesBloom;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.tokens.BloomTokenScheme;
import io.logbloom.tokens.TokenizerBloomScheme;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The read path: label and series lookups, and the storage side of queries (index → bloom test per
 * chunk → bounded parallel fetch through the chunk cache → merge with unflushed entries). LogQL
 * evaluation sits on top.
 *
 * <p>Thread-safe: many queries run at once; each has its own {@link QueryContext}. Owns the fetch
 * pool, shut down by {@link #close()}.
 */
public final class Querier implements AutoCloseable {
    private final QuerierConfig config;
    private final IndexReader index;
    private final UnflushedSource unflushed;
    private final Clock clock;
    private final QuerierMetrics metrics;
    private final ExecutorService fetchPool;
    /** Decodes and evaluates blocks: CPU work, so one thread per core. */
    private final ExecutorService evalPool;
    private final StoreReader reader;
    private final BloomCache bloomCache;

    /**
     * Wires the read path; starts the fetch pool of {@code config.maxConcurrentFetches()} threads and the evaluation
     * pool of one thread per core.
     */
    public Querier(QuerierConfig config, ObjectStore store, IndexReader index, SeriesBloomSource blooms,
            BloomTokenScheme tokenScheme, ChunkDecoder decoder, UnflushedSource unflushed, Clock clock,
            PrometheusRegistry registry) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.unflushed = Objects.requireNonNull(unflushed, "unflushed is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.metrics = new QuerierMetrics(Objects.requireNonNull(registry, "registry is null"));
        this.fetchPool = startedPool(config.maxConcurrentFetches(), daemonThreads("chunk-fetch"));
        this.evalPool = startedPool(Runtime.getRuntime().availableProcessors(), daemonThreads("block-eval"));
        this.bloomCache = new BloomCache(blooms, config.bloomCacheBytes(), metrics);
        this.reader = new StoreReader(config, store, index, unflushed, bloomCache, new ChunkBloomTester(tokenScheme),
                new ChunkCache(config.chunkCacheBytes()), decoder, fetchPool, evalPool, metrics);
    }

    /**
     * Keeps {@code bloom}, just written by this process's ingester as the series' bloom for the period, in the bloom
     * cache: the next query finds it there instead of reading it back (a merge rewrites every series bloom it
     * touched, and each would otherwise be read again by the next query that tests it). A {@link
     * SeriesBloomStore.Stored} listener.
     */
    public void bloomStored(String tenant, long fingerprint, long periodNumber, SeriesBloom bloom) {
        bloomCache.put(new BloomCache.Key(tenant, fingerprint, periodNumber), StoredSeriesBlooms.view(bloom));
    }

    /**
     * The production wiring over a running ingester (looked up per call through {@code ingester}, so
     * this may be built before WAL replay ends): its index and unflushed data, the persisted series
     * blooms, the tokenizer's token scheme and the chunks module's decoder.
     */
    public static Querier overIngester(QuerierConfig config, ObjectStore store, Supplier<Ingester> ingester,
            Clock clock, PrometheusRegistry registry) {
        IngesterReadSide side = new IngesterReadSide(ingester);
        return new Querier(config, store, side, new StoredSeriesBlooms(new SeriesBloomStore(store)),
                new TokenizerBloomScheme(), new StoredChunkDecoder(), side, clock, registry);
    }

    /**
     * The wiring of a process without an ingester (the querier role): the store's {@code index}, the
     * persisted series blooms, the tokenizer's token scheme, the chunks module's decoder, and the
     * unflushed data {@code unflushed} reaches (e.g. remote ingesters).
     */
    public static Querier overStore(QuerierConfig config, ObjectStore store, IndexReader index,
            UnflushedSource unflushed, Clock clock, PrometheusRegistry registry) {
        return new Querier(config, store, index, new StoredSeriesBlooms(new SeriesBloomStore(store)),
                new TokenizerBloomScheme(), new StoredChunkDecoder(), unflushed, clock, registry);
    }

    /**
     * A fixed pool of {@code threads} threads, all started now. A pool that starts its threads on its first tasks
     * takes a branch there that a long-running pool no longer takes, so query code the JIT compiled over another pool
     * (a start-up warm-up's) would be thrown away at this pool's first queries and compiled again while the next ones
     * run.
     */
    private static ExecutorService startedPool(int threads, ThreadFactory factory) {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(threads, factory);
        pool.prestartAllCoreThreads();
        return pool;
    }

    private static ThreadFactory daemonThreads(String role) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "logbloom-" + role + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Threads the fetch and evaluation pools have started (for tests). */
    int startedPoolThreads() {
        return ((ThreadPoolExecutor) fetchPool).getPoolSize() + ((ThreadPoolExecutor) evalPool).getPoolSize();
    }

    /** The configuration in force. */
    public QuerierConfig config() {
        return config;
    }

    /** The metrics this querier records (also used by the HTTP routes for request latency). */
    public QuerierMetrics metrics() {
        return metrics;
    }

    /** The clock queries are timed and cache freshness is judged by. */
    Clock clock() {
        return clock;
    }

    /**
     * The version of the data a read of {@code matchers} over [fromNanos, throughNanos) sees: the sorted refs of the
     * chunks and objects the index lists for it (objects are immutable, so equal refs mean equal rows), or empty when
     * the ingester still holds unflushed rows there (the answer may still change, so it must not be cached).
     */
    java.util.Optional<List<String>> readVersion(String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        UnflushedSource.Snapshot snapshot = unflushed.snapshot(index, tenant, matchers, fromNanos, throughNanos);
        snapshot.close(); // time ranges only: no part is read
        for (UnflushedSource.Stream s : snapshot.unflushed()) {
            if (s.hasData(fromNanos, throughNanos)) {
                return java.util.Optional.empty();
            }
        }
        List<String> refs = new ArrayList<>();
        for (SeriesChunks sc : snapshot.indexed()) {
            for (ChunkRef ref : sc.chunks()) {
                if (ref.overlaps(fromNanos, throughNanos)) {
                    refs.add(ref.objectKey() + "#" + Long.toHexString(ref.fingerprint()) + ":" + ref.fromNanos() + "-"
                            + ref.throughNanos() + ":" + ref.entries());
                }
            }
        }
        refs.sort(null);
        return java.util.Optional.of(List.copyOf(refs));
    }

    /** Starts a query context for {@code tenant}; blooms apply only if both config and {@code bloomsRequested} allow. */
    public QueryContext newContext(String tenant, boolean bloomsRequested) {
        return new QueryContext(tenant, config.bloomsEnabled() && bloomsRequested, clock, config.queryTimeout());
    }

    /** Records a finished query's chunk counts in the metrics. */
    public void finish(QueryStatistics stats) {
        metrics.record(stats);
    }

    /**
     * Per stream, the samples of a line-counting range aggregation counted from block columns, or empty when the
     * data cannot be counted exactly that way (the caller then reads entries through {@link #select}).
     */
    public java.util.Optional<List<io.logbloom.logql.StreamSamples>> countLines(QueryContext ctx,
            List<LabelMatcher> matchers, io.logbloom.logql.LineCountQuery query, BloomQuery bloomQuery)
            throws IOException {
        return reader.countLines(ctx, matchers, query, bloomQuery == null ? BloomQuery.matchAll() : bloomQuery);
    }

    /**
     * Opens every series matching {@code matchers} over [fromNanos, throughNanos); entries come
     * lazily in the direction asked, chunks the bloom query excludes are never fetched.
     */
    public List<SeriesEntries> select(QueryContext ctx, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos, boolean forward, BloomQuery bloomQuery) throws IOException {
        List<StoreReader.SeriesStream> streams = reader.select(ctx, matchers, fromNanos, throughNanos, forward,
                bloomQuery == null ? BloomQuery.matchAll() : bloomQuery);
        List<SeriesEntries> out = new ArrayList<>(streams.size());
        for (StoreReader.SeriesStream s : streams) {
            out.add(new SeriesEntries(s.labels(), s.entries()));
        }
        return out;
    }

    /** Label names of matching series with data in the range (flushed or in memory), sorted. */
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        // the unflushed data first, the index after (as a query's snapshot): a row uploaded between is seen twice, not
        // missed, and a cluster querier hears of the ingesters' new index files before it lists
        List<UnflushedSource.Stream> streams = unflushed.unflushed(tenant, matchers, fromNanos, throughNanos);
        TreeSet<String> names = new TreeSet<>(index.labelNames(tenant, matchers, fromNanos, throughNanos));
        for (UnflushedSource.Stream s : streams) {
            if (s.hasData(fromNanos, throughNanos)) {
                names.addAll(s.labels().names());
            }
        }
        return List.copyOf(names);
    }

    /** Values of label {@code name} over matching series with data in the range, sorted. */
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        List<UnflushedSource.Stream> streams = unflushed.unflushed(tenant, matchers, fromNanos, throughNanos);
        TreeSet<String> values = new TreeSet<>(index.labelValues(tenant, name, matchers, fromNanos, throughNanos));
        for (UnflushedSource.Stream s : streams) {
            String v = s.labels().get(name);
            if (v != null && s.hasData(fromNanos, throughNanos)) {
                values.add(v);
            }
        }
        return List.copyOf(values);
    }

    /** Label sets of series matching any of the matcher groups, sorted and distinct. */
    public List<Labels> series(String tenant, List<List<LabelMatcher>> groups, long fromNanos, long throughNanos)
            throws IOException {
        TreeSet<Labels> all = new TreeSet<>();
        for (List<LabelMatcher> matchers : groups) {
            List<UnflushedSource.Stream> streams = unflushed.unflushed(tenant, matchers, fromNanos, throughNanos);
            all.addAll(index.series(tenant, matchers, fromNanos, throughNanos));
            for (UnflushedSource.Stream s : streams) {
                if (s.hasData(fromNanos, throughNanos)) {
                    all.add(s.labels());
                }
            }
        }
        return List.copyOf(all);
    }

    /**
     * Streams, chunks, entries and bytes matching {@code matchers} in the range. Bytes of flushed
     * chunks are their encoded sizes (the index keeps no decoded size); in-memory entries count
     * their line and metadata bytes.
     */
    public IndexStats indexStats(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return indexStats(perSeriesTotals(tenant, matchers, fromNanos, throughNanos));
    }

    /** {@link #indexStats} over per-series totals ({chunks, entries, bytes} by series). */
    static IndexStats indexStats(Map<Labels, long[]> perSeries) {
        long chunks = 0;
        long entries = 0;
        long bytes = 0;
        for (long[] t : perSeries.values()) {
            chunks += t[0];
            entries += t[1];
            bytes += t[2];
        }
        return new IndexStats(perSeries.size(), chunks, entries, bytes);
    }

    /**
     * Bytes per group of series, largest first, at most {@code limit} groups (Loki's volume). Groups
     * are the values of {@code targetLabels}, or of the selector's label names when that is empty;
     * with {@code aggregateBySeries} every series is its own group.
     */
    public List<SeriesVolume> volume(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos,
            List<String> targetLabels, boolean aggregateBySeries, int limit) throws IOException {
        return volume(perSeriesTotals(tenant, matchers, fromNanos, throughNanos), matchers, targetLabels,
                aggregateBySeries, limit);
    }

    /** {@link #volume} over per-series totals ({chunks, entries, bytes} by series). */
    static List<SeriesVolume> volume(Map<Labels, long[]> totals, List<LabelMatcher> matchers,
            List<String> targetLabels, boolean aggregateBySeries, int limit) {
        List<String> groupBy = targetLabels.isEmpty()
                ? matchers.stream().map(LabelMatcher::name).distinct().toList()
                : targetLabels;
        Map<Map<String, String>, Long> groups = new HashMap<>();
        for (Map.Entry<Labels, long[]> e : totals.entrySet()) {
            Map<String, String> key = new TreeMap<>();
            if (aggregateBySeries && targetLabels.isEmpty()) {
                for (Label l : e.getKey().list()) {
                    key.put(l.name(), l.value());
                }
            } else {
                for (String name : groupBy) {
                    String v = e.getKey().get(name);
                    if (v != null) {
                        key.put(name, v);
                    }
                }
            }
            groups.merge(key, e.getValue()[2], Long::sum);
        }
        List<SeriesVolume> out = new ArrayList<>();
        groups.forEach((k, v) -> out.add(new SeriesVolume(k, v)));
        out.sort((a, b) -> b.bytes() != a.bytes() ? Long.compare(b.bytes(), a.bytes())
                : a.labels().toString().compareTo(b.labels().toString()));
        return out.size() > limit ? List.copyOf(out.subList(0, limit)) : List.copyOf(out);
    }

    /** {chunks, entries, bytes} per matching series in the range, flushed and unflushed. */
    Map<Labels, long[]> perSeriesTotals(String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        Map<Labels, long[]> perSeries = new LinkedHashMap<>();
        List<UnflushedSource.Stream> streams = unflushed.unflushed(tenant, matchers, fromNanos, throughNanos);
        for (SeriesChunks sc : index.chunks(tenant, matchers, fromNanos, throughNanos)) {
            long[] t = perSeries.computeIfAbsent(sc.labels(), k -> new long[3]);
            for (ChunkRef ref : sc.chunks()) {
                if (ref.overlaps(fromNanos, throughNanos)) {
                    t[0]++;
                    t[1] += ref.entries();
                    t[2] += ref.sizeBytes();
                }
            }
        }
        for (UnflushedSource.Stream s : streams) {
            List<LogEntry> inRange = s.entries().stream()
                    .filter(e -> e.timestampNanos() >= fromNanos && e.timestampNanos() < throughNanos).toList();
            long[] parts = s.partTotals(fromNanos, throughNanos);
            if (inRange.isEmpty() && parts[0] == 0) {
                continue;
            }
            long[] t = perSeries.computeIfAbsent(s.labels(), k -> new long[3]);
            t[1] += inRange.size() + parts[0];
            t[2] += StoreReader.entryBytes(inRange) + parts[1];
        }
        return perSeries;
    }

    /** Stops the fetch and evaluation pools. */
    @Override
    public void close() {
        fetchPool.shutdownNow();
        evalPool.shutdownNow();
        try {
            fetchPool.awaitTermination(5, TimeUnit.SECONDS);
            evalPool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
