package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class RetentionPolicyTest {
    private static final long NOW = 100L * 86_400_000_000_000L;
    private static final long DAY = 86_400_000_000_000L;

    private static RetentionLimits limits(Duration period, StreamRetention... streams) {
        return new RetentionLimits(period, List.of(streams), DeletionMode.FILTER_AND_DELETE);
    }

    @Test
    void cutoff_globalPeriod_zeroKeepsForever() {
        RetentionPolicy forever = new RetentionPolicy(TenantLimits.uniform(RetentionLimits.defaults()));
        assertThat(forever.cutoffNanos("t", Map.of("app", "a"), NOW)).isEqualTo(RetentionPolicy.KEEP_ALL);
        assertThat(forever.anyRetention()).isFalse();

        RetentionPolicy week = new RetentionPolicy(TenantLimits.uniform(limits(Duration.ofDays(7))));
        assertThat(week.cutoffNanos("t", Map.of("app", "a"), NOW)).isEqualTo(NOW - 7 * DAY);
        assertThat(week.anyRetention()).isTrue();
    }

    @Test
    void cutoff_streamRules_highestPriorityWins_tieTakesShortest() {
        RetentionPolicy p = new RetentionPolicy(TenantLimits.uniform(limits(Duration.ofDays(30),
                new StreamRetention("{env=\"dev\"}", Duration.ofDays(2), 1),
                new StreamRetention("{env=\"dev\", app=\"audit\"}", Duration.ofDays(90), 5),
                new StreamRetention("{app=\"web\"}", Duration.ofDays(10), 1),
                new StreamRetention("{app=~\"web|api\"}", Duration.ofDays(4), 1))));
        assertThat(p.cutoffNanos("t", Map.of("env", "dev", "app", "x"), NOW)).isEqualTo(NOW - 2 * DAY);
        assertThat(p.cutoffNanos("t", Map.of("env", "dev", "app", "audit"), NOW)).isEqualTo(NOW - 90 * DAY);
        assertThat(p.cutoffNanos("t", Map.of("app", "web"), NOW)).isEqualTo(NOW - 4 * DAY);
        assertThat(p.cutoffNanos("t", Map.of("app", "other"), NOW)).isEqualTo(NOW - 30 * DAY);
        assertThat(p.earliestCutoffNanos("t", NOW)).isEqualTo(NOW - 90 * DAY);
    }

    @Test
    void cutoff_tenantOverride_replacesGlobalLimits() {
        RetentionPolicy p = new RetentionPolicy(new TenantLimits(limits(Duration.ofDays(30)),
                Map.of("short", limits(Duration.ofDays(1)), "forever", limits(Duration.ZERO))));
        assertThat(p.cutoffNanos("short", Map.of(), NOW)).isEqualTo(NOW - DAY);
        assertThat(p.cutoffNanos("forever", Map.of(), NOW)).isEqualTo(RetentionPolicy.KEEP_ALL);
        assertThat(p.earliestCutoffNanos("forever", NOW)).isEqualTo(RetentionPolicy.KEEP_ALL);
        assertThat(p.cutoffNanos("other", Map.of(), NOW)).isEqualTo(NOW - 30 * DAY);
    }

    @Test
    void limits_invalidPeriodsAndSelectors_rejected() {
        assertThatThrownBy(() -> limits(Duration.ofHours(1))).hasMessageContaining("retention_period must be at least 24h");
        assertThatThrownBy(() -> limits(Duration.ofDays(-1))).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new StreamRetention("{app=\"a\"}", Duration.ZERO, 1))
                .hasMessageContaining("retention_stream period must be at least 24h");
        assertThatThrownBy(() -> new StreamRetention("{app=\"a\"} |= \"x\"", Duration.ofDays(1), 1))
                .hasMessageContaining("stream selector only");
        assertThatThrownBy(() -> new StreamRetention("{app=", Duration.ofDays(1), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DeletionMode.parse("sometimes")).hasMessageContaining("filter-only");
        assertThat(DeletionMode.parse("filter-only")).isEqualTo(DeletionMode.FILTER_ONLY);
    }
}
