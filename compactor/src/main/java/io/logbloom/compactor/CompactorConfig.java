package io.logbloom.compactor;

import java.time.Duration;
import java.util.Objects;

/**
 * The compactor's settings, with Loki's {@code compactor:} names and defaults.
 *
 * @param compactionInterval how often a pass runs ({@code compaction_interval}, 10m)
 * @param retentionEnabled whether retention deletes expired data ({@code retention_enabled}, false)
 * @param retentionDeleteDelay how long an expired or rewritten object outlives its index entries, so queries
 *                             that already read the index can still fetch it ({@code retention_delete_delay}, 2h)
 * @param deleteRequestCancelPeriod how long after its creation a delete request may still be cancelled; the
 *                                  compactor rewrites data for it only afterwards
 *                                  ({@code delete_request_cancel_period}, 24h)
 * @param smallObjectSizeBytes stored objects whose blocks total less than this are merged, per tenant and index
 *                             period, into objects of about this size ({@code small_object_size}, 16MB; 0 turns
 *                             object merging off)
 */
public record CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay,
        Duration deleteRequestCancelPeriod, long smallObjectSizeBytes) {
    /** Loki's default {@code delete_request_cancel_period}. */
    public static final Duration DEFAULT_DELETE_REQUEST_CANCEL_PERIOD = Duration.ofHours(24);
    /**
     * Default {@code small_object_size}: a flush cycle's object of a quiet tenant is kilobytes, so a day of them
     * merges into a handful of objects, while 16MB stays a few ranged reads per block directory and bounds the
     * compactor's memory per merge to about twice that.
     */
    public static final long DEFAULT_SMALL_OBJECT_SIZE_BYTES = 16L << 20;

    public CompactorConfig {
        Objects.requireNonNull(compactionInterval, "compactionInterval is null");
        Objects.requireNonNull(retentionDeleteDelay, "retentionDeleteDelay is null");
        Objects.requireNonNull(deleteRequestCancelPeriod, "deleteRequestCancelPeriod is null");
        if (compactionInterval.isNegative() || compactionInterval.isZero()) {
            throw new IllegalArgumentException("compaction_interval must be positive, got " + compactionInterval);
        }
        if (retentionDeleteDelay.isNegative()) {
            throw new IllegalArgumentException("retention_delete_delay must not be negative, got " + retentionDeleteDelay);
        }
        if (deleteRequestCancelPeriod.isNegative()) {
            throw new IllegalArgumentException("delete_request_cancel_period must not be negative, got "
                    + deleteRequestCancelPeriod);
        }
        if (smallObjectSizeBytes < 0) {
            throw new IllegalArgumentException("small_object_size must not be negative, got " + smallObjectSizeBytes);
        }
    }

    /** Settings with the default small-object size. */
    public CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay,
            Duration deleteRequestCancelPeriod) {
        this(compactionInterval, retentionEnabled, retentionDeleteDelay, deleteRequestCancelPeriod,
                DEFAULT_SMALL_OBJECT_SIZE_BYTES);
    }

    /** Settings with Loki's default cancel period and the default small-object size. */
    public CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay) {
        this(compactionInterval, retentionEnabled, retentionDeleteDelay, DEFAULT_DELETE_REQUEST_CANCEL_PERIOD);
    }

    /** These settings with another {@code small_object_size}. */
    public CompactorConfig withSmallObjectSizeBytes(long bytes) {
        return new CompactorConfig(compactionInterval, retentionEnabled, retentionDeleteDelay, deleteRequestCancelPeriod,
                bytes);
    }

    /** Loki's defaults: a pass every 10m, retention off, 2h delete delay, 24h cancel period; 16MB small objects. */
    public static CompactorConfig defaults() {
        return new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2), DEFAULT_DELETE_REQUEST_CANCEL_PERIOD);
    }
}
