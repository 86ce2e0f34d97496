package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class IngestionRateLimiterTest {
    @Test
    void burstThenRefillAtRate() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        IngestionRateLimiter limiter = new IngestionRateLimiter(clock, 1000, 3000);
        assertThat(limiter.tryAcquire(3000)).isTrue();
        assertThat(limiter.tryAcquire(1)).isFalse();
        clock.advance(Duration.ofMillis(500));
        assertThat(limiter.tryAcquire(600)).isFalse();
        assertThat(limiter.tryAcquire(500)).isTrue();
        clock.advance(Duration.ofHours(1));
        assertThat(limiter.tryAcquire(3001)).as("never more than the burst").isFalse();
        assertThat(limiter.tryAcquire(3000)).isTrue();
    }
}
