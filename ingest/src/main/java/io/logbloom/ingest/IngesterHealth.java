package io.logbloom.ingest;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the ingester can still persist what it acknowledges. A fatal failure (see
 * {@link FatalReason}) is recorded once per reason, logged once, counted and exposed as the gauge
 * {@code logbloom_ingest_fatal{reason}}; while any is recorded, pushes answer 503 and {@code /ready}
 * answers 503. Only a recoverable reason is ever cleared (by the component that saw it recover).
 *
 * <p>Thread-safe: all state is guarded by this object's monitor; {@link #isFailed()} reads a volatile.
 */
final class IngesterHealth {
    private static final Logger LOG = LoggerFactory.getLogger(IngesterHealth.class);

    /** Recorded failures with the detail logged for each (the client message uses only the reason's description). */
    private final Map<FatalReason, String> failures = new EnumMap<>(FatalReason.class);
    private volatile boolean failed;

    /** Records a fatal failure; the first one of each reason is logged with its cause. */
    void fail(FatalReason reason, String detail, Throwable cause) {
        synchronized (this) {
            if (failures.containsKey(reason)) {
                return;
            }
            failures.put(reason, detail);
            failed = true;
        }
        LOG.error("ingester failed ({}), refusing pushes{}: {}", reason.label(),
                reason.recoverable() ? " until it recovers" : " until restarted", detail, cause);
    }

    /** Clears a recoverable failure; returns whether one was recorded. */
    boolean recover(FatalReason reason) {
        if (!reason.recoverable()) {
            throw new IllegalArgumentException("BUG: " + reason + " is not recoverable");
        }
        synchronized (this) {
            if (failures.remove(reason) == null) {
                return false;
            }
            failed = !failures.isEmpty();
        }
        LOG.info("ingester recovered from {}", reason.label());
        return true;
    }

    /** Whether some fatal failure is recorded. */
    boolean isFailed() {
        return failed;
    }

    /** Whether {@code reason} is recorded. */
    synchronized boolean has(FatalReason reason) {
        return failures.containsKey(reason);
    }

    /** The recorded failures as one client-safe message (details are in the log), or empty. */
    synchronized Optional<String> message() {
        if (failures.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder sb = new StringBuilder("ingester cannot persist data: ");
        boolean first = true;
        for (Map.Entry<FatalReason, String> e : failures.entrySet()) {
            if (!first) {
                sb.append("; ");
            }
            first = false;
            sb.append(e.getKey().label()).append(": ").append(e.getKey().description())
                    .append(e.getKey().recoverable() ? " (refusing pushes until it recovers)"
                            : " (refusing pushes until restarted; acknowledged data is in the WAL)");
        }
        return Optional.of(sb.append("; see the server log for details").toString());
    }

    /** Runs a background task; an {@link OutOfMemoryError} or unexpected exception in it is a fatal failure. */
    void runGuarded(String task, Runnable body) {
        try {
            body.run();
        } catch (OutOfMemoryError e) {
            fail(FatalReason.OUT_OF_MEMORY, "out of memory in the " + task + " thread", e);
        } catch (RuntimeException e) {
            fail(FatalReason.INTERNAL, task + " failed: " + e, e);
        }
    }
}
