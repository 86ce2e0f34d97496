package io.logbloom.loadtest;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared stop switch of a run: the first reason given wins and every worker polls it.
 *
 * <p>Thread-safe: one atomic reference.
 */
final class RunControl {
    /** Stop reason when the planned duration has elapsed. */
    static final String COMPLETED = "completed";

    private final AtomicReference<String> stopReason = new AtomicReference<>();

    /** Asks every worker to stop; returns whether this call set the reason. */
    boolean stop(String reason) {
        return stopReason.compareAndSet(null, reason);
    }

    boolean stopped() {
        return stopReason.get() != null;
    }

    /** Whether the run stopped for another reason than {@link #COMPLETED} (a failure, an interrupt, giving up). */
    boolean aborted() {
        String reason = stopReason.get();
        return reason != null && !reason.equals(COMPLETED);
    }

    /** Returns why the run stopped, or {@code null} while it runs. */
    String stopReason() {
        return stopReason.get();
    }
}
