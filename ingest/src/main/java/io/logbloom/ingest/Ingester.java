package io.logbloom.ingest;

import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import io.logbloom.index.HeadIndex;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexReader;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.tokens.BloomTokenizer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path's facade: wires the roles and keeps the API the HTTP routes and the querier use.
 *
 * <p><b>Push.</b> {@link PushAdmission} validates labels and entries (Loki's rules and messages) and
 * charges the tenant's token bucket for the valid bytes (all-or-nothing, 429 when refused); outside
 * any lock each stream's entries are sorted, hashed, deduplicated within the push and WAL-encoded
 * ({@link PushCandidate}); then the {@link StreamStore}, under its lock, applies the new-stream limits,
 * drops entries already in memory or flushed in the last ten minutes (a client retry after a flush
 * does not store twice), checks the out-of-order window, writes one WAL record and appends to memory.
 * After that lock is released the push waits until its WAL record is forced to disk (per request by
 * default; concurrent pushes share one fsync, a group commit). A push returns only once its entries are
 * durable in the WAL, so an acknowledged entry survives {@code kill -9}.
 *
 * <p><b>Flush.</b> {@link ChunkFlusher} runs every flush check period (and on {@link #flushAll}):
 * chunk objects, index, series blooms ({@link SeriesBloomWriter}), then release from memory and WAL.
 * <b>Replay.</b> {@link WalReplay} rebuilds the stream store from the WAL when the ingester opens.
 * <b>Reads.</b> {@link #index()} ({@link VisibleIndex}) then {@link #unflushed} on the same thread see
 * every entry exactly once while flushes run.
 *
 * <p>Thread-safe: every public method may be called from any thread; see each role for its locks.
 */
public final class Ingester implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingester.class);

    private final IngestConfig config;
    private final Clock clock;
    private final PushAdmission admission;
    private final StreamStore streams;
    private final VisibleIndex visibleIndex;
    private final SeriesBloomStore bloomStore;
    private final SeriesBloomWriter bloomWriter;
    private final IngestMetrics metrics;
    private final Wal wal;
    private final ChunkFlusher flusher;
    private final List<TailListener> tailListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService scheduler;
    private final IngesterHealth health = new IngesterHealth();
    private final long maxMemoryBytes;
    /** Whether a memory-relief task is scheduled, so a push flood schedules one at a time. */
    private final AtomicBoolean reliefScheduled = new AtomicBoolean();

    /** Opens the WAL (replaying it into memory), registers metrics and starts the flush loop. */
    public Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry)
            throws IOException {
        this.config = Objects.requireNonNull(config, "config is null");
        Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        Objects.requireNonNull(registry, "registry is null");
        this.admission = new PushAdmission(config.limits(), config.flush().maxChunkAge(), clock);
        this.streams = new StreamStore(config.chunk());
        PersistedIndex persisted = new PersistedIndex(store, config.index(), new IndexFileCache(store, config.index()));
        this.visibleIndex = new VisibleIndex(new HeadIndex(), persisted);
        IndexWriter indexWriter = new IndexWriter(store, config.index(), clock, "ingester-"
                + Long.toHexString(EntryKey.LINE_HASH.hashLong(System.nanoTime() ^ System.identityHashCode(this))));
        this.bloomStore = new SeriesBloomStore(store);
        this.maxMemoryBytes = config.budget().maxMemoryBytes();
        this.bloomWriter = new SeriesBloomWriter(new BloomTokenizer(config.tokenizer()), config.bloom(), bloomStore,
                Math.min(SeriesBloomWriter.MAX_BLOOM_MEMORY_BYTES, maxMemoryBytes / 4));
        WalReplay replay = new WalReplay();
        this.wal = Wal.open(config.wal(), replay::accept);
        try {
            replay.apply(streams, config.wal().directory(), nowNanos());
            this.metrics = new IngestMetrics(registry, new IngestMetrics.Gauges() {
                @Override
                public double activeStreams() {
                    return streams.activeStreams();
                }

                @Override
                public double walBytes() {
                    return wal.sizeBytes();
                }

                @Override
                public double walCorruptions() {
                    return wal.corruptions();
                }

                @Override
                public double walWriteFailures() {
                    return wal.refusedWritesTotal();
                }

                @Override
                public double[] bloomTotals() {
                    return bloomWriter.totals();
                }

                @Override
                public double memoryBytes() {
                    return Ingester.this.memoryBytes();
                }

                @Override
                public double fatal(FatalReason reason) {
                    return health.has(reason) ? 1 : 0;
                }
            });
        } catch (IOException | RuntimeException e) {
            wal.close();
            throw e;
        }
        this.flusher = new ChunkFlusher(config.flush(), streams, visibleIndex, indexWriter, bloomWriter, store, wal,
                clock, metrics, health, config.budget().flushRetryBudget());
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

    /**
     * Validates, limits, logs (WAL) and stores the streams of one push; see the class comment.
     *
     * @throws MemoryBudgetExceededException when unflushed data is over {@code ingester.max_memory} (nothing stored)
     * @throws IngesterFailedException after a fatal failure, or when this push's WAL write fails (nothing acknowledged)
     */
    public PushResult push(String tenant, List<PushStream> pushStreams) throws IOException {
        TenantIds.validate(tenant);
        streams.ensureOpen();
        Optional<String> failure = health.message();
        if (failure.isPresent()) {
            throw new IngesterFailedException(failure.get(), null);
        }
        long held = memoryBytes();
        if (held > maxMemoryBytes) {
            metrics.memoryLimited();
            scheduleRelief();
            long retryAfter = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(flusher.removalGraceNanos() + 999_999_999L));
            throw new MemoryBudgetExceededException(String.format("Ingester memory limit exceeded (limit: %d bytes, "
                    + "ingester.max_memory) while holding %d bytes of unflushed data; the largest streams are being "
                    + "flushed, retry after %d s, reduce the push rate or contact your Loki administrator to see if "
                    + "the limit can be increased", maxMemoryBytes, held, retryAfter), retryAfter);
        }
        try {
            return store(tenant, pushStreams);
        } catch (OutOfMemoryError e) {
            health.fail(FatalReason.OUT_OF_MEMORY, "out of memory in a push: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        }
    }

    private PushResult store(String tenant, List<PushStream> pushStreams) throws IOException {
        long now = nowNanos();
        PushErrors errors = new PushErrors();
        PushAdmission.Admitted admitted = admission.admit(tenant, pushStreams, now, errors);
        if (errors.rateLimited()) {
            return errors.result(0, metrics);
        }
        // Outside the lock: sort, hash, drop duplicates within the push and WAL-encode each entry once.
        // Sized for the common case (WAL bytes = raw bytes plus 12 per entry and 8 per metadata pair) so it never grows.
        WalCodec.Buffer encoded = new WalCodec.Buffer((int) Math.min(Integer.MAX_VALUE - 16,
                admitted.validBytes() + admitted.validLines() * 32L + 64));
        for (PushCandidate c : admitted.candidates()) {
            c.prepare(encoded);
        }
        StreamStore.Stored stored;
        try {
            stored = streams.accept(tenant, admitted.candidates(), encoded, admission, errors, wal, now);
            if (stored.walPosition() != null && config.wal().fsync() == WalConfig.FsyncPolicy.PER_REQUEST) {
                wal.syncTo(stored.walPosition().sequence());
            }
        } catch (WalWriteException e) {
            if (e.outOfSpace()) {
                throw e; // refused before anything was stored: 507, and pushes resume once space returns
            }
            health.fail(FatalReason.WAL, "WAL write failed: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        } catch (IOException e) {
            health.fail(FatalReason.WAL, "WAL write failed: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        }
        metrics.accepted(stored.storedLines(), stored.acceptedBytes());
        for (Map.Entry<io.logbloom.chunks.Labels, List<io.logbloom.chunks.LogEntry>> e : stored.entries().entrySet()) {
            for (TailListener listener : tailListeners) {
                try {
                    listener.onEntries(tenant, e.getKey(), e.getValue());
                } catch (RuntimeException ex) {
                    LOG.warn("tail listener {} failed: {}", listener, ex.toString());
                }
            }
        }
        return errors.result(stored.acceptedCount(), metrics);
    }

    /** Estimated heap bytes held for unflushed data (stream store and in-memory blooms), as {@code ingester.max_memory} counts them. */
    public long memoryBytes() {
        return streams.memoryBytes() + bloomWriter.memoryBytes();
    }

    /**
     * Why the ingester refuses pushes after a fatal failure (see {@link FatalReason}), or empty while
     * it can persist what it acknowledges; {@code /ready} answers 503 with this message.
     */
    public Optional<String> failure() {
        return health.message();
    }

    /**
     * Entries held in memory and not yet visible in {@link #index()} for streams matching all
     * {@code matchers}, in [fromNanos, throughNanos), sorted by time.
     *
     * <p>Read the index first, then call this on the same thread: a chunk whose ref reached the
     * index after that index read is still returned here (it was not in the index answer), and one
     * that was already in the index answer is not, so a flush running between the two calls neither
     * hides nor duplicates entries. A flushed chunk stays in memory for a grace period (at most one
     * flush check period) after it entered the index (unless the flush was forced), so it cannot
     * vanish from both inside that gap.
     */
    public List<StreamSnapshot> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        return streams.unflushed(tenant, matchers, fromNanos, throughNanos, visibleIndex.takeSeenEpoch());
    }

    /**
     * The index of everything flushed: the head index of this process plus the persisted index
     * files. Each lookup records, for the calling thread, which flushes it saw, so a following
     * {@link #unflushed} call on that thread returns exactly the in-memory data missing from it.
     */
    public IndexReader index() {
        return visibleIndex;
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

    /** Closes every open chunk and flushes all of them; on return they are stored, indexed and bloomed. */
    public void flushAll() throws IOException {
        streams.ensureOpen();
        flusher.flushEverything(FlushReason.FORCED);
    }

    private void flushLoopTick() {
        if (streams.isClosed()) {
            return;
        }
        inBackground("flush", () -> {
            IOException failure = flusher.tick();
            if (failure != null) {
                LOG.warn("flush cycle incomplete, will retry: {}", failure.toString());
            }
        });
    }

    /** Schedules one memory-relief task unless one is pending; it repeats while memory stays over budget. */
    private void scheduleRelief() {
        if (reliefScheduled.compareAndSet(false, true)) {
            try {
                scheduler.execute(this::relieveMemory);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                reliefScheduled.set(false);
            }
        }
    }

    /**
     * Closes the largest streams' chunks down to three quarters of the budget and flushes them;
     * while memory stays over the budget (flushed chunks leave memory after their grace period) it
     * runs again a little later.
     */
    private void relieveMemory() {
        if (streams.isClosed()) {
            reliefScheduled.set(false);
            return;
        }
        inBackground("memory relief", () -> {
            IOException failure = flusher.relieve(maxMemoryBytes / 4 * 3 - bloomWriter.memoryBytes());
            if (failure != null) {
                LOG.warn("memory relief flush incomplete, will retry: {}", failure.toString());
            }
        });
        if (memoryBytes() > maxMemoryBytes && !health.isFailed() && !streams.isClosed()) {
            try {
                scheduler.schedule(this::relieveMemory, RELIEF_RETRY_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // shutting down: the shutdown flush takes over
            }
        }
        reliefScheduled.set(false);
    }

    /** Delay between relief rounds while flushed chunks wait out their grace period. */
    private static final long RELIEF_RETRY_MILLIS = 250;

    private void syncWal() {
        inBackground("WAL fsync", () -> {
            try {
                wal.sync();
            } catch (IOException e) {
                health.fail(FatalReason.WAL, "WAL fsync failed: " + e.getMessage(), e);
            }
        });
    }

    /** Runs a background task; an OutOfMemoryError or unexpected exception makes the ingester fail (503). */
    private void inBackground(String task, Runnable body) {
        try {
            body.run();
        } catch (OutOfMemoryError e) {
            health.fail(FatalReason.OUT_OF_MEMORY, "out of memory in the " + task + " thread", e);
        } catch (RuntimeException e) {
            health.fail(FatalReason.INTERNAL, task + " failed: " + e, e);
        }
    }

    /** Flushes everything (or leaves it in the WAL when the store fails), stops the loops, closes the WAL. */
    @Override
    public void close() throws IOException {
        if (streams.isClosed()) {
            return;
        }
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            flusher.flushEverything(FlushReason.SHUTDOWN);
        } catch (IOException e) {
            LOG.warn("shutdown flush incomplete, unflushed data stays in the WAL: {}", e.getMessage());
        } finally {
            streams.close(wal::close);
        }
    }

    /**
     * Stops at once without flushing, as a crash would: the loops stop and the WAL is closed, so a
     * new ingester on the same WAL directory replays everything that was acknowledged.
     */
    void halt() throws IOException {
        scheduler.shutdownNow();
        streams.close(wal::close);
    }

    private long nowNanos() {
        java.time.Instant t = clock.instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
