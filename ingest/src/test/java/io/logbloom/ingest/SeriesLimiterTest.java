package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class SeriesLimiterTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T10:00:00Z"));

    @Test
    void hourly_allowsUpToLimitThenOnlyKnownSeries_resetsNextHour() {
        SeriesLimiter limiter = new SeriesLimiter(100, Duration.ofHours(1), clock);
        for (long s = 0; s < 100; s++) {
            assertThat(limiter.allow(hash(s))).isTrue();
        }
        int refused = 0;
        for (long s = 100; s < 1100; s++) {
            if (!limiter.allow(hash(s))) {
                refused++;
            }
        }
        // VictoriaMetrics' filter sizing: ~0.3% false positives at capacity, so almost all are refused
        assertThat(refused).isGreaterThan(980);
        clock.advance(Duration.ofMinutes(59));
        assertThat(limiter.allow(hash(5))).as("known series keeps writing within the hour").isTrue();
        assertThat(limiter.allow(hash(5000))).isFalse();
        clock.advance(Duration.ofMinutes(1));
        assertThat(limiter.allow(hash(5000))).as("a new hour starts a new filter").isTrue();
    }

    @Test
    void daily_simulatedDay_countsNewSeriesPerDay() {
        SeriesLimiter limiter = new SeriesLimiter(50, Duration.ofDays(1), clock);
        long series = 0;
        int allowed = 0;
        for (int hour = 0; hour < 14; hour++) { // until midnight UTC
            for (int i = 0; i < 10; i++) {
                if (limiter.allow(hash(series++))) {
                    allowed++;
                }
            }
            clock.advance(Duration.ofHours(1));
        }
        assertThat(allowed).isBetween(50, 52);
        assertThat(limiter.allow(hash(series++))).as("new UTC day").isTrue();
    }

    private static long hash(long s) {
        return io.logbloom.bloom.BloomHash.hash("series-" + s);
    }
}
