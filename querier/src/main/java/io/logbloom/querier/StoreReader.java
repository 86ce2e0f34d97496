package io.logbloom.querier;

import io.logbloom.bloom.BloomFormatException;
import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.ZstdInflater;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans and opens the read of one selector: index lookup (head + persisted), bloom test of every
 * chunk ref, then one lazy {@link SeriesReader} per series over the surviving chunks and the
 * ingester's unflushed entries. Chunk bytes come through the byte-bounded {@link ChunkCache} from
 * the {@link ObjectStore}, fetched on the shared bounded pool. Damaged objects do not fail a query:
 * a damaged chunk block or chunk is left out and a damaged bloom is read as absent (no skipping),
 * each logged at ERROR and counted in {@code logbloom_querier_corrupt_objects_total}.
 *
 * <p>Thread-safe: holds only thread-safe collaborators.
 */
final class StoreReader {
    private static final Logger LOG = LoggerFactory.getLogger(StoreReader.class);
    /** Length of a bloom period: 24h UTC, as the tokenizer buckets chunks by their from-time. */
    static final long PERIOD_NANOS = 86_400_000_000_000L;
    /** Directories stay cached even with the chunk cache off: a needle query must not re-read them. */
    static final long DIRECTORY_CACHE_MIN_BYTES = 16L << 20;

    /** One series ready to be read. */
    record SeriesStream(Labels labels, SeriesReader entries) {}

    private final QuerierConfig config;
    private final ObjectStore store;
    private final IndexReader index;
    private final UnflushedSource unflushed;
    private final BloomCache blooms;
    private final ChunkBloomTester tester;
    private final ChunkCache chunks;
    private final ChunkDecoder decoder;
    private final ExecutorService fetchPool;
    private final QuerierMetrics metrics;
    private final ColumnarBlockSegments columnar;
    private final ColumnarLineCounter counter;

