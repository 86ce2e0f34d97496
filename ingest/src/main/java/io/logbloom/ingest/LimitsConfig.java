package io.logbloom.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-tenant ingestion limits with Loki's names and defaults (YAML section {@code limits}). A zero
 * for {@code maxGlobalStreamsPerUser}, {@code maxNewSeriesPerHour} or {@code maxNewSeriesPerDay}
 * disables that limit, as in Loki and VictoriaMetrics. Immutable.
 *
 * @param ingestionRateMb sustained ingestion rate per tenant in MiB/s (token bucket refill)
 * @param ingestionBurstSizeMb token bucket size in MiB
 * @param maxLineSizeBytes longest accepted line, 0 = unlimited
 * @param maxLabelNamesPerSeries most label names per stream
 * @param maxLabelNameLength longest label name in bytes
 * @param maxLabelValueLength longest label value in bytes
 * @param rejectOldSamples whether entries older than {@code rejectOldSamplesMaxAge} are rejected
 * @param rejectOldSamplesMaxAge oldest accepted entry age
 * @param creationGracePeriod how far in the future an entry may be
 * @param maxGlobalStreamsPerUser most active (in-memory) streams per tenant, 0 = unlimited
 * @param maxNewSeriesPerHour most new series per tenant per hour (bloom limiter), 0 = unlimited
 * @param maxNewSeriesPerDay most new series per tenant per day (bloom limiter), 0 = unlimited
 * @param unorderedWrites accept out-of-order entries within half of max chunk age (Loki ≥ 2.4)
 */
public record LimitsConfig(
        double ingestionRateMb,
        double ingestionBurstSizeMb,
        int maxLineSizeBytes,
        int maxLabelNamesPerSeries,
        int maxLabelNameLength,
        int maxLabelValueLength,
        boolean rejectOldSamples,
        Duration rejectOldSamplesMaxAge,
        Duration creationGracePeriod,
        int maxGlobalStreamsPerUser,
        int maxNewSeriesPerHour,
        int maxNewSeriesPerDay,
        boolean unorderedWrites) {

    public LimitsConfig {
        Objects.requireNonNull(rejectOldSamplesMaxAge, "rejectOldSamplesMaxAge is null");
        Objects.requireNonNull(creationGracePeriod, "creationGracePeriod is null");
        if (!(ingestionRateMb > 0) || Double.isInfinite(ingestionRateMb)) {
            throw new IllegalArgumentException("ingestion_rate_mb must be positive and finite: " + ingestionRateMb);
        }
        if (!(ingestionBurstSizeMb > 0) || Double.isInfinite(ingestionBurstSizeMb)) {
            throw new IllegalArgumentException("ingestion_burst_size_mb must be positive and finite: " + ingestionBurstSizeMb);
        }
        requireNonNegative("max_line_size", maxLineSizeBytes);
        requirePositive("max_label_names_per_series", maxLabelNamesPerSeries);
        requirePositive("max_label_name_length", maxLabelNameLength);
        requirePositive("max_label_value_length", maxLabelValueLength);
        if (rejectOldSamplesMaxAge.isNegative() || rejectOldSamplesMaxAge.isZero()) {
            throw new IllegalArgumentException("reject_old_samples_max_age must be positive: " + rejectOldSamplesMaxAge);
        }
        if (creationGracePeriod.isNegative()) {
            throw new IllegalArgumentException("creation_grace_period must not be negative: " + creationGracePeriod);
        }
        requireNonNegative("max_global_streams_per_user", maxGlobalStreamsPerUser);
        requireNonNegative("max_new_series_per_hour", maxNewSeriesPerHour);
        requireNonNegative("max_new_series_per_day", maxNewSeriesPerDay);
    }

    /** Loki's defaults: 4 MiB/s, burst 6 MiB, 256 KiB lines, 15 names, 1024/2048 lengths, 1 week, 10 min, 5000 streams. */
    public static LimitsConfig defaults() {
        return new LimitsConfig(4, 6, 256 * 1024, 15, 1024, 2048, true, Duration.ofDays(7), Duration.ofMinutes(10),
                5000, 0, 0, true);
    }

    /** The token bucket refill rate in bytes per second. */
    public long ingestionRateBytesPerSecond() {
        return (long) (ingestionRateMb * 1024 * 1024);
    }

    /** The token bucket size in bytes. */
    public long ingestionBurstBytes() {
        return (long) (ingestionBurstSizeMb * 1024 * 1024);
    }

    private static void requirePositive(String key, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive: " + value);
        }
    }

    private static void requireNonNegative(String key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(key + " must not be negative: " + value);
        }
    }
}
