package io.logbloom.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a tenant's parts are merged into objects in the store, on the merge thread. Every {@code flush_check_period}
 * (and at once when a seal brings a tenant's parts to {@code merge_min_bytes}, or a push is refused for the backlog) a
 * check merges each tenant whose parts are due: by size, by the age of the oldest ({@code max_chunk_age}) or because
 * no part came for {@code chunk_idle_period}. A merge due by size waits while a push burst fills the buffers faster
 * than they seal ({@link #burstDefers}): on a small machine it would take a core from the pushes. {@link
 * #mergeEverything} (a {@code /flush}, shutdown) merges every part, retrying a failing store; a store that keeps
 * failing past {@code ingester.flush_retry_budget} turns the ingester fatal ({@link FatalReason#OBJECT_STORE}) until
 * a merge with work succeeds again.
 *
 * <p>Thread-safe: merges run one at a time under one lock, which also guards the series blooms' eviction and the
 * retry budget's state.
 */
final class MergeScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(MergeScheduler.class);

    /** Attempts {@link #mergeEverything} makes for a failing merge before it reports the failure. */
    static final int FLUSH_ALL_ATTEMPTS = 5;
    /** A burst counts as going on this many seal intervals after a push last saw the buffers over their size. */
    private static final int BURST_SEAL_INTERVALS = 2;
    /** Parts deferred for a burst merge anyway once they hold this share of {@code max_unmerged_bytes}. */
    private static final int BURST_SHARE_OF_UNMERGED = 8;
    private static final long NOT_FAILING = Long.MIN_VALUE;

    /** Seals the buffers into parts; the first step of {@link #mergeEverything}. */
    @FunctionalInterface
    interface Sealing {
        void seal() throws IOException;
    }

    private final IngestConfig config;
    private final LocalParts parts;
    private final PartMerger merger;
    private final StreamWriter writer;
    private final SeriesBloomWriter bloomWriter;
    private final IngestMetrics metrics;
    private final IngesterHealth health;
    /** The clock's time in nanoseconds since the epoch (the ingester's). */
    private final LongSupplier clockNanos;
    private final ScheduledExecutorService thread;
    private final ReentrantLock lock = new ReentrantLock();
    /** Whether a check is scheduled ahead of the loop's period, so seals ask for one at a time. */
    private final AtomicBoolean checkScheduled = new AtomicBoolean();
    /** Clock time of the first failed merge since the last successful one, or {@code NOT_FAILING}; guarded by {@code lock}. */
    private long failingSinceNanos = NOT_FAILING;
    /** Whether the last merge with work failed: a refused push is told to wait a check period, not a second. */
    private volatile boolean failing;
    /** Clock time each part was first seen by a check (parts' age and a tenant's idleness); merge thread only. */
    private final Map<Path, Long> firstSeen = new HashMap<>();
    /** Clock time a push last left the buffers over their early-seal size: a burst they cannot absorb by the interval. */
    private volatile long burstSeenNanos = Long.MIN_VALUE / 4;

    /**
     * Checks on {@code thread} (see {@link #start}); after each check, idle streams are expired from {@code writer}
     * and the series blooms of {@code bloomWriter} evicted.
     */
    MergeScheduler(IngestConfig config, LocalParts parts, PartMerger merger, StreamWriter writer,
            SeriesBloomWriter bloomWriter, IngestMetrics metrics, IngesterHealth health, LongSupplier clockNanos,
            ScheduledExecutorService thread) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.parts = Objects.requireNonNull(parts, "parts is null");
        this.merger = Objects.requireNonNull(merger, "merger is null");
        this.writer = Objects.requireNonNull(writer, "writer is null");
        this.bloomWriter = Objects.requireNonNull(bloomWriter, "bloomWriter is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.health = Objects.requireNonNull(health, "health is null");
        this.clockNanos = Objects.requireNonNull(clockNanos, "clockNanos is null");
        this.thread = Objects.requireNonNull(thread, "thread is null");
    }

    /** Starts the periodic check, every {@code flush_check_period}. */
    void start() {
        long period = config.flush().flushCheckPeriod().toMillis();
        thread.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    /** Runs a check on the merge thread now unless one asked for this way is pending. */
    void checkSoon() {
        BackgroundTasks.runAheadOnce(thread, checkScheduled, this::check);
    }

    /**
     * Asks for a check now when some tenant's mergeable parts reached {@code merge_min_bytes} while no push burst goes
     * on, instead of leaving them to the loop's next period ({@code flush_check_period}, 10 s by default); called after
     * each seal. During a burst the loop's checks alone merge them once they hold an eighth of {@code
     * max_unmerged_bytes} (asked for at each seal from there on, a merge ran beside every long push: the bar's 3
     * M-line push went at 26.5 against 34.5 MB/s, with more CPU over push and flush, 35.4 against 30.7 s), and a
     * push refused for the backlog asks for one.
     */
    void checkSoonIfDueBySize() {
        if (burstGoingOn(clockNanos.getAsLong())) {
            return;
        }
        for (String tenant : parts.tenants()) {
            long bytes = 0;
            for (LocalParts.Part p : merger.mergeable(tenant)) {
                bytes += p.sizeBytes();
            }
            if (bytes >= config.flush().mergeMinBytes()) {
                checkSoon();
                return;
            }
        }
    }

    /** Notes that a push left the buffers over their early-seal size: merges due by size wait (see the class comment). */
    void burstSeen() {
        burstSeenNanos = clockNanos.getAsLong();
    }

    /** Whether the last merge with work failed. */
    boolean failing() {
        return failing;
    }

    /**
     * Seals with {@code sealing} and merges every part into the store, retrying a failing merge up to {@link
     * #FLUSH_ALL_ATTEMPTS} times with backoff; on return everything sealed is stored, indexed and bloomed.
     *
     * @throws IOException when the store keeps failing; the data stays in parts and the WAL
     */
    void mergeEverything(FlushReason reason, Sealing sealing) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < FLUSH_ALL_ATTEMPTS; attempt++) {
            if (attempt > 0) {
                sleep(backoffNanos(attempt));
            }
            try {
                sealing.seal();
                lock.lock();
                try {
                    for (String tenant : parts.tenants()) {
                        mergeReady(tenant, reason, merger.newestMergeable(tenant));
                    }
                    merger.deleteRetired(false); // parts of earlier merges whose queries have finished since
                    trackRetryBudget(null, true);
                } finally {
                    lock.unlock();
                }
                return;
            } catch (IOException e) {
                last = e;
                lock.lock();
                try {
                    trackRetryBudget(e, true);
                } finally {
                    lock.unlock();
                }
            }
        }
        throw new IOException("flush failed after " + FLUSH_ALL_ATTEMPTS
                + " attempts; data stays on local disk: " + last.getMessage(), last);
    }

    /** Stops the checks, waiting up to {@code timeout} for one running. */
    void stop(Duration timeout) {
        thread.shutdown();
        awaitStopped(timeout);
    }

    /** Stops the checks at once, interrupting one running, as a crash would (waiting up to {@code timeout}). */
    void halt(Duration timeout) {
        thread.shutdownNow();
        awaitStopped(timeout);
    }

    /** Deletes the files of merged parts, even those queries still hold (shutdown). */
    void deleteAllRetired() throws IOException {
        lock.lock();
        try {
            merger.deleteRetired(true);
        } finally {
            lock.unlock();
        }
    }

    private void awaitStopped(Duration timeout) {
        try {
            thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void check() {
        if (writer.isClosed()) {
            return;
        }
        boolean[] merged = {false};
        health.runGuarded("merge", () -> {
            if (!lock.tryLock()) {
                return;
            }
            try {
                checkLocked(merged);
            } catch (IOException e) {
                LOG.warn("deleting merged parts failed, will retry: {}", e.toString());
            } finally {
                lock.unlock();
            }
        });
        if (merged[0]) {
            // parts sealed while it merged may be due already: checked now, not a flush_check_period later, so a
            // sustained push is merged as fast as before, when each merge went on with them
            checkSoon();
        }
    }

    /** Merges every tenant whose parts are due, setting {@code merged[0]} once one succeeded; caller holds {@code lock}. */
    private void checkLocked(boolean[] merged) throws IOException {
        IOException failure = null;
        boolean hadWork = false;
        long now = clockNanos.getAsLong();
        for (String tenant : parts.tenants()) {
            List<LocalParts.Part> ready = merger.mergeable(tenant);
            if (ready.isEmpty()) {
                continue;
            }
            long oldest = Long.MAX_VALUE;
            long newest = Long.MIN_VALUE;
            long bytes = 0;
            long through = Long.MIN_VALUE;
            for (LocalParts.Part p : ready) {
                long seen = firstSeen.computeIfAbsent(p.file(), f -> now);
                oldest = Math.min(oldest, seen);
                newest = Math.max(newest, seen);
                bytes += p.sizeBytes();
                through = Math.max(through, p.sequence());
            }
            FlushReason reason = bytes >= config.flush().mergeMinBytes() ? FlushReason.FULL
                    : now - oldest >= config.flush().maxChunkAge().toNanos() ? FlushReason.MAX_AGE
                    : now - newest >= config.flush().chunkIdlePeriod().toNanos() ? FlushReason.IDLE
                    : null;
            if (reason == null) {
                continue;
            }
            if (reason == FlushReason.FULL && burstDefers(now, bytes)) {
                metrics.mergeDeferred();
                continue;
            }
            hadWork = true;
            try {
                mergeReady(tenant, reason, through);
                merged[0] = true;
            } catch (IOException e) {
                failure = failure == null ? e : failure;
                metrics.mergeFailed();
                LOG.warn("merging parts of tenant {} failed, will retry: {}", tenant, e.toString());
            }
        }
        firstSeen.keySet().retainAll(parts.tenants().stream().flatMap(t -> parts.parts(t).stream())
                .map(LocalParts.Part::file).toList());
        merger.deleteRetired(false);
        trackRetryBudget(failure, hadWork);
        writer.expireIdle(now, config.flush().chunkIdlePeriod().toNanos());
        bloomWriter.evict(now);
    }

    /**
     * Merges the mergeable parts of {@code tenant} sealed no later than {@code through} (those mergeable when the
     * caller looked), one object bounded in size per round, and deletes each round's parts as soon as no query holds
     * them; caller holds {@code lock}. Parts sealed meanwhile wait for the next check: chasing them, a sustained push
     * kept the loop (and a {@code /flush}) going for as long as it lasted, and every merged part on disk until it
     * stopped, past {@code ingester.max_unmerged_bytes} (in a 12 M-line push the parts directory grew to 2.1 GB, every
     * part of the push, beside a backlog of 1.2 GB).
     */
    private void mergeReady(String tenant, FlushReason reason, long through) throws IOException {
        while (mergeOne(tenant, reason, through) != null) {
            merger.deleteRetired(false);
        }
    }

    /** Merges one bounded object of {@code tenant}'s parts sealed no later than {@code through}; caller holds {@code lock}. */
    private PartMerger.Outcome mergeOne(String tenant, FlushReason reason, long through) throws IOException {
        long start = System.nanoTime();
        PartMerger.Outcome outcome = merger.merge(tenant, 2 * config.flush().mergeMinBytes(), through);
        if (outcome != null) {
            double seconds = (System.nanoTime() - start) / 1e9;
            for (int i = 0; i < outcome.streams(); i++) {
                metrics.flushed(reason, seconds); // one per series' rows in the object, as one chunk each before
            }
        }
        return outcome;
    }

    /**
     * Whether a merge due by size ({@code merge_min_bytes}) waits for the next check: while pushes fill the buffers
     * past their early-seal size (within the last {@link #BURST_SEAL_INTERVALS} seal intervals) a merge would take a
     * core from them, so it waits for the burst to pass, as an LSM store lets compaction yield to a write burst.
     * Bounded: once the tenant's parts hold an eighth of {@code max_unmerged_bytes} they merge anyway. Merges due by
     * age or idleness, {@link #mergeEverything} and shutdown never wait; nothing waiting is lost (parts are durable and
     * queried as they are).
     */
    private boolean burstDefers(long now, long partBytes) {
        return burstGoingOn(now) && partBytes < config.budget().maxUnmergedBytes() / BURST_SHARE_OF_UNMERGED;
    }

    /** Whether a push found the buffers over their early-seal size within the last {@link #BURST_SEAL_INTERVALS} seal intervals. */
    private boolean burstGoingOn(long now) {
        return now - burstSeenNanos < BURST_SEAL_INTERVALS * config.flush().sealInterval().toNanos();
    }

    /**
     * Declares the object store failed when merges keep failing for longer than the retry budget, and recovers once a
     * merge with work succeeds; caller holds {@code lock}.
     */
    private void trackRetryBudget(IOException failure, boolean hadWork) {
        long now = clockNanos.getAsLong();
        long budget = config.budget().flushRetryBudget().toNanos();
        if (failure != null) {
            failing = true;
            if (failingSinceNanos == NOT_FAILING) {
                failingSinceNanos = now;
            } else if (now - failingSinceNanos > budget) {
                health.fail(FatalReason.OBJECT_STORE, "flushes have failed for "
                        + Duration.ofNanos(now - failingSinceNanos).toSeconds()
                        + "s, over the retry budget ingester.flush_retry_budget ("
                        + Duration.ofNanos(budget).toSeconds() + "s); last error: "
                        + failure.getMessage(), failure);
            }
        } else if (hadWork) {
            failing = false;
            failingSinceNanos = NOT_FAILING;
            health.recover(FatalReason.OBJECT_STORE);
        }
    }

    private long backoffNanos(int attempts) {
        long min = config.flush().minRetryBackoff().toNanos();
        long max = config.flush().maxRetryBackoff().toNanos();
        int shift = Math.min(30, Math.max(0, attempts - 1));
        long delay = min << shift;
        return delay <= 0 || delay > max ? max : delay;
    }

    private static void sleep(long nanos) throws IOException {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to retry a flush", e);
        }
    }
}
