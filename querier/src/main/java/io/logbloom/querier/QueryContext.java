package io.logbloom.querier;

import java.time.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * State of one running query: tenant, deadline, bloom switch, statistics, and the fetches it
 * started (cancelled when the query ends, e.g. after a limit stopped it early). Thread-safe: the
 * future list is guarded by its own monitor; statistics are atomic.
 */
public final class QueryContext implements AutoCloseable {
    private final String tenant;
    private final boolean bloomsEnabled;
    private final Clock clock;
    private final long startNanos;
    private final long deadlineMillis;
    private final Duration timeout;
    final QueryStatsCollector stats = new QueryStatsCollector();
    private final List<Future<?>> fetches = new ArrayList<>();
    /** Guarded by itself, as {@link #closed}. */
    private final List<Runnable> onClose = new ArrayList<>();
    private boolean closed;
    private volatile long queueTimeNanos;

    QueryContext(String tenant, boolean bloomsEnabled, Clock clock, Duration timeout) {
        this.tenant = Objects.requireNonNull(tenant, "tenant is null");
        this.bloomsEnabled = bloomsEnabled;
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.timeout = Objects.requireNonNull(timeout, "timeout is null");
        this.startNanos = System.nanoTime();
        this.deadlineMillis = clock.millis() + timeout.toMillis();
    }

    /** The tenant the query reads. */
    public String tenant() {
        return tenant;
    }

    /** Whether bloom skipping is on for this query. */
    public boolean bloomsEnabled() {
        return bloomsEnabled;
    }

    /** Milliseconds left before the deadline; throws TIMEOUT when none are left. */
    long remainingMillis() {
        long left = deadlineMillis - clock.millis();
        if (left <= 0) {
            throw timeout();
        }
        return left;
    }

    QuerierException timeout() {
        return new QuerierException(QuerierErrorCode.TIMEOUT,
                "query timed out: exceeded query_timeout of " + formatDuration(timeout));
    }

    /**
     * The result of {@code work} (running on another thread), waited for only until the deadline: past
     * it the work is cancelled (interrupted) and TIMEOUT thrown, so a slow object store delays the answer
     * by at most the query timeout. Failures of the work are rethrown as they are.
     */
    <T> T await(Future<T> work) throws IOException {
        try {
            long left = deadlineMillis - clock.millis();
            if (left <= 0) {
                throw new TimeoutException();
            }
            return work.get(left, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            work.cancel(true);
            throw timeout();
        } catch (InterruptedException e) {
            work.cancel(true);
            Thread.currentThread().interrupt();
            throw new QuerierException(QuerierErrorCode.TIMEOUT, "query interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }

    void track(Future<?> fetch) {
        synchronized (fetches) {
            fetches.add(fetch);
        }
    }

    /** Records how long the query waited for a slot before this context started. */
    void queuedFor(long nanos) {
        queueTimeNanos = nanos;
    }

    /** Statistics so far, with the result size filled in. */
    public QueryStatistics statistics(long totalEntriesReturned) {
        return stats.snapshot(totalEntriesReturned, System.nanoTime() - startNanos, queueTimeNanos);
    }

    /** Cancels fetches still pending. */
    @Override
    public void close() {
        synchronized (fetches) {
            for (Future<?> f : fetches) {
                f.cancel(false);
            }
            fetches.clear();
        }
        List<Runnable> actions;
        synchronized (onClose) {
            closed = true;
            actions = List.copyOf(onClose);
            onClose.clear();
        }
        for (Runnable action : actions) {
            action.run();
        }
    }

    /**
     * Runs {@code action} when the query closes (what the query held, e.g. the local parts of its snapshot), or at
     * once when it already has (a snapshot a pool thread finished after the query gave up waiting for it).
     */
    void onClose(Runnable action) {
        Objects.requireNonNull(action, "action is null");
        synchronized (onClose) {
            if (!closed) {
                onClose.add(action);
                return;
            }
        }
        action.run();
    }

    /** Go-style duration text, e.g. {@code 1m0s}, {@code 30s}, {@code 250ms}. */
    static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        long h = ms / 3_600_000;
        long m = (ms / 60_000) % 60;
        double s = (ms % 60_000) / 1000.0;
        String sec = s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
        if (h > 0) {
            return h + "h" + m + "m" + sec + "s";
        }
        if (m > 0) {
            return m + "m" + sec + "s";
        }
        return sec + "s";
    }
}
