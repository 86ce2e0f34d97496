package io.logbloom.compactor;

import java.time.Duration;
import java.util.Objects;

/**
 * The compactor's settings, with Loki's {@code compactor:} names and defaults.
 *
 * @param compactionInterval how often a pass runs ({@code compaction_interval}, 10m)
 * @param retentionEnabled whether retention deletes expired data ({@code retention_enabled}, false)
 * @param retentionDeleteDelay how long an expired object outlives its index entries, so queries that
 *                             already read the index can still fetch it ({@code retention_delete_delay}, 2h)
 */
public record CompactorConfig(Duration compactionInterval, boolean retentionEnabled, Duration retentionDeleteDelay) {
    public CompactorConfig {
        Objects.requireNonNull(compactionInterval, "compactionInterval is null");
        Objects.requireNonNull(retentionDeleteDelay, "retentionDeleteDelay is null");
        if (compactionInterval.isNegative() || compactionInterval.isZero()) {
            throw new IllegalArgumentException("compaction_interval must be positive, got " + compactionInterval);
        }
        if (retentionDeleteDelay.isNegative()) {
            throw new IllegalArgumentException("retention_delete_delay must not be negative, got " + retentionDeleteDelay);
        }
    }

    /** Loki's defaults: a pass every 10m, retention off, 2h delete delay. */
    public static CompactorConfig defaults() {
        return new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2));
    }
}
