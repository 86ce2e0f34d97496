package io.logbloom.ingest;

import io.logbloom.bloom.AddResult;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.BloomStats;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import io.logbloom.index.CombinedIndex;
import io.logbloom.index.HeadIndex;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexReader;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import net.openhft.hashing.LongHashFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path: validates and limits pushes, makes them durable in the {@link Wal}, keeps each
 * stream's data in {@link MemChunk}s, and flushes closed chunks to the object store, the index and
 * the per-series blooms.
 *
 * <p><b>Push.</b> Labels and entries are validated first (Loki's rules and messages), then the
 * tenant's token bucket is charged for the valid bytes (all-or-nothing, 429 when refused), then,
 * under {@code lock}: new streams pass the active-stream limit and the hourly/daily bloom series
 * limiters, entries pass the out-of-order window and duplicate check (same stream, timestamp and
 * line are stored once: against the entries in memory, across WAL replay, and for
 * {@code RecentlyFlushed} entries flushed in the last ten minutes, so a client retry after a flush
 * does not store twice), the accepted entries are written to the WAL and
 * then to memory; after {@code lock} is released the push waits until its WAL record is forced to
 * disk (per request by default; concurrent pushes share one fsync, a group commit). A push returns
 * only once its entries are durable in the WAL, so an acknowledged entry survives {@code kill -9}.
 *
 * <p><b>Flush.</b> A single flush cycle at a time ({@code flushLock}) closes chunks per
 * {@link FlushPolicy}, then for each closed chunk: puts the encoded chunk object, adds its ref to the
 * head index, writes the cycle's index file, feeds the chunk's tokens to its series bloom (a chunk
 * is marked covered only when no add came back FULL) and persists every touched bloom. A chunk
 * leaves memory only when all of that succeeded; then a {@code Flushed} WAL marker records it, and
 * WAL segments older than the oldest in-memory data are deleted. A failed step is retried on later
 * cycles with doubling backoff; nothing is dropped.
 *
 * <p><b>Thread-safety.</b> All public methods are thread-safe. {@code lock} guards the tenant map,
 * every stream's chunks and keys and the closed-chunk states; {@code flushLock} serializes flush
 * cycles (and so the in-memory blooms, which only the flush cycle mutates); {@code visibility}
 * (taken before {@code lock}) makes adding refs to the head index atomic with respect to index
 * lookups and guards {@code indexEpoch}, the count of those additions.
 */
public final class Ingester implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingester.class);
    private static final LongHashFunction LINE_HASH = LongHashFunction.xx3();
    /** Error messages kept per push: a 400 body naming thousands of entries helps nobody. */
    static final int MAX_ERRORS_PER_PUSH = 100;
    /** Attempts {@link #flushAll()} makes for a failing chunk before it reports the failure. */
    static final int FLUSH_ALL_ATTEMPTS = 5;
    /**
     * Memory kept for series blooms between flushes: n-gram blooms reach megabytes per series, so
     * thousands of series could otherwise hold gigabytes; evicted blooms are reloaded on their next flush.
     */
    static final long MAX_BLOOM_MEMORY_BYTES = 256L << 20;
    /**
     * How long a flushed chunk stays in memory after its ref entered the index, unless the flush is
     * forced: a query that read the index just before must still find its entries in
     * {@link #unflushed}; the gap between those two calls of a query is milliseconds. Capped by the
     * flush check period, so a chunk leaves memory at the latest one cycle after it was flushed.
     */
    static final long REMOVAL_GRACE_NANOS = 5_000_000_000L;
    /** A checkpoint rotates a WAL segment only past this size, so frequent flushes do not leave thousands of tiny files. */
    static final long CHECKPOINT_ROTATE_BYTES = 1L << 20;

    private final IngestConfig config;
    private final ObjectStore store;
    private final Clock clock;
    private final PushValidator validator;
    private final FlushPolicy flushPolicy;
    private final BloomTokenizer tokenizer;
    private final HeadIndex head = new HeadIndex();
    private final CombinedIndex combinedIndex;
    private final IndexWriter indexWriter;
    private final SeriesBloomStore bloomStore;
    private final IngestMetrics metrics;
    private final Wal wal;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();
    private final ThreadLocal<Long> epochSeenByIndexRead = new ThreadLocal<>();
    private final IndexReader visibleIndex;
    private long indexEpoch;
    private final long removalGraceNanos;
    private final Map<String, TenantState> tenants = new HashMap<>();
    private final RecentlyFlushed recentlyFlushed = new RecentlyFlushed();
    private final Map<BloomKey, SeriesBloom> blooms = new ConcurrentHashMap<>();
    private final Set<BloomKey> unpersistedBlooms = new HashSet<>();
    private final Map<BloomKey, Long> bloomTouched = new HashMap<>();
    private final List<TailListener> tailListeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger activeStreams = new AtomicInteger();
    private final ScheduledExecutorService scheduler;
    private volatile boolean closed;

    /** Opens the WAL (replaying it into memory), registers metrics and starts the flush loop. */
    public Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry)
            throws IOException {
        this.config = Objects.requireNonNull(config, "config is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        Objects.requireNonNull(registry, "registry is null");
        this.validator = new PushValidator(config.limits());
        this.flushPolicy = new FlushPolicy(config.flush());
        this.tokenizer = new BloomTokenizer(config.tokenizer());
        PersistedIndex persisted = new PersistedIndex(store, config.index(), new IndexFileCache(store, config.index()));
        this.combinedIndex = new CombinedIndex(head, persisted);
        this.visibleIndex = new VisibleIndex();
        this.removalGraceNanos = Math.min(REMOVAL_GRACE_NANOS, config.flush().flushCheckPeriod().toNanos());
        this.indexWriter = new IndexWriter(store, config.index(), clock,
                "ingester-" + Long.toHexString(LINE_HASH.hashLong(System.nanoTime() ^ System.identityHashCode(this))));
        this.bloomStore = new SeriesBloomStore(store);
        Replay replay = new Replay();
        this.wal = Wal.open(config.wal(), replay::accept);
        try {
            replay.apply();
        } catch (IOException | RuntimeException e) {
            wal.close();
            throw e;
        }
        this.metrics = registerMetrics(registry);
        this.scheduler = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "logbloom-ingester-flush");
            t.setDaemon(true);
            return t;
        });
        long period = config.flush().flushCheckPeriod().toMillis();
        scheduler.scheduleWithFixedDelay(this::flushLoopTick, period, period, TimeUnit.MILLISECONDS);
        if (config.wal().fsync() == WalConfig.FsyncPolicy.INTERVAL) {
            long interval = config.wal().fsyncInterval().toMillis();
            scheduler.scheduleWithFixedDelay(this::syncWal, interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    /** Registers the metrics; on failure (e.g. names already registered) closes the WAL opened above. */
    private IngestMetrics registerMetrics(PrometheusRegistry registry) throws IOException {
        try {
            return new IngestMetrics(registry, new IngestMetrics.Gauges() {
                @Override
                public double activeStreams() {
                    return activeStreams.get();
                }

                @Override
                public double walBytes() {
                    return wal.sizeBytes();
                }

                @Override
                public double[] bloomTotals() {
                    double[] totals = new double[5];
                    for (SeriesBloom b : blooms.values()) {
                        BloomStats s = b.filter().stats();
                        totals[0] += s.sizeBytes();
                        totals[1] += 1;
                        totals[2] += s.subFilters();
                        totals[3] += s.itemsInserted();
                        totals[4] += s.capacity();
                    }
                    return totals;
                }
            });
        } catch (RuntimeException e) {
            wal.close();
            throw e;
        }
    }

    // ---------------------------------------------------------------- push

    /** Validates, limits, logs (WAL) and stores the streams of one push; see the class comment. */
    public PushResult push(String tenant, List<PushStream> streams) throws IOException {
        TenantIds.validate(tenant);
        ensureOpen();
        long now = nowNanos();
        Errors errors = new Errors();
        Map<Labels, Candidate> candidates = new LinkedHashMap<>();
        long validBytes = 0;
        int validLines = 0;
        for (PushStream ps : streams) {
            List<Label> pairs;
            try {
                pairs = LabelsParser.parse(ps.labels());
            } catch (IllegalArgumentException e) {
                errors.reject(RejectReason.INVALID_LABELS,
                        String.format("Error parsing labels '%s' with error: %s", ps.labels(), e.getMessage()),
                        ps.entries().size());
                continue;
            }
            String shown = canonical(pairs);
            Rejection labelProblem = validator.validateLabels(shown, pairs);
            if (labelProblem != null) {
                errors.reject(labelProblem, ps.entries().size());
                continue;
            }
            Labels labels = Labels.of(pairs);
            Candidate candidate = candidates.computeIfAbsent(labels, l -> new Candidate(l, l.toString()));
            for (LogEntry entry : ps.entries()) {
                int lineBytes = PushValidator.utf8Length(entry.line());
                Rejection problem = validator.validateEntry(candidate.shown, entry, lineBytes, now);
                if (problem != null) {
                    errors.reject(problem, 1);
                    continue;
                }
                long size = entrySize(entry, lineBytes);
                candidate.entries.add(new Prepared(entry, size));
                validBytes += size;
                validLines++;
            }
        }
        TenantState state = tenantState(tenant);
        if (validLines > 0 && !state.rate.tryAcquire(validBytes)) {
            errors.reject(RejectReason.RATE_LIMITED, String.format(
                    "Ingestion rate limit exceeded for user %s (limit: %d bytes/sec) while attempting to ingest '%d' lines "
                            + "totaling '%d' bytes, reduce log volume or contact your Loki administrator to see if the limit "
                            + "can be increased", tenant, config.limits().ingestionRateBytesPerSecond(), validLines, validBytes),
                    validLines);
            errors.rateLimited = true;
            return errors.result(0, metrics);
        }
        // Outside the lock: sort, hash, drop duplicates within the push and WAL-encode each entry once.
        // Sized for the common case (WAL bytes = raw bytes plus 12 per entry and 8 per metadata pair) so it never grows.
        WalCodec.Buffer encoded = new WalCodec.Buffer((int) Math.min(Integer.MAX_VALUE - 16, validBytes + validLines * 32L + 64));
        int acceptedCount = 0;
        for (Candidate c : candidates.values()) {
            c.prepare(encoded);
        }
        Map<Stream, List<LogEntry>> accepted = new LinkedHashMap<>();
        long acceptedBytes = 0;
        Wal.Position written = null;
        lock.lock();
        try {
            ensureOpen();
            WalCodec.Buffer record = null;
            int recordStreams = 0;
            Map<Stream, List<Prepared>> toAppend = new LinkedHashMap<>();
            for (Candidate c : candidates.values()) {
                if (c.unique.isEmpty()) {
                    continue;
                }
                Stream stream = state.streams.get(c.labels);
                if (stream == null) {
                    Rejection limit = admitNewStream(tenant, state, c);
                    if (limit != null) {
                        errors.reject(limit, c.entries.size());
                        continue;
                    }
                    stream = new Stream(tenant, c.labels);
                    state.streams.put(c.labels, stream);
                    activeStreams.incrementAndGet();
                }
                acceptedCount += c.entries.size() - c.unique.size(); // repeats within the push: duplicates
                List<Prepared> toStore = new ArrayList<>(c.unique.size());
                for (Prepared p : c.unique) {
                    // stream.keys holds no timestamp above newestNanos, so newer entries skip its (cache-missing) probe
                    if ((p.key.timestampNanos() <= stream.newestNanos
                            && stream.keys.contains(0, p.key.timestampNanos(), p.key.lineHash()))
                            || recentlyFlushed.contains(tenant, c.labels.fingerprint(),
                            p.key.timestampNanos(), p.key.lineHash(), now)) {
                        acceptedCount++;
                        continue;
                    }
                    Rejection order = orderCheck(stream, p.entry);
                    if (order != null) {
                        errors.reject(order, 1);
                        continue;
                    }
                    toStore.add(p);
                    acceptedCount++;
                    acceptedBytes += p.size;
                }
                if (toStore.isEmpty()) {
                    continue;
                }
                if (record == null) {
                    record = new WalCodec.Buffer(encoded.size() + 256);
                    record.writeByte(WalCodec.TYPE_ENTRIES);
                    record.writeString(tenant);
                    record.writeInt(0); // stream count, patched below
                }
                record.writeString(stream.labelsString);
                record.writeInt(toStore.size());
                int runStart = -1;
                int runEnd = -1;
                for (Prepared p : toStore) {
                    if (p.walStart != runEnd) {
                        if (runStart >= 0) {
                            record.writeBytes(encoded.array(), runStart, runEnd - runStart);
                        }
                        runStart = p.walStart;
                    }
                    runEnd = p.walEnd;
                }
                record.writeBytes(encoded.array(), runStart, runEnd - runStart);
                recordStreams++;
                toAppend.put(stream, toStore);
            }
            if (record != null) {
                int at = 1 + 4 + tenant.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                byte[] bytes = record.array();
                bytes[at] = (byte) (recordStreams >>> 24);
                bytes[at + 1] = (byte) (recordStreams >>> 16);
                bytes[at + 2] = (byte) (recordStreams >>> 8);
                bytes[at + 3] = (byte) recordStreams;
                written = wal.writePayload(bytes, record.size());
                for (Map.Entry<Stream, List<Prepared>> e : toAppend.entrySet()) {
                    List<LogEntry> entries = new ArrayList<>(e.getValue().size());
                    for (Prepared p : e.getValue()) {
                        append(e.getKey(), p.entry, p.key, p.size, written.segment(), now);
                        entries.add(p.entry);
                    }
                    accepted.put(e.getKey(), entries);
                }
            }
        } finally {
            removeEmptyStreams(state);
            lock.unlock();
        }
        if (written != null && config.wal().fsync() == WalConfig.FsyncPolicy.PER_REQUEST) {
            wal.syncTo(written.sequence());
        }
        long storedLines = 0;
        for (List<LogEntry> list : accepted.values()) {
            storedLines += list.size();
        }
        metrics.accepted(storedLines, acceptedBytes);
        for (Map.Entry<Stream, List<LogEntry>> e : accepted.entrySet()) {
            for (TailListener listener : tailListeners) {
                try {
                    listener.onEntries(tenant, e.getKey().labels, e.getValue());
                } catch (RuntimeException ex) {
                    LOG.warn("tail listener {} failed: {}", listener, ex.toString());
                }
            }
        }
        return errors.result(acceptedCount, metrics);
    }

    private Rejection admitNewStream(String tenant, TenantState state, Candidate c) {
        int max = config.limits().maxGlobalStreamsPerUser();
        if (max > 0 && state.streams.size() >= max) {
            return new Rejection(RejectReason.STREAM_LIMIT, String.format(
                    "Maximum active stream limit exceeded when trying to create stream %s, reduce the number of active "
                            + "streams (reduce labels or reduce label values), or contact your Loki administrator to see if "
                            + "the limit can be increased, user: '%s'", c.shown, tenant));
        }
        if (state.hourly != null && !state.hourly.allow(c.labels.fingerprint())) {
            return new Rejection(RejectReason.SERIES_LIMIT_HOURLY, String.format(
                    "Maximum new series per hour limit (%d) exceeded when trying to create stream %s, user: '%s'",
                    state.hourly.maxItems(), c.shown, tenant));
        }
        if (state.daily != null && !state.daily.allow(c.labels.fingerprint())) {
            return new Rejection(RejectReason.SERIES_LIMIT_DAILY, String.format(
                    "Maximum new series per day limit (%d) exceeded when trying to create stream %s, user: '%s'",
                    state.daily.maxItems(), c.shown, tenant));
        }
        return null;
    }

    private Rejection orderCheck(Stream stream, LogEntry entry) {
        if (stream.newestNanos == Long.MIN_VALUE) {
            return null;
        }
        long ts = entry.timestampNanos();
        if (config.limits().unorderedWrites()) {
            long oldest = stream.newestNanos - config.flush().maxChunkAge().toNanos() / 2;
            if (ts < oldest) {
                return new Rejection(RejectReason.TOO_FAR_BEHIND, String.format(
                        "entry with timestamp %s ignored, reason: 'entry too far behind, entry timestamp is: %s, oldest "
                                + "acceptable timestamp is: %s' for stream: %s", PushValidator.format(ts),
                        PushValidator.format(ts), PushValidator.format(oldest), stream.labelsString));
            }
        } else if (ts < stream.newestNanos) {
            return new Rejection(RejectReason.OUT_OF_ORDER, String.format(
                    "entry with timestamp %s ignored, reason: 'entry out of order' for stream: %s",
                    PushValidator.format(ts), stream.labelsString));
        }
        return null;
    }

    /** Appends an accepted entry to the stream's open chunk; caller holds {@code lock}. */
    private void append(Stream s, LogEntry entry, EntryKey key, long size, long segment, long now) {
        if (s.head != null && entry.timestampNanos() < s.cutBoundNanos) {
            closeHead(s, FlushReason.OUT_OF_ORDER);
        }
        if (s.head == null) {
            s.head = new MemChunk(config.chunk());
            s.headOpenedNanos = now;
            s.headMinSegment = segment;
            s.cutBoundNanos = Long.MIN_VALUE;
        }
        s.head.appendDeduplicated(entry, size);
        s.headMinSegment = Math.min(s.headMinSegment, segment);
        s.keys.add(0, key.timestampNanos(), key.lineHash());
        if (s.headKeyCount == s.headTimestamps.length) {
            s.headTimestamps = java.util.Arrays.copyOf(s.headTimestamps, s.headKeyCount * 2);
            s.headHashes = java.util.Arrays.copyOf(s.headHashes, s.headKeyCount * 2);
        }
        s.headTimestamps[s.headKeyCount] = key.timestampNanos();
        s.headHashes[s.headKeyCount] = key.lineHash();
        s.headKeyCount++;
        s.newestNanos = Math.max(s.newestNanos, entry.timestampNanos());
        s.headLastAppendNanos = now;
        if (s.head.headBytes() == 0) {
            s.cutBoundNanos = s.head.maxTimeNanos();
        }
        if (s.head.isFull()) {
            closeHead(s, FlushReason.FULL);
        }
    }

    /** Encodes the open chunk and queues it for flushing; caller holds {@code lock}. */
    private void closeHead(Stream s, FlushReason reason) {
        MemChunk chunk = s.head;
        byte[] bytes = chunk.encode();
        ChunkRef ref = new ChunkRef(s.tenant, s.labels.fingerprint(), chunk.minTimeNanos(), chunk.maxTimeNanos(),
                Chunk.checksum(bytes), bytes.length, chunk.entryCount());
        s.closed.add(new ClosedChunk(chunk, bytes, ref, reason, s.headMinSegment,
                java.util.Arrays.copyOf(s.headTimestamps, s.headKeyCount),
                java.util.Arrays.copyOf(s.headHashes, s.headKeyCount)));
        s.head = null;
        s.headTimestamps = new long[Stream.INITIAL_HEAD_KEYS];
        s.headHashes = new long[Stream.INITIAL_HEAD_KEYS];
        s.headKeyCount = 0;
    }

    private void removeEmptyStreams(TenantState state) {
        Iterator<Stream> it = state.streams.values().iterator();
        while (it.hasNext()) {
            Stream s = it.next();
            if (s.head == null && s.closed.isEmpty()) {
                it.remove();
                activeStreams.decrementAndGet();
            }
        }
    }

    private TenantState tenantState(String tenant) {
        lock.lock();
        try {
            return tenants.computeIfAbsent(tenant, t -> new TenantState(config.limits(), clock));
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- read side

    /**
     * Entries held in memory and not yet visible in {@link #index()} for streams matching all
     * {@code matchers}, in [fromNanos, throughNanos), sorted by time.
     *
     * <p>Read the index first, then call this on the same thread: a chunk whose ref reached the
     * index after that index read is still returned here (it was not in the index answer), and one
     * that was already in the index answer is not, so a flush running between the two calls neither
     * hides nor duplicates entries. A flushed chunk stays in memory for {@link #REMOVAL_GRACE_NANOS}
     * (at most one flush check period) after it entered the index (unless the flush was forced), so it cannot vanish from both inside
     * that gap.
     */
    public List<StreamSnapshot> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        List<StreamSnapshot> out = new ArrayList<>();
        Long seenEpoch = epochSeenByIndexRead.get();
        epochSeenByIndexRead.remove();
        long visibleUpTo = seenEpoch == null ? Long.MAX_VALUE : seenEpoch;
        lock.lock();
        try {
            TenantState state = tenants.get(tenant);
            if (state == null) {
                return out;
            }
            for (Stream s : state.streams.values()) {
                if (!matchesAll(matchers, s.labels)) {
                    continue;
                }
                List<LogEntry> entries = new ArrayList<>();
                for (ClosedChunk c : s.closed) {
                    if (!c.indexed || c.indexedEpoch > visibleUpTo) {
                        c.chunk.iterator(fromNanos, throughNanos, Direction.FORWARD).forEachRemaining(entries::add);
                    }
                }
                if (s.head != null) {
                    s.head.iterator(fromNanos, throughNanos, Direction.FORWARD).forEachRemaining(entries::add);
                }
                if (!entries.isEmpty()) {
                    entries.sort(Comparator.comparingLong(LogEntry::timestampNanos));
                    out.add(new StreamSnapshot(s.labels, entries));
                }
            }
        } finally {
            lock.unlock();
        }
        out.sort(Comparator.comparing(StreamSnapshot::labels));
        return out;
    }

    private static boolean matchesAll(List<LabelMatcher> matchers, Labels labels) {
        for (LabelMatcher m : matchers) {
            if (!m.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The index of everything flushed: the head index of this process plus the persisted index
     * files. Each lookup records, for the calling thread, which flushes it saw, so a following
     * {@link #unflushed} call on that thread returns exactly the in-memory data missing from it.
     */
    public IndexReader index() {
        return visibleIndex;
    }

    /** The combined index under the visibility read lock, recording the epoch each lookup saw. */
    private final class VisibleIndex implements IndexReader {
        private <T> T read(IndexRead<T> lookup) throws IOException {
            visibility.readLock().lock();
            try {
                epochSeenByIndexRead.set(indexEpoch);
                return lookup.run();
            } finally {
                visibility.readLock().unlock();
            }
        }

        @Override
        public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
                throws IOException {
            return read(() -> combinedIndex.chunks(tenant, matchers, fromNanos, throughNanos));
        }

        @Override
        public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
                throws IOException {
            return read(() -> combinedIndex.series(tenant, matchers, fromNanos, throughNanos));
        }

        @Override
        public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
                throws IOException {
            return read(() -> combinedIndex.labelNames(tenant, matchers, fromNanos, throughNanos));
        }

        @Override
        public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
                long throughNanos) throws IOException {
            return read(() -> combinedIndex.labelValues(tenant, name, matchers, fromNanos, throughNanos));
        }
    }

    @FunctionalInterface
    private interface IndexRead<T> {
        T run() throws IOException;
    }

    /** The series bloom store (reads persisted blooms). */
    public SeriesBloomStore blooms() {
        return bloomStore;
    }

    /** Registers a listener for accepted entries (live tailing). */
    public void addTailListener(TailListener listener) {
        tailListeners.add(Objects.requireNonNull(listener, "listener is null"));
    }

    /** Removes a listener added with {@link #addTailListener}. */
    public void removeTailListener(TailListener listener) {
        tailListeners.remove(listener);
    }

    // ---------------------------------------------------------------- flush

    /** Closes every open chunk and flushes all of them; on return they are stored, indexed and bloomed. */
    public void flushAll() throws IOException {
        ensureOpen();
        flushEverything(FlushReason.FORCED);
    }

    private void flushEverything(FlushReason reason) throws IOException {
        flushLock.lock();
        try {
            IOException last = null;
            for (int attempt = 0; attempt < FLUSH_ALL_ATTEMPTS; attempt++) {
                if (attempt > 0) {
                    sleep(backoffNanos(attempt));
                }
                last = flushCycle(reason, true);
                if (last == null) {
                    return;
                }
            }
            throw new IOException("flush failed after " + FLUSH_ALL_ATTEMPTS
                    + " attempts; data stays in memory and WAL: " + last.getMessage(), last);
        } finally {
            flushLock.unlock();
        }
    }

    private void flushLoopTick() {
        if (closed || !flushLock.tryLock()) {
            return;
        }
        try {
            IOException failure = flushCycle(null, false);
            if (failure != null) {
                LOG.warn("flush cycle incomplete, will retry: {}", failure.toString());
            }
        } catch (RuntimeException e) {
            LOG.error("flush cycle failed", e);
        } finally {
            flushLock.unlock();
        }
    }

    private void syncWal() {
        try {
            wal.sync();
        } catch (IOException e) {
            LOG.error("WAL fsync failed", e);
        }
    }

    /**
     * One flush cycle; {@code forceReason} non-null closes every open chunk with that reason. Returns
     * the first failure (the affected chunks stay queued) or null. Caller holds {@code flushLock}.
     */
    private IOException flushCycle(FlushReason forceReason, boolean ignoreBackoff) {
        long now = nowNanos();
        List<Work> work = new ArrayList<>();
        lock.lock();
        try {
            for (TenantState state : tenants.values()) {
                for (Stream s : state.streams.values()) {
                    if (s.head != null) {
                        FlushReason reason = forceReason != null ? forceReason
                                : flushPolicy.reason(s.head.isFull(), s.head.minTimeNanos(), s.head.maxTimeNanos(),
                                        s.headOpenedNanos, s.headLastAppendNanos, now);
                        if (reason != null) {
                            closeHead(s, reason);
                        }
                    }
                    for (ClosedChunk c : s.closed) {
                        if (ignoreBackoff || now >= c.nextAttemptNanos) {
                            work.add(new Work(s, c));
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        IOException failure = null;
        // 1. chunk objects
        for (Work w : work) {
            if (!w.chunk.stored) {
                long start = System.nanoTime();
                try {
                    store.put(w.chunk.ref.objectKey(), w.chunk.bytes);
                    w.chunk.stored = true;
                } catch (IOException e) {
                    failure = failed(w.chunk, now, e, failure);
                }
                w.chunk.flushNanos += System.nanoTime() - start;
            }
        }
        // 2. head index, then one index file per tenant for this cycle's newly stored chunks
        Map<String, Map<Labels, List<ChunkRef>>> toPersist = new HashMap<>();
        visibility.writeLock().lock();
        lock.lock();
        try {
            long epoch = ++indexEpoch;
            for (Work w : work) {
                if (w.chunk.stored && !w.chunk.indexed) {
                    head.add(w.stream.tenant, w.stream.labels, w.chunk.ref);
                    w.chunk.indexed = true;
                    w.chunk.indexedEpoch = epoch;
                    w.chunk.indexedAtNanos = System.nanoTime();
                }
            }
        } finally {
            lock.unlock();
            visibility.writeLock().unlock();
        }
        for (Work w : work) {
            if (w.chunk.indexed && !w.chunk.indexPersisted) {
                toPersist.computeIfAbsent(w.stream.tenant, t -> new LinkedHashMap<>())
                        .computeIfAbsent(w.stream.labels, l -> new ArrayList<>()).add(w.chunk.ref);
            }
        }
        for (Map.Entry<String, Map<Labels, List<ChunkRef>>> t : toPersist.entrySet()) {
            List<SeriesChunks> series = new ArrayList<>();
            t.getValue().forEach((labels, refs) -> series.add(new SeriesChunks(labels, refs)));
            try {
                indexWriter.write(t.getKey(), series);
                for (Work w : work) {
                    if (w.stream.tenant.equals(t.getKey()) && w.chunk.indexed) {
                        w.chunk.indexPersisted = true;
                    }
                }
            } catch (IOException e) {
                for (Work w : work) {
                    if (w.stream.tenant.equals(t.getKey()) && w.chunk.indexed && !w.chunk.indexPersisted) {
                        failure = failed(w.chunk, now, e, failure);
                    }
                }
            }
        }
        // 3. blooms
        Set<BloomKey> touched = new HashSet<>();
        Map<BloomKey, List<ClosedChunk>> waiting = new HashMap<>();
        for (Work w : work) {
            if (!w.chunk.stored || w.chunk.bloomed) {
                continue;
            }
            if (!config.tokenizer().enabled()) {
                w.chunk.bloomed = true;
                continue;
            }
            BloomKey key = new BloomKey(w.stream.tenant, w.stream.labels.fingerprint(),
                    SeriesBloom.periodNumber(w.chunk.ref.fromNanos()));
            long start = System.nanoTime();
            try {
                SeriesBloom bloom = bloomFor(key);
                boolean complete = addTokens(bloom.filter(), w.chunk);
                if (complete) {
                    Set<String> covered = new HashSet<>(bloom.coveredChunkKeys());
                    covered.add(w.chunk.ref.objectKey());
                    bloom = new SeriesBloom(bloom.filter(), covered, bloom.ngramEnabled(), bloom.ngramLength(),
                            bloom.ngramSkip(), bloom.wordTokens());
                    blooms.put(key, bloom);
                }
                touched.add(key);
                bloomTouched.put(key, System.nanoTime());
                waiting.computeIfAbsent(key, k -> new ArrayList<>()).add(w.chunk);
            } catch (IOException e) {
                failure = failed(w.chunk, now, e, failure);
            }
            w.chunk.flushNanos += System.nanoTime() - start;
        }
        touched.addAll(unpersistedBlooms);
        for (BloomKey key : touched) {
            SeriesBloom bloom = blooms.get(key);
            if (bloom == null) {
                continue;
            }
            try {
                bloomStore.store(key.tenant, key.fingerprint, key.period, bloom);
                unpersistedBlooms.remove(key);
                for (ClosedChunk c : waiting.getOrDefault(key, List.of())) {
                    c.bloomed = true;
                }
            } catch (IOException e) {
                unpersistedBlooms.add(key);
                for (ClosedChunk c : waiting.getOrDefault(key, List.of())) {
                    failure = failed(c, now, e, failure);
                }
            }
        }
        // 4. done chunks leave memory; WAL markers; checkpoint
        List<WalRecord.Flushed> markers = new ArrayList<>();
        lock.lock();
        try {
            for (Work w : work) {
                ClosedChunk c = w.chunk;
                boolean graceOver = forceReason != null || System.nanoTime() - c.indexedAtNanos >= removalGraceNanos;
                if (c.stored && c.indexPersisted && c.bloomed && graceOver && w.stream.closed.remove(c)) {
                    for (int i = 0; i < c.keyTimestamps.length; i++) {
                        w.stream.keys.remove(0, c.keyTimestamps[i], c.keyHashes[i]);
                        recentlyFlushed.add(w.stream.tenant, w.stream.labels.fingerprint(), c.keyTimestamps[i],
                                c.keyHashes[i], now);
                    }
                    markers.add(new WalRecord.Flushed(w.stream.tenant, w.stream.labelsString, c.keyTimestamps,
                            c.keyHashes));
                    metrics.flushed(c.reason, c.flushNanos / 1e9);
                }
            }
            for (TenantState state : tenants.values()) {
                removeEmptyStreams(state);
            }
            if (!markers.isEmpty()) {
                wal.appendAll(markers);
                long minSegment = Long.MAX_VALUE;
                for (TenantState state : tenants.values()) {
                    for (Stream s : state.streams.values()) {
                        if (s.head != null) {
                            minSegment = Math.min(minSegment, s.headMinSegment);
                        }
                        for (ClosedChunk c : s.closed) {
                            minSegment = Math.min(minSegment, c.minSegment);
                        }
                    }
                }
                // rotate when memory is empty (everything in the WAL is flushed) or the segment is big
                // enough that releasing it is worth a new file; otherwise keep appending to it
                if (minSegment == Long.MAX_VALUE || wal.currentSegmentBytes() >= CHECKPOINT_ROTATE_BYTES) {
                    wal.rotate();
                }
                wal.deleteSegmentsBefore(Math.min(minSegment, wal.currentSegment()));
            }
        } catch (IOException e) {
            failure = failure == null ? e : failure;
            LOG.warn("WAL checkpoint failed: {}", e.toString());
        } finally {
            lock.unlock();
        }
        pruneHeadIndex();
        evictBlooms(now);
        return failure;
    }

    /**
     * Drops the head index once every indexed chunk is in a persisted index file: the persisted
     * index then answers for all of them, so the head only ever holds refs awaiting their file.
     */
    private void pruneHeadIndex() {
        lock.lock();
        try {
            for (TenantState state : tenants.values()) {
                for (Stream s : state.streams.values()) {
                    for (ClosedChunk c : s.closed) {
                        if (c.indexed && !c.indexPersisted) {
                            return;
                        }
                    }
                }
            }
            head.removeChunksEndingBefore(Long.MAX_VALUE);
        } finally {
            lock.unlock();
        }
    }

    private IOException failed(ClosedChunk c, long now, IOException e, IOException first) {
        c.attempts++;
        c.nextAttemptNanos = now + backoffNanos(c.attempts);
        LOG.warn("flush of chunk {} failed (attempt {}): {}", c.ref.objectKey(), c.attempts, e.toString());
        return first == null ? e : first;
    }

    private long backoffNanos(int attempts) {
        long min = config.flush().minRetryBackoff().toNanos();
        long max = config.flush().maxRetryBackoff().toNanos();
        int shift = Math.min(30, Math.max(0, attempts - 1));
        long delay = min << shift;
        return delay <= 0 || delay > max ? max : delay;
    }

    private SeriesBloom bloomFor(BloomKey key) throws IOException {
        SeriesBloom bloom = blooms.get(key);
        if (bloom != null) {
            return bloom;
        }
        BloomTokenizerConfig t = config.tokenizer();
        try {
            var stored = bloomStore.load(key.tenant, key.fingerprint, key.period);
            if (stored.isPresent() && stored.get().ngramEnabled() == t.ngramEnabled()
                    && stored.get().ngramLength() == t.ngramLength() && stored.get().ngramSkip() == t.ngramSkip()
                    && stored.get().wordTokens() == t.wordTokensEnabled()) {
                bloom = stored.get();
            }
        } catch (BloomFormatException e) {
            LOG.warn("series bloom {} is unreadable, starting a new one: {}", key, e.getMessage());
        }
        if (bloom == null) {
            bloom = new SeriesBloom(ScalableBloomFilter.create(config.bloom()), Set.of(), t.ngramEnabled(),
                    t.ngramLength(), t.ngramSkip(), t.wordTokensEnabled());
        }
        blooms.put(key, bloom);
        return bloom;
    }

    /** Adds all tokens of the chunk; false when the filter refused one (the chunk is then not covered). */
    private boolean addTokens(ScalableBloomFilter filter, ClosedChunk c) {
        boolean[] complete = {true};
        BloomTokenizer.ChunkTokens tokens = tokenizer.chunk(c.ref.objectKey(), hash -> {
            if (complete[0] && filter.add(hash) == AddResult.FULL) {
                complete[0] = false;
            }
        });
        Iterator<LogEntry> entries = c.chunk.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD);
        while (entries.hasNext() && complete[0]) {
            LogEntry entry = entries.next();
            for (Label field : entry.metadata()) {
                tokens.metadata(field.name(), field.value());
            }
            tokens.line(entry.line());
        }
        return complete[0];
    }

    /**
     * Bounds the blooms kept in memory: persisted blooms of past periods go at once, and while the
     * rest exceed {@link #MAX_BLOOM_MEMORY_BYTES} the least recently touched persisted ones go too
     * (a later flush of that series reloads its bloom from the store).
     */
    private void evictBlooms(long now) {
        long keepFrom = SeriesBloom.periodNumber(now) - 1;
        blooms.keySet().removeIf(k -> k.period < keepFrom && !unpersistedBlooms.contains(k));
        long total = 0;
        for (SeriesBloom b : blooms.values()) {
            total += b.filter().stats().sizeBytes();
        }
        if (total <= MAX_BLOOM_MEMORY_BYTES) {
            bloomTouched.keySet().retainAll(blooms.keySet());
            return;
        }
        List<BloomKey> oldestFirst = new ArrayList<>(blooms.keySet());
        oldestFirst.sort(Comparator.comparingLong(k -> bloomTouched.getOrDefault(k, Long.MIN_VALUE)));
        for (BloomKey k : oldestFirst) {
            if (total <= MAX_BLOOM_MEMORY_BYTES) {
                break;
            }
            if (!unpersistedBlooms.contains(k)) {
                SeriesBloom removed = blooms.remove(k);
                total -= removed.filter().stats().sizeBytes();
            }
        }
        bloomTouched.keySet().retainAll(blooms.keySet());
    }

    // ---------------------------------------------------------------- lifecycle

    /** Flushes everything (or leaves it in the WAL when the store fails), stops the loops, closes the WAL. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            flushEverything(FlushReason.SHUTDOWN);
        } catch (IOException e) {
            LOG.warn("shutdown flush incomplete, unflushed data stays in the WAL: {}", e.getMessage());
        } finally {
            lock.lock();
            try {
                closed = true;
                wal.close();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Stops at once without flushing, as a crash would: the loops stop and the WAL is closed, so a
     * new ingester on the same WAL directory replays everything that was acknowledged.
     */
    void halt() throws IOException {
        scheduler.shutdownNow();
        lock.lock();
        try {
            closed = true;
            wal.close();
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("ingester is closed");
        }
    }

    private long nowNanos() {
        java.time.Instant t = clock.instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static void sleep(long nanos) throws IOException {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to retry a flush", e);
        }
    }

    /** Raw size as Loki counts it for rate limits and as {@link MemChunk#rawSize} does: UTF-8 of line and metadata. */
    private static long entrySize(LogEntry entry, int lineBytes) {
        long size = lineBytes;
        for (Label l : entry.metadata()) {
            size += PushValidator.utf8Length(l.name()) + PushValidator.utf8Length(l.value());
        }
        return size;
    }

    /** Sorted selector form of possibly-invalid pairs (duplicates kept), as Loki quotes streams. */
    private static String canonical(List<Label> pairs) {
        List<Label> sorted = new ArrayList<>(pairs);
        sorted.sort(null);
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(sorted.get(i).name()).append("=\"");
            LabelsParser.appendEscaped(sb, sorted.get(i).value());
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    // ---------------------------------------------------------------- replay

    /** Collects WAL records, drops flushed entries, then rebuilds streams (bypassing limits: they were accepted). */
    private final class Replay {
        private final Map<String, Map<String, LinkedHashMap<ReplayKey, LogEntry>>> data = new LinkedHashMap<>();
        private long records;

        void accept(WalRecord record) {
            records++;
            if (record instanceof WalRecord.Entries e) {
                var byStream = data.computeIfAbsent(e.tenant(), t -> new LinkedHashMap<>());
                for (WalRecord.StreamEntries s : e.streams()) {
                    var entries = byStream.computeIfAbsent(s.labels(), l -> new LinkedHashMap<>());
                    for (LogEntry entry : s.entries()) {
                        entries.putIfAbsent(new ReplayKey(entry.timestampNanos(), LINE_HASH.hashChars(entry.line())), entry);
                    }
                }
            } else if (record instanceof WalRecord.Flushed f) {
                var byStream = data.get(f.tenant());
                var entries = byStream == null ? null : byStream.get(f.labels());
                if (entries != null) {
                    for (int i = 0; i < f.timestamps().length; i++) {
                        entries.remove(new ReplayKey(f.timestamps()[i], f.lineHashes()[i]));
                    }
                }
            }
        }

        void apply() throws IOException {
            if (data.isEmpty()) {
                return;
            }
            List<Long> segments = Wal.segmentIds(config.wal().directory());
            long firstSegment = segments.isEmpty() ? 0 : segments.get(0);
            long now = nowNanos();
            long entries = 0;
            lock.lock();
            try {
                for (var t : data.entrySet()) {
                    TenantState state = tenants.computeIfAbsent(t.getKey(), k -> new TenantState(config.limits(), clock));
                    for (var s : t.getValue().entrySet()) {
                        if (s.getValue().isEmpty()) {
                            continue;
                        }
                        Labels labels;
                        try {
                            labels = Labels.of(LabelsParser.parse(s.getKey()));
                        } catch (IllegalArgumentException e) {
                            throw new WalCorruptionException("WAL holds invalid stream labels " + s.getKey() + ": "
                                    + e.getMessage());
                        }
                        Stream stream = state.streams.get(labels);
                        if (stream == null) {
                            stream = new Stream(t.getKey(), labels);
                            state.streams.put(labels, stream);
                            activeStreams.incrementAndGet();
                        }
                        List<LogEntry> sorted = new ArrayList<>(s.getValue().values());
                        sorted.sort(Comparator.comparingLong(LogEntry::timestampNanos));
                        for (LogEntry entry : sorted) {
                            EntryKey key = EntryKey.of(entry);
                            if (!stream.keys.contains(0, key.timestampNanos(), key.lineHash())) {
                                append(stream, entry, key, entrySize(entry, PushValidator.utf8Length(entry.line())),
                                        firstSegment, now);
                                entries++;
                            }
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
            LOG.info("replayed {} WAL records: {} entries in memory", records, entries);
        }
    }

    // ---------------------------------------------------------------- state

    /**
     * Identity of an entry for duplicate detection: timestamp and XXH3 of the line. Hashing keeps the
     * line strings out of the key set, so cut (compressed) blocks do not stay in memory as text; two
     * distinct lines of one stream with the same timestamp collide with probability 2^-64.
     */
    private record EntryKey(long timestampNanos, long lineHash) {
        static EntryKey of(LogEntry entry) {
            return new EntryKey(entry.timestampNanos(), LINE_HASH.hashChars(entry.line()));
        }
    }

    private record ReplayKey(long timestampNanos, long lineHash) {}

    private record BloomKey(String tenant, long fingerprint, long period) {}

    private record Work(Stream stream, ClosedChunk chunk) {}

    /** A valid entry of a push with what the push computes once for it: size, dedupe key, WAL bytes. */
    private static final class Prepared {
        final LogEntry entry;
        final long size;
        EntryKey key;
        int walStart;
        int walEnd;

        Prepared(LogEntry entry, long size) {
            this.entry = entry;
            this.size = size;
        }
    }

    /** The valid entries of one stream of a push; confined to the pushing thread. */
    private static final class Candidate {
        final Labels labels;
        final String shown;
        final List<Prepared> entries = new ArrayList<>();
        /** {@link #entries} sorted by time (stably) without repeats of an earlier (timestamp, line) of this push. */
        List<Prepared> unique = List.of();

        Candidate(Labels labels, String shown) {
            this.labels = labels;
            this.shown = shown;
        }

        /** Sorts, hashes, drops in-push duplicates and encodes each remaining entry's WAL bytes into {@code out}. */
        void prepare(WalCodec.Buffer out) {
            if (entries.isEmpty()) {
                return;
            }
            List<Prepared> sorted = new ArrayList<>(entries);
            sorted.sort(BY_TIME);
            List<Prepared> kept = new ArrayList<>(sorted.size());
            int runStart = 0; // first kept entry with the current timestamp: only those can be repeated
            Set<EntryKey> longRun = null; // the run's keys once it outgrows a linear scan
            for (Prepared p : sorted) {
                p.key = EntryKey.of(p.entry);
                if (runStart < kept.size() && kept.get(runStart).key.timestampNanos() != p.key.timestampNanos()) {
                    runStart = kept.size();
                    longRun = null;
                }
                if (longRun == null && kept.size() - runStart > MAX_LINEAR_RUN) {
                    longRun = new HashSet<>();
                    for (int i = runStart; i < kept.size(); i++) {
                        longRun.add(kept.get(i).key);
                    }
                }
                if (longRun != null ? !longRun.add(p.key) : isRepeat(kept, runStart, p.key)) {
                    continue;
                }
                p.walStart = out.size();
                WalCodec.writeEntry(out, p.entry);
                p.walEnd = out.size();
                kept.add(p);
            }
            unique = kept;
        }

        /** Whether {@code key} is among {@code kept[from..]}, a run of equal timestamps (short in practice). */
        private static boolean isRepeat(List<Prepared> kept, int from, EntryKey key) {
            for (int i = kept.size() - 1; i >= from; i--) {
                if (kept.get(i).key.equals(key)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Entries of one push sharing a timestamp are compared pairwise up to this many, then through a hash set. */
    private static final int MAX_LINEAR_RUN = 16;
    private static final Comparator<Prepared> BY_TIME = Comparator.comparingLong(p -> p.entry.timestampNanos());

    /** Per-tenant state; the stream map is guarded by the ingester's {@code lock}, the limiters are thread-safe. */
    private static final class TenantState {
        final Map<Labels, Stream> streams = new HashMap<>();
        final IngestionRateLimiter rate;
        final SeriesLimiter hourly;
        final SeriesLimiter daily;

        TenantState(LimitsConfig limits, Clock clock) {
            rate = new IngestionRateLimiter(clock, limits.ingestionRateBytesPerSecond(), limits.ingestionBurstBytes());
            hourly = limits.maxNewSeriesPerHour() > 0
                    ? new SeriesLimiter(limits.maxNewSeriesPerHour(), Duration.ofHours(1), clock) : null;
            daily = limits.maxNewSeriesPerDay() > 0
                    ? new SeriesLimiter(limits.maxNewSeriesPerDay(), Duration.ofDays(1), clock) : null;
        }
    }

    /** One stream in memory; every field guarded by the ingester's {@code lock}. */
    private static final class Stream {
        final String tenant;
        final Labels labels;
        final String labelsString;
        static final int INITIAL_HEAD_KEYS = 64;
        /** Dedupe identities (stream id 0, timestamp, line hash) of every entry in memory. */
        final EntryKeySet keys = new EntryKeySet();
        /** Identities of the open chunk's entries, handed to its {@link ClosedChunk} so removal needs no decoding. */
        long[] headTimestamps = new long[INITIAL_HEAD_KEYS];
        long[] headHashes = new long[INITIAL_HEAD_KEYS];
        int headKeyCount;
        final List<ClosedChunk> closed = new ArrayList<>();
        MemChunk head;
        long headOpenedNanos;
        long headLastAppendNanos;
        long headMinSegment;
        long cutBoundNanos = Long.MIN_VALUE;
        /** Newest timestamp ever appended; {@link #keys} holds none above it (the dedupe probe relies on it). */
        long newestNanos = Long.MIN_VALUE;

        Stream(String tenant, Labels labels) {
            this.tenant = tenant;
            this.labels = labels;
            this.labelsString = labels.toString();
        }
    }

    /** A closed chunk on its way to storage; the progress flags are written by the flush cycle only. */
    private static final class ClosedChunk {
        final MemChunk chunk;
        final byte[] bytes;
        final ChunkRef ref;
        final FlushReason reason;
        final long minSegment;
        /** Dedupe identities of the chunk's entries, in append order (also its WAL {@code Flushed} marker). */
        final long[] keyTimestamps;
        final long[] keyHashes;
        boolean stored;
        boolean indexed;
        long indexedEpoch;
        long indexedAtNanos;
        boolean indexPersisted;
        boolean bloomed;
        int attempts;
        long nextAttemptNanos;
        long flushNanos;

        ClosedChunk(MemChunk chunk, byte[] bytes, ChunkRef ref, FlushReason reason, long minSegment,
                long[] keyTimestamps, long[] keyHashes) {
            this.keyTimestamps = keyTimestamps;
            this.keyHashes = keyHashes;
            this.chunk = chunk;
            this.bytes = bytes;
            this.ref = ref;
            this.reason = reason;
            this.minSegment = minSegment;
        }
    }

    /** Rejections of one push, with per-reason counts for the metric. */
    private static final class Errors {
        final List<String> messages = new ArrayList<>();
        final Map<RejectReason, Long> counts = new HashMap<>();
        int rejected;
        int dropped;
        boolean rateLimited;

        void reject(Rejection r, int entries) {
            reject(r.reason(), r.message(), entries);
        }

        void reject(RejectReason reason, String message, int entries) {
            if (entries <= 0) {
                return;
            }
            rejected += entries;
            counts.merge(reason, (long) entries, Long::sum);
            if (messages.size() < MAX_ERRORS_PER_PUSH) {
                messages.add(message);
            } else {
                dropped++;
            }
        }

        PushResult result(int accepted, IngestMetrics metrics) {
            counts.forEach(metrics::rejected);
            List<String> out = new ArrayList<>(messages);
            if (dropped > 0) {
                out.add("... and " + dropped + " more errors");
            }
            return new PushResult(accepted, rejected, out, rateLimited);
        }
    }
}
