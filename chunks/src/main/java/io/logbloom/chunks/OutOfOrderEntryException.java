package io.logbloom.chunks;

/**
 * Thrown by {@link MemChunk#append} for an entry older than the newest entry already cut into a
 * compressed block: such an entry can no longer be placed in time order (Loki: "entry too far behind").
 */
public final class OutOfOrderEntryException extends IllegalArgumentException {
    private final long timestampNanos;
    private final long minAcceptedNanos;

    /** An exception for {@code timestampNanos}, which is before {@code minAcceptedNanos}. */
    public OutOfOrderEntryException(long timestampNanos, long minAcceptedNanos) {
        super("entry timestamp " + timestampNanos + " is older than the chunk's last cut block (max "
                + minAcceptedNanos + ")");
        this.timestampNanos = timestampNanos;
        this.minAcceptedNanos = minAcceptedNanos;
    }

    /** The rejected timestamp. */
    public long timestampNanos() {
        return timestampNanos;
    }

    /** The oldest timestamp the chunk still accepts. */
    public long minAcceptedNanos() {
        return minAcceptedNanos;
    }
}
