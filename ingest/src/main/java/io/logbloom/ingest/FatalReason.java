package io.logbloom.ingest;

import java.util.Locale;

/** Why the ingester stopped accepting pushes; the lower-case name is the metric's {@code reason} label. */
public enum FatalReason {
    /** The JVM ran out of heap in a background thread or a push: state may be half-updated; restart to replay the WAL. */
    OUT_OF_MEMORY(false, "the server ran out of heap memory"),
    /** A WAL write, fsync or checkpoint failed (disk full, I/O error): later records could sit behind a torn one; restart. */
    WAL(false, "a write-ahead log write, fsync or checkpoint failed"),
    /** Flushes to the object store kept failing for longer than the retry budget; cleared by the next successful flush. */
    OBJECT_STORE(true, "flushes to the object store have failed for longer than ingester.flush_retry_budget"),
    /** An unexpected exception in a background thread (a bug); restart to replay the WAL. */
    INTERNAL(false, "a background task failed unexpectedly");

    private final boolean recoverable;
    private final String description;

    FatalReason(boolean recoverable, String description) {
        this.recoverable = recoverable;
        this.description = description;
    }

    /** What happened, safe to show clients (no paths or keys; those are in the server log). */
    public String description() {
        return description;
    }

    /** Whether the ingester leaves the failed state by itself once the cause is gone. */
    public boolean recoverable() {
        return recoverable;
    }

    /** The metric label value. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
