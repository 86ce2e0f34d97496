package io.logbloom.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class IndexConfigTest {
    private static final long DAY = 86_400_000_000_000L;

    @Test
    void defaults_dailyPeriods() {
        IndexConfig config = IndexConfig.defaults();
        assertThat(config.period()).isEqualTo(Duration.ofHours(24));
        assertThat(config.fileCacheMaxBytes()).isEqualTo(256L << 20);
        assertThat(config.periodNanos()).isEqualTo(DAY);
    }

    @Test
    void periodNumber_floorsIncludingNegativeTimes() {
        IndexConfig config = IndexConfig.defaults();
        assertThat(config.periodNumber(0)).isZero();
        assertThat(config.periodNumber(DAY - 1)).isZero();
        assertThat(config.periodNumber(DAY)).isEqualTo(1);
        assertThat(config.periodNumber(-1)).isEqualTo(-1);
        assertThat(config.periodStartNanos(3)).isEqualTo(3 * DAY);
        assertThat(config.periodStartNanos(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(config.periodStartNanos(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void invalidValues_rejectedNamingThem() {
        assertThatThrownBy(() -> new IndexConfig(Duration.ZERO, 1)).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> new IndexConfig(Duration.ofDays(4000), 1)).hasMessageContaining("PT96000H");
        assertThatThrownBy(() -> new IndexConfig(Duration.ofHours(1), -5)).hasMessageContaining("-5");
        assertThatThrownBy(() -> IndexConfig.defaults().withParallelReads(0)).hasMessageContaining("parallel reads")
                .hasMessageContaining("0");
        assertThat(IndexConfig.defaults().withParallelReads(3).parallelReads()).isEqualTo(3);
        assertThat(IndexConfig.defaults().parallelReads()).isEqualTo(IndexConfig.DEFAULT_PARALLEL_READS);
    }
}
