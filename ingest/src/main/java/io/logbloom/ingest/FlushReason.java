package io.logbloom.ingest;

import java.util.Locale;

/** Why a chunk was closed and flushed; the lower-case name is the metric's {@code reason} label. */
public enum FlushReason {
    /** The chunk reached its target compressed size. */
    FULL,
    /** No entry was appended for the idle period. */
    IDLE,
    /** The chunk spans, or has been open for, the max chunk age. */
    MAX_AGE,
    /** An entry older than the chunk's last cut block arrived, so a new chunk had to take it. */
    OUT_OF_ORDER,
    /** Unflushed data went over the memory budget; the largest streams are flushed first. */
    MEMORY,
    /** The ingester is shutting down. */
    SHUTDOWN,
    /** {@code POST /flush} or {@link Ingester#flushAll()}. */
    FORCED;

    /** The metric label value. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
