package io.logbloom.index;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a lookup's independent reads of a remote store (period listings, index file opens) side by side, at most
 * {@code width} at a time, so a lookup over 30 periods waits about 30 / width round trips instead of 30. The reads it
 * runs are leaves: none waits for another read of this pool, so a caller waiting here never deadlocks, whichever
 * pool the caller runs on. Threads start on demand and end after a few idle seconds. Thread-safe.
 */
final class ParallelReads implements AutoCloseable {
    private static final long IDLE_SECONDS = 10;

    private final ThreadPoolExecutor pool;

    /** At most {@code width} reads at a time ({@code width} ≥ 2). */
    ParallelReads(int width) {
        if (width < 2) {
            throw new IllegalArgumentException("width must be at least 2: " + width);
        }
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(width, width, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "logbloom-index-read-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * The results of {@code reads}, in their order. The first failure met in that order is thrown (an {@link
     * IOException} as itself, so a caller can tell a vanished object) once the reads under way have finished; the
     * reads not started yet are cancelled. No read outlives the call: a caller that lists again after a vanished file
     * must not meet the other reads' misses arriving later (each drops the kept listings it falls under, so a late one
     * dropped the fresh listing and the next lookup listed once more).
     */
    <T> List<T> all(List<Callable<T>> reads) throws IOException {
        List<Future<T>> futures = new ArrayList<>(reads.size());
        List<Tracked<T>> tracked = new ArrayList<>(reads.size());
        try {
            for (Callable<T> read : reads) {
                Tracked<T> t = new Tracked<>(read);
                tracked.add(t);
                futures.add(pool.submit(t));
            }
            List<T> results = new ArrayList<>(reads.size());
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading the index");
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (RejectedExecutionException e) {
            throw new IOException("the index is closed");
        } catch (CancellationException e) {
            throw new InterruptedIOException("index read cancelled (the index is closing)");
        } finally {
            for (Future<T> future : futures) {
                future.cancel(false);
            }
            for (Tracked<T> t : tracked) {
                if (!t.skipOrAwait()) {
                    break; // interrupted: the interrupt is kept for the caller
                }
            }
        }
    }

    /**
     * One read that either runs or is skipped, never both: a future cancelled while its task runs reports cancelled
     * at once, so the futures cannot tell which reads are still under way.
     */
    private static final class Tracked<T> implements Callable<T> {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int SKIPPED = 2;
        private final Callable<T> read;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final CountDownLatch finished = new CountDownLatch(1);

        Tracked(Callable<T> read) {
            this.read = read;
        }

        @Override
        public T call() throws Exception {
            if (!state.compareAndSet(WAITING, RUNNING)) {
                return null; // skipped: the call it belonged to has returned
            }
            try {
                return read.call();
            } finally {
                finished.countDown();
            }
        }

        /** Skips the read if it has not started, else waits until it ends; false when interrupted meanwhile. */
        boolean skipOrAwait() {
            if (state.compareAndSet(WAITING, SKIPPED)) {
                return true;
            }
            try {
                finished.await();
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static IOException rethrown(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof UncheckedIOException unchecked) {
            return unchecked.getCause();
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException("index read failed", cause);
    }

    /** Threads running now (for tests). */
    int threads() {
        return pool.getPoolSize();
    }

    /** Stops taking reads; reads under way finish. */
    @Override
    public void close() {
        pool.shutdown();
    }
}
