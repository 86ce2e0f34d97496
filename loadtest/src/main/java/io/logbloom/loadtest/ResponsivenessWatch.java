package io.logbloom.loadtest;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Detects a server that stopped answering: no HTTP response of any status for a grace period
 * while requests kept failing with timeouts, refused connections or I/O errors.
 *
 * <p>Thread-safe: atomics only.
 */
final class ResponsivenessWatch {
    private final long graceNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong lastAnswerNanos;
    private final AtomicLong failuresSinceAnswer = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>("");

    /** Creates a watch that gives up after {@code grace} without an answer. */
    ResponsivenessWatch(Duration grace, LongSupplier nanoTime) {
        if (grace.isNegative() || grace.isZero()) {
            throw new IllegalArgumentException("give-up grace must be positive, got " + grace);
        }
        this.graceNanos = grace.toNanos();
        this.nanoTime = nanoTime;
        this.lastAnswerNanos = new AtomicLong(nanoTime.getAsLong());
    }

    /** Restarts the grace period, when the timed phase begins after preparation. */
    void restart() {
        lastAnswerNanos.set(nanoTime.getAsLong());
        failuresSinceAnswer.set(0);
    }

    /** Records an outcome of any request. */
    void observe(HttpOutcome outcome) {
        if (outcome.answered()) {
            lastAnswerNanos.set(nanoTime.getAsLong());
            failuresSinceAnswer.set(0);
        } else {
            failuresSinceAnswer.incrementAndGet();
            lastFailure.set(outcome.failure() + ": " + outcome.detail());
        }
    }

    /** Returns a message when the server is considered gone, else {@code null}. */
    String verdict(String url) {
        long silentNanos = nanoTime.getAsLong() - lastAnswerNanos.get();
        long failures = failuresSinceAnswer.get();
        if (failures > 0 && silentNanos >= graceNanos) {
            return String.format(java.util.Locale.ROOT,
                    "server at %s stopped answering: no response for %.1f s, %d failed requests, last: %s",
                    url, silentNanos / 1e9, failures, lastFailure.get());
        }
        return null;
    }
}
