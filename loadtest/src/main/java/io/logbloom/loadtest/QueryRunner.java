package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Sends the query mix with N workers, closed loop or paced to a query rate, and checks answers.
 *
 * <p>Each answer is timed per query kind; needle answers must hold exactly the expected line
 * (counted under {@code checks} as found, or as the errors {@code needle_missing} /
 * {@code needle_wrong}), count answers must sum to the push's tally ({@code count_right}, or the error
 * {@code count_wrong}); any answer must have Loki's shape ({@code bad_response} otherwise).
 *
 * <p>Thread-safe for its lifecycle: {@code start} and {@code awaitStopped} are called once each from
 * the run's main thread; workers share only thread-safe collaborators.
 */
final class QueryRunner {
    // Before the first needle is acknowledged (mixed runs) workers poll for one at this interval.
    private static final long NO_NEEDLE_PAUSE_MILLIS = 50;
    private static final long TRANSPORT_FAILURE_BACKOFF_MILLIS = 20;

    private final QueryMix mix;
    private final int workers;
    private final long seed;
    private final LokiClient client;
    private final RunStats stats;
    private final RunControl control;
    private final ResponsivenessWatch watch;
    private final RateLimiter limiter;
    private final QueryResponseCheck check = new QueryResponseCheck();
    private final List<Thread> threads = new ArrayList<>();

    QueryRunner(QueryMix mix, int workers, double queriesPerSecond, long seed, LokiClient client, RunStats stats,
            RunControl control, ResponsivenessWatch watch) {
        if (workers < 1) {
            throw new IllegalArgumentException("query connections must be >= 1, got " + workers);
        }
        if (queriesPerSecond < 0 || Double.isNaN(queriesPerSecond) || Double.isInfinite(queriesPerSecond)) {
            throw new IllegalArgumentException("query rate must be >= 0 queries/s (0 = closed loop), got " + queriesPerSecond);
        }
        this.mix = mix;
        this.workers = workers;
        this.seed = seed;
        this.client = client;
        this.stats = stats;
        this.control = control;
        this.watch = watch;
        this.limiter = queriesPerSecond > 0 ? new RateLimiter(queriesPerSecond, System::nanoTime) : null;
    }

    /** Starts the workers. */
    void start() {
        for (int worker = 0; worker < workers; worker++) {
            SplittableRandom random = new SplittableRandom(seed * 31 + worker);
            Thread thread = new Thread(() -> work(random), "loadtest-query-" + worker);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** Waits for the workers to finish after the run was stopped. */
    void awaitStopped() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private void work(SplittableRandom random) {
        try {
            while (!control.stopped()) {
                PlannedQuery query = mix.next(random);
                if (query == null) {
                    TimeUnit.MILLISECONDS.sleep(NO_NEEDLE_PAUSE_MILLIS);
                    continue;
                }
                if (limiter != null) {
                    limiter.acquire(1, control);
                    if (control.stopped()) {
                        return;
                    }
                }
                HttpOutcome outcome = client.queryRange(query.logql(), query.startNanos(), query.endNanos(),
                        query.limit(), query.step());
                watch.observe(outcome);
                OperationStats operation = stats.operation(query.operation());
                if (!outcome.succeeded()) {
                    operation.recordFailure(outcome.errorKey(), outcome.detail(), outcome.latencyNanos(), 0);
                    if (!outcome.answered()) {
                        TimeUnit.MILLISECONDS.sleep(TRANSPORT_FAILURE_BACKOFF_MILLIS);
                    }
                    continue;
                }
                QueryResponseCheck.Verdict verdict = check.check(query, outcome.body());
                if (verdict.failure() != null) {
                    operation.recordFailure(verdict.failure(), verdict.detail(), outcome.latencyNanos(), 0);
                    if (query.checked()) {
                        operation.recordCheck(verdict.failure());
                    }
                } else {
                    operation.recordSuccess(outcome.latencyNanos(), verdict.lines(), outcome.body().length, 0);
                    if (query.checked()) {
                        operation.recordCheck(query.expected() != null ? QueryResponseCheck.FOUND : QueryResponseCheck.COUNT_RIGHT);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
