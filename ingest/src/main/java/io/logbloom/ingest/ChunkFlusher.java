package io.logbloom.ingest;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flush cycle: closes chunks per {@link FlushPolicy}, then for each closed chunk puts the encoded
 * chunk object, publishes its ref to the head index, writes the cycle's index file per tenant, feeds
 * its tokens to its series bloom ({@link SeriesBloomWriter}) and finally lets the {@link StreamStore}
 * release it (WAL {@code Flushed} marker, segments deleted). A chunk leaves memory only when all of
 * that succeeded; a failed step is retried on later cycles with doubling backoff; nothing is dropped.
 *
 * <p>Thread-safe: {@code flushLock} serializes cycles, so the closed chunks' progress flags and the
 * bloom writer are used by one thread at a time.
 */
final class ChunkFlusher {
    private static final Logger LOG = LoggerFactory.getLogger(ChunkFlusher.class);
    /** Attempts {@link #flushEverything} makes for a failing chunk before it reports the failure. */
    static final int FLUSH_ALL_ATTEMPTS = 5;
    /**
     * How long a flushed chunk stays in memory after its ref entered the index, unless the flush is
     * forced: a query that read the index just before must still find its entries in the stream
     * store; the gap between those two calls of a query is milliseconds. Capped by the flush check
     * period, so a chunk leaves memory at the latest one cycle after it was flushed.
     */
    static final long REMOVAL_GRACE_NANOS = 5_000_000_000L;

    private final FlushConfig config;
    private final FlushPolicy policy;
    private final StreamStore streams;
    private final VisibleIndex index;
    private final IndexWriter indexWriter;
    private final SeriesBloomWriter blooms;
    private final ObjectStore store;
    private final Wal wal;
    private final Clock clock;
    private final IngestMetrics metrics;
    private final long removalGraceNanos;
    private final IngesterHealth health;
    private final long retryBudgetNanos;
    private final ReentrantLock flushLock = new ReentrantLock();
    /** Clock time of the first failed cycle since the last successful one, or {@code NOT_FAILING}; guarded by {@code flushLock}. */
    private long failingSinceNanos = NOT_FAILING;
    private static final long NOT_FAILING = Long.MIN_VALUE;

