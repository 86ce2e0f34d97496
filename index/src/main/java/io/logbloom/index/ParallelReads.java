package io.logbloom.index;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
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
     * IOException} as itself, so a caller can tell a vanished object) and the reads not started yet are cancelled.
     */
    <T> List<T> all(List<Callable<T>> reads) throws IOException {
        List<Future<T>> futures = new ArrayList<>(reads.size());
        try {
            for (Callable<T> read : reads) {
                futures.add(pool.submit(read));
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
