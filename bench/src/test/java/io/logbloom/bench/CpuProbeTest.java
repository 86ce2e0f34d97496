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
    void randomCycle_visitsEverySlotOnceBeforeReturning() {
        int[] next = CpuProbe.randomCycle(1000, 7);
        boolean[] seen = new boolean[1000];
        int at = 0;
        for (int i = 0; i < 1000; i++) {
            assertThat(seen[at]).as("slot %d visited twice", at).isFalse();
            seen[at] = true;
            at = next[at];
        }
        assertThat(at).isZero();
        assertThat(CpuProbe.chase(next, 0, 1000)).isZero();
        assertThat(CpuProbe.chase(next, 0, 1)).isEqualTo(next[0]).isNotZero();
    }

    @Test
    void millis_timesARun_andRefusesNone() {
        assertThat(CpuProbe.millis(2)).isPositive();
        assertThatThrownBy(() -> CpuProbe.millis(0)).hasMessageContaining("times");
        assertThatThrownBy(() -> CpuProbe.memoryMillis(0)).hasMessageContaining("times");
    }
}
