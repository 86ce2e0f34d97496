package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class FlushPolicyTest {
    private static final long MIN = Duration.ofMinutes(1).toNanos();
    private final FlushPolicy policy = new FlushPolicy(FlushConfig.defaults());

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
        // full, data span min, opened min ago, idle min, expected
        "true, 0, 0, 0, FULL",
        "false, 120, 1, 0, MAX_AGE",
        "false, 1, 120, 0, MAX_AGE",
        "false, 1, 40, 30, IDLE",
        "false, 1, 40, 29, null",
        "false, 119, 119, 29, null",
    })
    void reason(boolean full, long spanMinutes, long openedMinutesAgo, long idleMinutes, FlushReason expected) {
        long now = 1_000_000 * MIN;
        assertThat(policy.reason(full, 0, spanMinutes * MIN, now - openedMinutesAgo * MIN, now - idleMinutes * MIN, now))
                .isEqualTo(expected);
    }
}
