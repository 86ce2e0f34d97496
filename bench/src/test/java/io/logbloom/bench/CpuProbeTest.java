package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class CpuProbeTest {
    @Test
    void work_isTheSameComputationEveryCall() {
        assertThat(CpuProbe.work(1000)).isEqualTo(CpuProbe.work(1000));
        assertThat(CpuProbe.work(1000)).isNotEqualTo(CpuProbe.work(1001));
        assertThat(CpuProbe.work(0)).isEqualTo(1);
    }

    @Test
    void millis_timesARun_andRefusesNone() {
        assertThat(CpuProbe.millis(2)).isPositive();
        assertThatThrownBy(() -> CpuProbe.millis(0)).hasMessageContaining("times");
    }
}