    ChunkFlusher(FlushConfig config, StreamStore streams, VisibleIndex index, IndexWriter indexWriter,
            SeriesBloomWriter blooms, ObjectStore store, Wal wal, Clock clock, IngestMetrics metrics,
            IngesterHealth health, java.time.Duration retryBudget) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.policy = new FlushPolicy(config);
        this.streams = Objects.requireNonNull(streams, "streams is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.indexWriter = Objects.requireNonNull(indexWriter, "indexWriter is null");
        this.blooms = Objects.requireNonNull(blooms, "blooms is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.wal = Objects.requireNonNull(wal, "wal is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.removalGraceNanos = Math.min(REMOVAL_GRACE_NANOS, config.flushCheckPeriod().toNanos());
        this.health = Objects.requireNonNull(health, "health is null");
        this.retryBudgetNanos = retryBudget.toNanos();
    }

    /** Closes every open chunk with {@code reason} and flushes all of them, retrying a few times; throws when some stays unflushed. */
    void flushEverything(FlushReason reason) throws IOException {
        flushLock.lock();
        try {
            IOException last = null;
            for (int attempt = 0; attempt < FLUSH_ALL_ATTEMPTS; attempt++) {
                if (attempt > 0) {
                    sleep(backoffNanos(attempt));
                }
                last = cycle(reason, true);
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

    /**
     * One periodic cycle unless another runs; returns its first failure or null (also null when
     * skipped because a cycle is running).
     */
    IOException tick() {
        if (!flushLock.tryLock()) {
            return null;
        }
        try {
            return cycle(null, false);
        } finally {
            flushLock.unlock();
        }
    }

    /**
     * Relieves memory pressure: closes the open chunks of the largest streams until what stays in
     * memory after the pending flushes is at most {@code targetBytes}, then runs a cycle (waiting
     * for a running one first); returns the cycle's first failure or null.
     */
    IOException relieve(long targetBytes) {
        flushLock.lock();
        try {
            streams.closeLargest(targetBytes);
            return cycle(null, false);
        } finally {
            flushLock.unlock();
        }
    }

    /** How long a flushed chunk stays in memory after it was indexed (unless forced). */
    long removalGraceNanos() {
        return removalGraceNanos;
    }

    /**
     * One flush cycle; {@code forceReason} non-null closes every open chunk with that reason. Returns
     * the first failure (the affected chunks stay queued) or null. Caller holds {@code flushLock}.
     */
    private IOException cycle(FlushReason forceReason, boolean ignoreBackoff) {
        long now = nowNanos();
        List<StreamStore.Work> work = streams.closeDue(policy, forceReason, ignoreBackoff, now);
        IOException[] failure = {null};
        SeriesBloomWriter.FailureSink failed = (c, e) -> failure[0] = failed(c, now, e, failure[0]);
        // 1. chunk objects
        for (StreamStore.Work w : work) {
            if (!w.chunk().stored) {
                long start = System.nanoTime();
                try {
                    store.put(w.chunk().ref.objectKey(), w.chunk().bytes);
                    w.chunk().stored = true;
                } catch (IOException e) {
                    failed.failed(w.chunk(), e);
                }
                w.chunk().flushNanos += System.nanoTime() - start;
            }
        }
        // 2. head index, then one index file per tenant for this cycle's newly stored chunks
        index.publish(epoch -> streams.markIndexed(work, epoch, index));
        Map<String, Map<Labels, List<ChunkRef>>> toPersist = new HashMap<>();
        for (StreamStore.Work w : work) {
            if (w.chunk().indexed && !w.chunk().indexPersisted) {
                toPersist.computeIfAbsent(w.stream().tenant, t -> new LinkedHashMap<>())
                        .computeIfAbsent(w.stream().labels, l -> new ArrayList<>()).add(w.chunk().ref);
            }
        }
        for (Map.Entry<String, Map<Labels, List<ChunkRef>>> t : toPersist.entrySet()) {
            List<SeriesChunks> series = new ArrayList<>();
            t.getValue().forEach((labels, refs) -> series.add(new SeriesChunks(labels, refs)));
            try {
                indexWriter.write(t.getKey(), series);
                for (StreamStore.Work w : work) {
                    if (w.stream().tenant.equals(t.getKey()) && w.chunk().indexed) {
                        w.chunk().indexPersisted = true;
                    }
                }
            } catch (IOException e) {
                for (StreamStore.Work w : work) {
                    if (w.stream().tenant.equals(t.getKey()) && w.chunk().indexed && !w.chunk().indexPersisted) {
                        failed.failed(w.chunk(), e);
                    }
                }
            }
        }
        // 3. blooms
        List<StreamStore.ClosedChunk> chunks = new ArrayList<>(work.size());
        for (StreamStore.Work w : work) {
            chunks.add(w.chunk());
        }
        blooms.addAndPersist(chunks, failed);
        // 4. done chunks leave memory; WAL markers; checkpoint
        try {
            streams.release(work, forceReason != null, removalGraceNanos, now, wal,
                    c -> metrics.flushed(c.reason, c.flushNanos / 1e9));
        } catch (IOException e) {
            health.fail(FatalReason.WAL, "WAL checkpoint failed: " + e.getMessage(), e);
        }
        if (!streams.awaitsIndexFile()) {
            // every indexed chunk is in a persisted index file, which then answers for all of them
            index.clearHead();
        }
        blooms.evict(now);
        trackRetryBudget(failure[0], !work.isEmpty(), now);
        return failure[0];
    }

    /**
     * Declares the object store failed when cycles keep failing for longer than the retry budget,
     * and recovers once a cycle with work succeeds.
     */
    private void trackRetryBudget(IOException failure, boolean hadWork, long now) {
        if (failure != null) {
            if (failingSinceNanos == NOT_FAILING) {
                failingSinceNanos = now;
            } else if (now - failingSinceNanos > retryBudgetNanos) {
                health.fail(FatalReason.OBJECT_STORE, "flushes have failed for "
                        + java.time.Duration.ofNanos(now - failingSinceNanos).toSeconds()
                        + "s, over the retry budget ingester.flush_retry_budget ("
                        + java.time.Duration.ofNanos(retryBudgetNanos).toSeconds() + "s); last error: "
                        + failure.getMessage(), failure);
            }
        } else if (hadWork) {
            failingSinceNanos = NOT_FAILING;
            health.recover(FatalReason.OBJECT_STORE);
        }
    }

    private IOException failed(StreamStore.ClosedChunk c, long now, IOException e, IOException first) {
        c.attempts++;
        c.nextAttemptNanos = now + backoffNanos(c.attempts);
        LOG.warn("flush of chunk {} failed (attempt {}): {}", c.ref.objectKey(), c.attempts, e.toString());
        return first == null ? e : first;
    }

    private long backoffNanos(int attempts) {
        long min = config.minRetryBackoff().toNanos();
        long max = config.maxRetryBackoff().toNanos();
        int shift = Math.min(30, Math.max(0, attempts - 1));
        long delay = min << shift;
        return delay <= 0 || delay > max ? max : delay;
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
}