    StoreReader(QuerierConfig config, ObjectStore store, IndexReader index, UnflushedSource unflushed,
            BloomCache blooms, ChunkBloomTester tester, ChunkCache chunks, ChunkDecoder decoder,
            ExecutorService fetchPool, ExecutorService evalPool, QuerierMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.config = Objects.requireNonNull(config, "config is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.unflushed = Objects.requireNonNull(unflushed, "unflushed is null");
        this.blooms = Objects.requireNonNull(blooms, "blooms is null");
        this.tester = Objects.requireNonNull(tester, "tester is null");
        this.chunks = Objects.requireNonNull(chunks, "chunks is null");
        this.decoder = Objects.requireNonNull(decoder, "decoder is null");
        this.fetchPool = Objects.requireNonNull(fetchPool, "fetchPool is null");
        this.columnar = new ColumnarBlockSegments(store,
                new ColumnarDirectoryCache(store, Math.max(DIRECTORY_CACHE_MIN_BYTES, config.chunkCacheBytes() / 8),
                        tester::scopeHash),
                chunks, fetchPool, metrics,
                // one context per thread that decodes at once: fetch pool, evaluators and request threads
                ZstdInflater.pooled(config.maxConcurrentFetches() + Runtime.getRuntime().availableProcessors() + 2));
        // blocks in flight: enough to keep every fetch thread busy, few enough that their bytes stay small
        this.counter = new ColumnarLineCounter(columnar, evalPool, 2 * config.maxConcurrentFetches(),
                config.bloomsEnabled(), metrics);
    }

    /**
     * The per-stream samples of a line-counting range aggregation over the selector's data, counted from block
     * columns (see {@link ColumnarLineCounter}), or empty when they cannot be counted exactly that way.
     */
    Optional<List<io.logbloom.logql.StreamSamples>> countLines(QueryContext ctx, List<LabelMatcher> matchers,
            io.logbloom.logql.LineCountQuery query, BloomQuery bloomQuery) throws IOException {
        return counter.count(ctx, plan(ctx, matchers, query.fromNanos(), query.throughNanos(), bloomQuery), query);
    }

    /**
     * What a read of one selector covers: per series (sorted by labels) the surviving refs, and of columnar
     * refs the blocks to read; the unflushed rows in memory and the local parts, per series.
     */
    record Plan(Map<Labels, List<ChunkRef>> refs, Map<ChunkRef, int[]> blocks, Map<Labels, List<LogEntry>> memory,
            Map<Labels, List<ColumnarFileStream>> parts) {}

    /** Plans the read of every matching series over [fromNanos, throughNanos): index, unflushed data, blooms. */
    Plan plan(QueryContext ctx, List<LabelMatcher> matchers, long fromNanos, long throughNanos, BloomQuery bloomQuery)
            throws IOException {
        long indexStart = System.nanoTime();
        // index and bloom reads that may wait on a remote store or ingester run on the fetch pool, waited for until
        // the deadline; with a local store and the ingester in process they run here, where a hand-off would cost
        // more than the lookup. The snapshot's local parts stay on disk until the query closes (a merge meanwhile
        // only hides them).
        UnflushedSource.Snapshot snapshot;
        if (store.readsAreLocal() && unflushed.answersInProcess()) {
            ctx.remainingMillis(); // past the deadline already: TIMEOUT, as the pool's wait would say
            snapshot = snapshot(ctx, matchers, fromNanos, throughNanos);
        } else {
            snapshot = ctx.await(fetchPool.submit(() -> snapshot(ctx, matchers, fromNanos, throughNanos)));
        }
        List<SeriesChunks> indexed = snapshot.indexed();
        List<UnflushedSource.Stream> memory = snapshot.unflushed();
        if (unflushed != UnflushedSource.NONE) {
            ctx.stats.ingesterReached.set(true);
        }
        ctx.stats.indexTimeNanos.add(System.nanoTime() - indexStart);

        // the index answers in label order: kept as it comes (a check per series, not a tree's log n comparisons of
        // label lists), sorted only when it is not or when unflushed streams add series
        Map<Labels, List<ChunkRef>> bySeries = new LinkedHashMap<>(indexed.size() * 2);
        boolean sorted = true;
        Labels previous = null;
        for (SeriesChunks series : indexed) {
            sorted &= previous == null || previous.compareTo(series.labels()) < 0;
            previous = series.labels();
            List<ChunkRef> refs = bySeries.computeIfAbsent(series.labels(), k -> new ArrayList<>());
            for (ChunkRef ref : series.chunks()) {
                if (ref.overlaps(fromNanos, throughNanos)) {
                    refs.add(ref);
                }
            }
        }
        int indexedSeries = bySeries.size();
        Map<Labels, List<LogEntry>> memoryBySeries = new HashMap<>();
        Map<Labels, List<ColumnarFileStream>> partsBySeries = new HashMap<>();
        for (UnflushedSource.Stream stream : memory) {
            List<LogEntry> inRange = inRange(stream.entries(), fromNanos, throughNanos);
            if (!inRange.isEmpty()) {
                memoryBySeries.merge(stream.labels(), inRange, (x, y) -> {
                    List<LogEntry> both = new ArrayList<>(x);
                    both.addAll(y);
                    return both;
                });
                bySeries.computeIfAbsent(stream.labels(), k -> new ArrayList<>());
            }
            if (!stream.parts().isEmpty()) {
                partsBySeries.computeIfAbsent(stream.labels(), k -> new ArrayList<>()).addAll(stream.parts());
                bySeries.computeIfAbsent(stream.labels(), k -> new ArrayList<>());
            }
        }

        Map<Labels, List<ChunkRef>> refsBySeries = !sorted || bySeries.size() > indexedSeries
                ? new TreeMap<>(bySeries) : bySeries;

        // with a local store, or every bloom and directory it needs in memory, the filter runs here: a hand-off to the
        // pool would cost more than the reads and probes on a busy box; otherwise it may wait on the store, on the pool
        // until the deadline
        boolean testing = ctx.bloomsEnabled() && ChunkBloomTester.isTestable(bloomQuery);
        BloomPass pass = new BloomPass(ctx, testing ? tester.prepare(bloomQuery) : null, fromNanos, throughNanos);
        Survivors filtered;
        if (store.readsAreLocal() || inMemory(ctx, refsBySeries, pass)) {
            filtered = bloomFilter(ctx, refsBySeries, pass);
        } else {
            // a remote store: the missing blooms and directories are read in parallel first (one round trip per
            // fetch-pool width, not one per series), then the filter finds them in the pass
            pass.prefetch(refsBySeries);
            filtered = ctx.await(fetchPool.submit(() -> bloomFilter(ctx, refsBySeries, pass)));
        }
        Map<Labels, List<ChunkRef>> survivors = filtered.refs();
        checkBytesLimit(survivors);
        return new Plan(survivors, filtered.blocks(), memoryBySeries, partsBySeries);
    }

    /** The index answer and the unflushed data of the selector, held until the query closes. */
    private UnflushedSource.Snapshot snapshot(QueryContext ctx, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        UnflushedSource.Snapshot taken = unflushed.snapshot(index, ctx.tenant(), matchers, fromNanos, throughNanos);
        ctx.onClose(taken::close);
        return taken;
    }

    /**
     * Whether {@link #bloomFilter} finds every series bloom (covering the refs) and columnar directory it reads in
     * the caches, so it reads nothing from the store; what it finds is kept in {@code pass}, which then looks none of
     * it up again.
     */
    private boolean inMemory(QueryContext ctx, Map<Labels, List<ChunkRef>> refsBySeries, BloomPass pass) {
        ctx.remainingMillis(); // past the deadline already: TIMEOUT, as the pool's wait would say
        for (List<ChunkRef> refs : refsBySeries.values()) {
            if (!pass.cached(refs)) { // a call per series: see bloomFilter
                return false;
            }
        }
        return true;
    }

    /** Opens every matching series over [fromNanos, throughNanos), sorted by labels. */
    List<SeriesStream> select(QueryContext ctx, List<LabelMatcher> matchers, long fromNanos, long throughNanos,
            boolean forward, BloomQuery bloomQuery) throws IOException {
        Plan plan = plan(ctx, matchers, fromNanos, throughNanos, bloomQuery);
        Map<Labels, List<ChunkRef>> survivors = plan.refs();
        Map<Labels, List<LogEntry>> memoryBySeries = plan.memory();
        Map<Labels, List<ColumnarFileStream>> partsBySeries = plan.parts();

        // blooms on: rows a surviving block holds that fail the bloom query exactly are dropped at decode
        boolean rowTest = ctx.bloomsEnabled() && ChunkBloomTester.isTestable(bloomQuery);
        List<SeriesStream> streams = new ArrayList<>(survivors.size());
        // the fetch pool is shared: spread its width over the series so prefetched bytes stay bounded
        int prefetch = Math.max(1, config.maxConcurrentFetches() / Math.max(1, survivors.size()));
        for (Map.Entry<Labels, List<ChunkRef>> e : survivors.entrySet()) {
            List<SeriesReader.Segment> segments = new ArrayList<>();
            for (ChunkRef ref : e.getValue()) {
                if (ref.isColumnar()) {
                    Labels series = e.getKey();
                    segments.addAll(columnar.segments(ctx, series, ref, plan.blocks().get(ref), fromNanos,
                            throughNanos, rowTest ? block -> RowBloomTest.rows(bloomQuery, series, block) : null));
                    continue;
                }
                segments.add(new SeriesReader.Segment(ref.fromNanos(), ref.throughNanos(), awaited -> fetch(ctx, ref, awaited),
                        bytes -> decode(ctx, ref, bytes, fromNanos, throughNanos)));
            }
            for (ColumnarFileStream part : partsBySeries.getOrDefault(e.getKey(), List.of())) {
                segments.addAll(columnar.fileSegments(ctx, part, fromNanos, throughNanos));
            }
            List<LogEntry> mem = memoryBySeries.get(e.getKey());
            if (mem != null) {
                segments.add(memorySegment(ctx, mem));
            }
            if (segments.isEmpty()) {
                continue;
            }
            streams.add(new SeriesStream(e.getKey(), new SeriesReader(segments, forward, prefetch, ctx)));
        }
        return streams;
    }

    /**
     * The refs (and, of columnar objects, the blocks in range) that may hold a match, per series: with
     * blooms on and a testable query, a row chunk is kept when its series bloom says it may match, a
     * columnar ref keeps the blocks whose block-scoped tokens may match. Stats count every block of
     * a columnar object as one chunk, so fetched = total − skipped holds in both modes.
     */
    private Survivors bloomFilter(QueryContext ctx, Map<Labels, List<ChunkRef>> refsBySeries, BloomPass pass)
            throws IOException {
        boolean testing = pass.prepared != null;
        if (testing) {
            ctx.stats.usedBloomFilters.set(true);
        }
        long start = System.nanoTime();
        // in the order of refsBySeries (sorted by labels), with no second sort
        Map<Labels, List<ChunkRef>> survivors = new LinkedHashMap<>(refsBySeries.size() * 2);
        // one call per series, not one loop over every block: this method runs once per query, and a loop inside it
        // runs interpreted until its back-edge counter triggers a compile, tens of queries later on a big tenant
        for (Map.Entry<Labels, List<ChunkRef>> e : refsBySeries.entrySet()) {
            survivors.put(e.getKey(), pass.keep(e.getKey(), e.getValue()));
        }
        ctx.stats.totalChunksRef.add(pass.total);
        ctx.stats.postFilterChunks.add(pass.kept);
        if (testing) {
            ctx.stats.chunksSkipped.add(pass.total - pass.kept);
            ctx.stats.bloomFilterTimeNanos.add(System.nanoTime() - start);
        }
        return new Survivors(survivors, pass.blocks);
    }

    /** One query's bloom filtering, series by series: the blooms it loaded, the blocks it kept, its counts. */
    private final class BloomPass {
        private final QueryContext ctx;
        /** The query's tokens hashed, or null when blooms are off or the query cannot skip anything. */
        private final ChunkBloomTester.Prepared prepared;
        private final long fromNanos;
        private final long throughNanos;
        /** By identity: the refs are the plan's own instances (a record's hash would cost more than the lookup). */
        private final Map<ChunkRef, int[]> blocks = new IdentityHashMap<>();
        private final Map<BloomCache.Key, Optional<SeriesBloomView>> loaded = new HashMap<>();
        /** Refs the in-memory check found covered by their series bloom, with that bloom (asked once per ref). */
        private final Map<ChunkRef, SeriesBloomView> covering = new IdentityHashMap<>();
        /** The columnar objects met so far, each looked up in the directory cache once per query. */
        private final Map<String, ColumnarDirectoryCache.Entry> objects = new HashMap<>();
        private final Set<BloomCache.Key> reloaded = new HashSet<>();
        private long total;
        private long kept;

        BloomPass(QueryContext ctx, ChunkBloomTester.Prepared prepared, long fromNanos, long throughNanos) {
            this.ctx = ctx;
            this.prepared = prepared;
            this.fromNanos = fromNanos;
            this.throughNanos = throughNanos;
        }

        /**
         * Whether every columnar directory and (when testing) series bloom covering {@code refs} is in the caches;
         * those found are kept for {@link #keep}.
         */
        boolean cached(List<ChunkRef> refs) {
            for (ChunkRef ref : refs) {
                if (ref.isColumnar() && !objects.containsKey(ref.objectKey())) {
                    ColumnarDirectoryCache.Entry object = columnar.cachedObject(ref.objectKey());
                    if (object == null) {
                        return false;
                    }
                    objects.put(ref.objectKey(), object);
                }
                if (prepared != null) { // a bloom missing or not covering the ref is read again from the store
                    BloomCache.Key key = bloomKey(ref);
                    Optional<SeriesBloomView> bloom = loaded.get(key);
                    if (bloom == null) {
                        bloom = blooms.peek(key);
                        if (bloom == null) {
                            return false;
                        }
                        loaded.put(key, bloom); // a cached "no bloom" too: keep reads it again from the store
                        ctx.stats.bloomsLoaded.increment();
                    }
                    if (bloom.isEmpty() || !bloom.get().covers(ref.objectKey())) {
                        return false;
                    }
                    covering.put(ref, bloom.get());
                }
            }
            return true;
        }

        /**
         * Reads the series blooms (when testing) and columnar directories of {@code refsBySeries} that this pass does
         * not hold yet, on the fetch pool in parallel, waiting for them until the deadline; {@link #keep} then finds
         * them here. Failures surface as the sequential reads would report them.
         */
        void prefetch(Map<Labels, List<ChunkRef>> refsBySeries) throws IOException {
            Map<BloomCache.Key, Future<Optional<SeriesBloomView>>> bloomReads = new LinkedHashMap<>();
            Map<String, Future<ColumnarDirectoryCache.Entry>> objectReads = new LinkedHashMap<>();
            for (List<ChunkRef> refs : refsBySeries.values()) {
                for (ChunkRef ref : refs) {
                    String objectKey = ref.isColumnar() ? ref.objectKey() : null;
                    if (objectKey != null && !objects.containsKey(objectKey) && !objectReads.containsKey(objectKey)) {
                        ColumnarDirectoryCache.Entry cached = columnar.cachedObject(objectKey);
                        if (cached != null) {
                            objects.put(objectKey, cached);
                        } else {
                            objectReads.put(objectKey, fetchPool.submit(() -> columnar.object(objectKey)));
                        }
                    }
                    if (prepared != null) {
                        prefetchBloom(ref, bloomReads);
                    }
                }
            }
            try {
                for (Map.Entry<String, Future<ColumnarDirectoryCache.Entry>> e : objectReads.entrySet()) {
                    objects.put(e.getKey(), ctx.await(e.getValue()));
                }
                for (Map.Entry<BloomCache.Key, Future<Optional<SeriesBloomView>>> e : bloomReads.entrySet()) {
                    if (loaded.put(e.getKey(), ctx.await(e.getValue())) == null) {
                        ctx.stats.bloomsLoaded.increment();
                    } else {
                        reloaded.add(e.getKey()); // read again: keep does not read it a third time
                    }
                }
            } finally {
                objectReads.values().forEach(f -> f.cancel(true)); // after a failure: the reads nobody waits for
                bloomReads.values().forEach(f -> f.cancel(true));
            }
        }

        /**
         * Queues the read of {@code ref}'s series bloom unless one is queued: a first read when neither the pass nor
         * the cache holds it, a second one (as {@link #bloomOf} would make) when the one held does not cover the ref's
         * object yet, e.g. a bloom cached before the merge that wrote the object.
         */
        private void prefetchBloom(ChunkRef ref, Map<BloomCache.Key, Future<Optional<SeriesBloomView>>> bloomReads) {
            BloomCache.Key key = bloomKey(ref);
            if (bloomReads.containsKey(key)) {
                return;
            }
            Optional<SeriesBloomView> held = loaded.get(key);
            if (held == null) {
                held = blooms.peek(key);
                if (held == null) {
                    bloomReads.put(key, fetchPool.submit(() -> loadBloom(key, false)));
                    return;
                }
                loaded.put(key, held);
                ctx.stats.bloomsLoaded.increment();
            }
            if ((held.isEmpty() || !held.get().covers(ref.objectKey())) && !reloaded.contains(key)) {
                bloomReads.put(key, fetchPool.submit(() -> loadBloom(key, true)));
            }
        }

        /** The refs of {@code series} to read; for columnar refs, the blocks to read go to {@link #blocks}. */
        List<ChunkRef> keep(Labels series, List<ChunkRef> refs) throws IOException {
            List<ChunkRef> keep = new ArrayList<>();
            for (ChunkRef ref : refs) {
                ColumnarDirectoryCache.Entry object = ref.isColumnar() ? object(ref.objectKey()) : null;
                int[] inRange = object != null
                        ? columnar.blocksInRange(series, ref, object, fromNanos, throughNanos, ctx.stats)
                        : null;
                int count = inRange == null ? 1 : inRange.length;
                total += count;
                if (prepared == null) {
                    keep.add(ref);
                    kept += count;
                    if (inRange != null) {
                        blocks.put(ref, inRange);
                    }
                    continue;
                }
                SeriesBloomView view = covering.get(ref);
                if (view == null) {
                    view = bloomOf(ref).orElse(null);
                    if (view != null && !view.covers(ref.objectKey())) {
                        view = null;
                    }
                }
                if (inRange == null) {
                    if (prepared.chunkMayMatch(series, ref.objectKey(), view)) {
                        keep.add(ref);
                        kept++;
                    } else {
                        ctx.stats.bytesSkipped.add(ref.sizeBytes());
                    }
                    continue;
                }
                if (view == null) {
                    keep.add(ref);
                    blocks.put(ref, inRange);
                    kept += inRange.length;
                    continue;
                }
                int[] maybe = blocksMayMatch(series, ref, object.table(), view, inRange);
                if (maybe.length > 0) {
                    keep.add(ref);
                    blocks.put(ref, maybe);
                    kept += maybe.length;
                }
            }
            return keep;
        }

        /** The bloom of {@code ref}'s series and period, read again once when it does not cover the ref yet. */
        private Optional<SeriesBloomView> bloomOf(ChunkRef ref) throws IOException {
            BloomCache.Key key = bloomKey(ref);
            Optional<SeriesBloomView> bloom = loaded.get(key);
            if (bloom == null) {
                bloom = loadBloom(key, false);
                loaded.put(key, bloom);
                ctx.stats.bloomsLoaded.increment();
            }
            if ((bloom.isEmpty() || !bloom.get().covers(ref.objectKey())) && reloaded.add(key)) {
                bloom = loadBloom(key, true);
                loaded.put(key, bloom);
            }
            return bloom;
        }

        private BloomCache.Key bloomKey(ChunkRef ref) {
            return new BloomCache.Key(ctx.tenant(), ref.fingerprint(), Math.floorDiv(ref.fromNanos(), PERIOD_NANOS));
        }

        /** The columnar object {@code objectKey}, from the directory cache the first time in this query. */
        private ColumnarDirectoryCache.Entry object(String objectKey) throws IOException {
            ColumnarDirectoryCache.Entry object = objects.get(objectKey);
            if (object == null) {
                object = columnar.object(objectKey);
                objects.put(objectKey, object);
            }
            return object;
        }

        /** Stored bytes of the first {@code n} blocks of {@code blocks}. */
        private static long bytesOf(ColumnarBlockTable table, int[] blocks, int n) {
            long bytes = 0;
            for (int i = 0; i < n; i++) {
                bytes += table.length(blocks[i]);
            }
            return bytes;
        }

        /** The blocks of {@code inRange} whose block-scoped tokens may match; counts the skipped bytes. */
        private int[] blocksMayMatch(Labels series, ChunkRef ref, ColumnarBlockTable table, SeriesBloomView view,
                int[] inRange) {
            if (prepared.probesOneToken(series)) {
                // a needle: every block's scoped token probed in one loop over the object's filter
                long[] hashes = new long[inRange.length];
                table.scopeHashes(inRange, inRange.length, hashes);
                prepared.scopedTokens(hashes, hashes.length);
                int[] maybe = inRange.clone();
                int n = view.retainMightContain(ref.objectKey(), hashes, maybe, maybe.length);
                if (n == inRange.length) {
                    return inRange;
                }
                // one loop for both sums: its profile is shared, so the JIT does not compile the kept blocks' sum as
                // never entered where the warm-up's small objects left none (a needle's block and a ruled-out one of
                // the same series and object), and throw the needle path away at the first real needle
                ctx.stats.bytesSkipped.add(bytesOf(table, inRange, inRange.length) - bytesOf(table, maybe, n));
                return java.util.Arrays.copyOf(maybe, n);
            }
            // the object's filter and series-dependent checks looked up once
            java.util.function.LongPredicate blockTest = prepared.blocksOf(series, view, view.tokensOf(ref.objectKey()));
            int[] maybe = new int[inRange.length];
            int n = 0;
            long skippedBytes = 0;
            for (int b : inRange) {
                if (blockTest.test(table.scopeHash(b))) {
                    maybe[n++] = b;
                } else {
                    skippedBytes += table.length(b);
                }
            }
            ctx.stats.bytesSkipped.add(skippedBytes);
            return n == inRange.length ? inRange : java.util.Arrays.copyOf(maybe, n);
        }
    }

    /** The refs to read per series, and for columnar refs the blocks to read. */
    private record Survivors(Map<Labels, List<ChunkRef>> refs, Map<ChunkRef, int[]> blocks) {}

    /**
     * A series bloom, or none when it is damaged: a damaged bloom proves nothing, so its chunks are read
     * (as with no bloom at all) and the damage is logged and counted instead of failing the query.
     */
    private Optional<SeriesBloomView> loadBloom(BloomCache.Key key, boolean reload) throws IOException {
        try {
            return reload ? blooms.reload(key) : blooms.get(key);
        } catch (BloomFormatException e) {
            LOG.error("series bloom of tenant {} series {} period {} is damaged, its chunks are read unfiltered: {}",
                    key.tenant(), Long.toHexString(key.fingerprint()), key.period(), e.getMessage());
            metrics.corruptObjects("bloom", 1);
            return Optional.empty();
        }
    }

    private void checkBytesLimit(Map<Labels, List<ChunkRef>> survivors) {
        long limit = config.maxQueryBytesRead();
        if (limit == 0) {
            return;
        }
        long bytes = 0;
        for (List<ChunkRef> refs : survivors.values()) {
            for (ChunkRef ref : refs) {
                bytes += ref.sizeBytes();
            }
        }
        if (bytes > limit) {
            throw new QuerierException(QuerierErrorCode.LIMIT_EXCEEDED, String.format(Locale.ROOT,
                    "the query would read too many bytes (query: %s, limit: %s); consider adding more specific "
                            + "stream selectors or reduce the time range of the query",
                    humanBytes(bytes), humanBytes(limit)));
        }
    }

    /** The entries in [fromNanos, throughNanos); the list itself (no copy) when all are inside. */
    static List<LogEntry> inRange(List<LogEntry> entries, long fromNanos, long throughNanos) {
        boolean all = true;
        for (LogEntry e : entries) {
            if (e.timestampNanos() < fromNanos || e.timestampNanos() >= throughNanos) {
                all = false;
                break;
            }
        }
        if (all) {
            return entries;
        }
        List<LogEntry> out = new ArrayList<>(entries.size());
        for (LogEntry e : entries) {
            if (e.timestampNanos() >= fromNanos && e.timestampNanos() < throughNanos) {
                out.add(e);
            }
        }
        return out;
    }

    private SeriesReader.Segment memorySegment(QueryContext ctx, List<LogEntry> entries) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (LogEntry entry : entries) {
            min = Math.min(min, entry.timestampNanos());
            max = Math.max(max, entry.timestampNanos());
        }
        return new SeriesReader.Segment(min, max, awaited -> CompletableFuture.completedFuture(new byte[0]), none -> {
            ctx.stats.headChunkLines.add(entries.size());
            ctx.stats.headChunkBytes.add(lineBytes(entries));
            ctx.stats.headChunkStructuredMetadataBytes.add(metadataBytes(entries));
            return entries;
        });
    }

