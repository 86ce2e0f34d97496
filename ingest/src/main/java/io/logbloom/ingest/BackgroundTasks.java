package io.logbloom.ingest;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/** The ingester's background threads: how they are made and how a run is asked for ahead of a loop's period. */
final class BackgroundTasks {
    private BackgroundTasks() {}

    /** Daemon threads, the n-th (from 1) named {@code name.apply(n)}. */
    static ThreadFactory daemonThreads(IntFunction<String> name) {
        AtomicInteger made = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name.apply(made.incrementAndGet()));
            t.setDaemon(true);
            return t;
        };
    }

    /** One daemon thread named {@code name} running scheduled tasks. */
    static ScheduledExecutorService singleThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(daemonThreads(n -> name));
    }

    /**
     * Runs {@code task} on {@code thread} now, ahead of its periodic runs, unless {@code pending} says a run asked for
     * this way has not started yet; nothing when the thread is shutting down.
     */
    static void runAheadOnce(ScheduledExecutorService thread, AtomicBoolean pending, Runnable task) {
        if (pending.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    pending.set(false);
                    task.run();
                });
            } catch (RejectedExecutionException closing) {
                pending.set(false);
            }
        }
    }
}
