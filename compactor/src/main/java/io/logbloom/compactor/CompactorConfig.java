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
 */
public record CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay,
        Duration deleteRequestCancelPeriod) {
    /** Loki's default {@code delete_request_cancel_period}. */
    public static final Duration DEFAULT_DELETE_REQUEST_CANCEL_PERIOD = Duration.ofHours(24);

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
    }

    /** Settings with Loki's default cancel period. */
    public CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay) {
        this(compactionInterval, retentionEnabled, retentionDeleteDelay, DEFAULT_DELETE_REQUEST_CANCEL_PERIOD);
    }

    /** Loki's defaults: a pass every 10m, retention off, 2h delete delay, 24h cancel period. */
    public static CompactorConfig defaults() {
        return new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2), DEFAULT_DELETE_REQUEST_CANCEL_PERIOD);
    }
}
