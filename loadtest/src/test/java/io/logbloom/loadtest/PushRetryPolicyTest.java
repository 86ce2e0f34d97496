package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class PushRetryPolicyTest {
    private static final PushRetryPolicy POLICY = new PushRetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(3));

    @Test
    void retries_only429_andAtMostMaxRetries() {
        assertThat(POLICY.retries(429, 0)).isTrue();
        assertThat(POLICY.retries(429, 2)).isTrue();
        assertThat(POLICY.retries(429, 3)).isFalse();
        assertThat(POLICY.retries(500, 0)).isFalse();
        assertThat(POLICY.retries(400, 0)).isFalse();
        assertThat(POLICY.retries(204, 0)).isFalse();
        assertThat(PushRetryPolicy.NONE.retries(429, 0)).isFalse();
    }

    @Test
    void delay_withoutRetryAfter_doublesFromMinUpToMax() {
        assertThat(POLICY.delay(1, null)).isEqualTo(Duration.ofMillis(500));
        assertThat(POLICY.delay(2, null)).isEqualTo(Duration.ofMillis(1000));
        assertThat(POLICY.delay(3, null)).isEqualTo(Duration.ofMillis(2000));
        assertThat(POLICY.delay(4, null)).isEqualTo(Duration.ofSeconds(3));
        assertThat(POLICY.delay(80, null)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void delay_honoursRetryAfter_cappedAtMax() {
        assertThat(POLICY.delay(1, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(POLICY.delay(3, Duration.ZERO)).isEqualTo(Duration.ZERO);
        assertThat(POLICY.delay(1, Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void parseRetryAfter_secondsOrHttpDate_elseNull() {
        Instant now = Instant.parse("2026-11-23T19:00:00Z");
        assertThat(PushRetryPolicy.parseRetryAfter("7", now)).isEqualTo(Duration.ofSeconds(7));
        assertThat(PushRetryPolicy.parseRetryAfter(" 1 ", now)).isEqualTo(Duration.ofSeconds(1));
        assertThat(PushRetryPolicy.parseRetryAfter("Mon, 23 Nov 2026 19:00:05 GMT", now)).isEqualTo(Duration.ofSeconds(5));
        assertThat(PushRetryPolicy.parseRetryAfter("Mon, 23 Nov 2026 18:00:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(PushRetryPolicy.parseRetryAfter(null, now)).isNull();
        assertThat(PushRetryPolicy.parseRetryAfter("", now)).isNull();
        assertThat(PushRetryPolicy.parseRetryAfter("soon", now)).isNull();
        assertThat(PushRetryPolicy.parseRetryAfter("-1", now)).isNull();
        assertThat(PushRetryPolicy.parseRetryAfter("99999999999999999999999", now)).isNull();
    }

    @Test
    void invalidValues_rejectedNamingThem() {
        assertThatThrownBy(() -> new PushRetryPolicy(-1, Duration.ofMillis(1), Duration.ofMillis(1)))
                .hasMessage("max retries must be >= 0, got -1");
        assertThatThrownBy(() -> new PushRetryPolicy(1, Duration.ZERO, Duration.ofMillis(1)))
                .hasMessage("min backoff must be positive, got PT0S");
        assertThatThrownBy(() -> new PushRetryPolicy(1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessage("max backoff PT1S is below min backoff PT2S");
    }
}
