package io.logbloom.ingest;

import java.util.Objects;

/**
 * Decides whether an open chunk must be closed, as Loki's {@code shouldFlushChunk} returning
 * (bool, reason): FULL at target size, MAX_AGE when the chunk's data spans {@code maxChunkAge} or
 * it was opened that long ago (so WAL segments it pins are released), IDLE when nothing was
 * appended for {@code chunkIdlePeriod}. Pure policy; immutable and thread-safe.
 */
final class FlushPolicy {
    private final long idleNanos;
    private final long maxAgeNanos;

    FlushPolicy(FlushConfig config) {
        Objects.requireNonNull(config, "config is null");
        this.idleNanos = config.chunkIdlePeriod().toNanos();
        this.maxAgeNanos = config.maxChunkAge().toNanos();
    }

    /**
     * The reason to close the chunk now, or null to keep it open.
     *
     * @param full whether the chunk reached its target size
     * @param minTimeNanos oldest entry timestamp
     * @param maxTimeNanos newest entry timestamp
     * @param openedAtNanos wall-clock time of the chunk's first append
     * @param lastAppendNanos wall-clock time of its latest append
     * @param nowNanos wall-clock now
     */
    FlushReason reason(boolean full, long minTimeNanos, long maxTimeNanos, long openedAtNanos, long lastAppendNanos,
            long nowNanos) {
        if (full) {
            return FlushReason.FULL;
        }
        if (maxTimeNanos - minTimeNanos >= maxAgeNanos || nowNanos - openedAtNanos >= maxAgeNanos) {
            return FlushReason.MAX_AGE;
        }
        if (nowNanos - lastAppendNanos >= idleNanos) {
            return FlushReason.IDLE;
        }
        return null;
    }
}
