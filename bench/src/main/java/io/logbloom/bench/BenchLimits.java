package io.logbloom.bench;

import io.logbloom.ingest.LimitsConfig;

/** The limits in-process reports push under: a benchmark measures the engine, not the rate limiter. */
final class BenchLimits {
    private BenchLimits() {}

    /**
     * {@code defaults} with ingestion rate and burst lifted to a million MB, old samples accepted (data sets span up
     * to 30 days back) and at most {@code maxStreams} streams per tenant; line and label bounds stay.
     */
    static LimitsConfig unlimited(LimitsConfig defaults, int maxStreams) {
        return new LimitsConfig(1_000_000, 1_000_000, defaults.maxLineSizeBytes(), defaults.maxLabelNamesPerSeries(),
                defaults.maxLabelNameLength(), defaults.maxLabelValueLength(), false,
                defaults.rejectOldSamplesMaxAge(), defaults.creationGracePeriod(), maxStreams, 0, 0, true);
    }
}