    /** Reads a row chunk's bytes: on the calling thread when it waits for them at once from a local store. */
    private CompletableFuture<byte[]> fetch(QueryContext ctx, ChunkRef ref, boolean awaited) {
        if (awaited && store.readsAreLocal()) {
            return SeriesReader.Fetch.now(() -> read(ctx, ref), "chunk " + ref.objectKey());
        }
        CompletableFuture<byte[]> future = CompletableFuture.supplyAsync(() -> {
            try {
                return read(ctx, ref);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read chunk " + ref.objectKey() + ": " + e.getMessage(), e);
            }
        }, fetchPool);
        ctx.track(future);
        return future;
    }

    private byte[] read(QueryContext ctx, ChunkRef ref) throws IOException {
        long start = System.nanoTime();
        String key = ref.objectKey();
        byte[] bytes = chunks.get(key);
        if (bytes != null) {
            ctx.stats.chunksFromCache.increment();
        } else {
            bytes = store.get(key);
            chunks.put(key, bytes);
        }
        ctx.stats.chunksDownloadTimeNanos.add(System.nanoTime() - start);
        ctx.stats.chunksFetched.increment();
        ctx.stats.compressedBytes.add(bytes.length);
        return bytes;
    }

    private List<LogEntry> decode(QueryContext ctx, ChunkRef ref, byte[] bytes, long fromNanos, long throughNanos)
            throws IOException {
        List<LogEntry> decoded;
        try {
            decoded = decoder.decode(ref, bytes, fromNanos, throughNanos);
        } catch (DamagedChunkException e) {
            // as Loki's chunk reader: a damaged block is skipped (and logged), the intact ones still answer
            LOG.error("{}; the query answers from the intact blocks", e.getMessage());
            metrics.corruptObjects("chunk_block", e.damagedBlocks());
            decoded = e.intactEntries();
        } catch (ChunkFormatException e) {
            LOG.error("{}; the query answers without it", e.getMessage());
            metrics.corruptObjects("chunk", 1);
            decoded = List.of();
        }
        List<LogEntry> inRange = new ArrayList<>(decoded.size());
        for (LogEntry entry : decoded) {
            if (entry.timestampNanos() >= fromNanos && entry.timestampNanos() < throughNanos) {
                inRange.add(entry);
            }
        }
        ctx.stats.decompressedLines.add(inRange.size());
        ctx.stats.decompressedBytes.add(lineBytes(inRange));
        ctx.stats.decompressedStructuredMetadataBytes.add(metadataBytes(inRange));
        return inRange;
    }

    static long entryBytes(List<LogEntry> entries) {
        return lineBytes(entries) + metadataBytes(entries);
    }

    static long lineBytes(List<LogEntry> entries) {
        long bytes = 0;
        for (LogEntry entry : entries) {
            bytes += entry.line().length();
        }
        return bytes;
    }

    static long metadataBytes(List<LogEntry> entries) {
        long bytes = 0;
        for (LogEntry entry : entries) {
            for (Label label : entry.metadata()) {
                bytes += label.name().length() + label.value().length();
            }
        }
        return bytes;
    }

    /** SI byte size as Go's humanize.Bytes prints it, e.g. {@code 1.2 GB}. */
    static String humanBytes(long bytes) {
        if (bytes < 10) {
            return bytes + " B";
        }
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        int exp = (int) Math.floor(Math.log(bytes) / Math.log(1000));
        double value = bytes / Math.pow(1000, exp);
        String fmt = value < 10 ? "%.1f %s" : "%.0f %s";
        return String.format(Locale.ROOT, fmt, value, units[exp]);
    }
}
