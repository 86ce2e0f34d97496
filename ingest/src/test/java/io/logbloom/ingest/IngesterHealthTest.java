package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IngesterHealthTest {
    @Test
    void runGuarded_turnsAnOutOfMemoryErrorIntoTheFatalOutOfMemoryReason() {
        IngesterHealth health = new IngesterHealth();
        health.runGuarded("merge", () -> {
            throw new OutOfMemoryError("Java heap space");
        });
        assertThat(health.has(FatalReason.OUT_OF_MEMORY)).isTrue();
        assertThat(health.isFailed()).isTrue();
        assertThat(health.message()).hasValueSatisfying(m -> assertThat(m).contains(FatalReason.OUT_OF_MEMORY.label()));
    }

    @Test
    void runGuarded_turnsAnUnexpectedExceptionIntoTheFatalInternalReason() {
        IngesterHealth health = new IngesterHealth();
        health.runGuarded("seal", () -> {
            throw new IllegalStateException("BUG");
        });
        assertThat(health.has(FatalReason.INTERNAL)).isTrue();
        assertThat(health.has(FatalReason.OUT_OF_MEMORY)).isFalse();
    }

    @Test
    void runGuarded_leavesHealthAloneWhenTheTaskReturns() {
        IngesterHealth health = new IngesterHealth();
        boolean[] ran = {false};
        health.runGuarded("seal", () -> ran[0] = true);
        assertThat(ran[0]).isTrue();
        assertThat(health.isFailed()).isFalse();
        assertThat(health.message()).isEmpty();
    }
}
