package io.logbloom.compactor;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The retention and deletion limits of one tenant, with Loki's names: {@code retention_period} (0 keeps
 * forever, Loki's default), {@code retention_stream} rules and {@code deletion_mode}. Immutable.
 *
 * @param retentionPeriod how long entries are kept when no stream rule matches; zero keeps them forever
 * @param streams the per-stream rules
 * @param deletionMode what the delete API does for this tenant
 */
public record RetentionLimits(Duration retentionPeriod, List<StreamRetention> streams, DeletionMode deletionMode) {
    /**
     * Shortest retention accepted, as Loki's limits validation: the compactor works on daily index
     * periods, so a shorter one could not be applied faithfully.
     */
    public static final Duration MIN_PERIOD = Duration.ofHours(24);

    public RetentionLimits {
        Objects.requireNonNull(retentionPeriod, "retentionPeriod is null");
        Objects.requireNonNull(deletionMode, "deletionMode is null");
        streams = List.copyOf(streams);
        validatePeriod("retention_period", retentionPeriod, true);
    }

    /** Loki's defaults: keep forever, no stream rules, {@code filter-and-delete}. */
    public static RetentionLimits defaults() {
        return new RetentionLimits(Duration.ZERO, List.of(), DeletionMode.FILTER_AND_DELETE);
    }

    static void validatePeriod(String name, Duration period, boolean zeroAllowed) {
        if (period.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative: " + period);
        }
        if (period.isZero() ? !zeroAllowed : period.compareTo(MIN_PERIOD) < 0) {
            throw new IllegalArgumentException(name + " must be at least 24h" + (zeroAllowed ? " (or 0 to keep forever)" : "")
                    + ", got " + period);
        }
    }
}
