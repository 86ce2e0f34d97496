package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class CompilerSettleTest {
    /** A fake clock stepped by the test's steps, and compilers whose busy time the test sets per step. */
    private long nanos;
    private long compileMillis;

    private CompilerSettle settle() {
        return new CompilerSettle(() -> compileMillis, () -> nanos);
    }

    @Test
    void repeat_endsInTheFirstWindowTheCompilersSpentLessThanAFifthOf() throws Exception {
        // 100 ms steps; the compilers busy 90 ms of each for the first 25 steps, then 10 ms
        int[] steps = {0};
        CompilerSettle.Outcome outcome = settle().repeat(() -> {
            nanos += 100_000_000L;
            compileMillis += steps[0]++ < 25 ? 90 : 10;
            return true;
        }, Duration.ofSeconds(60));
        // windows close after steps 10, 20, 30 (steps 21-25 at 90 ms and 26-30 at 10: 500 ms of the third, above 200)
        // and 40 (100 ms: quiet)
        assertThat(outcome.quiet()).isTrue();
        assertThat(outcome.steps()).isEqualTo(40);
        assertThat(outcome.seconds()).isEqualTo(4.0);
    }

    @Test
    void repeat_justUnderTheShare_isQuiet_atTheShare_isNot() throws Exception {
        long[] perStep = {20};
        CompilerSettle.Step step = () -> {
            nanos += 100_000_000L;
            compileMillis += perStep[0];
            return true;
        };
        // 20 ms of every 100: exactly a fifth, not quiet; the budget ends it
        CompilerSettle.Outcome atShare = settle().repeat(step, Duration.ofSeconds(3));
        assertThat(atShare.quiet()).isFalse();
        assertThat(atShare.steps()).isEqualTo(30);
        perStep[0] = 19;
        CompilerSettle.Outcome under = settle().repeat(step, Duration.ofSeconds(3));
        assertThat(under.quiet()).isTrue();
        assertThat(under.steps()).isEqualTo(10);
    }

    @Test
    void repeat_stopsWhenTheStepHasNothingMoreToSend() throws Exception {
        int[] left = {3};
        CompilerSettle.Outcome outcome = settle().repeat(() -> {
            nanos += 1_000_000L;
            compileMillis += 1;
            return left[0]-- > 0;
        }, Duration.ofSeconds(60));
        assertThat(outcome.steps()).isEqualTo(3);
        assertThat(outcome.quiet()).isFalse();
    }

    @Test
    void repeat_zeroOrNegativeBudget_runsNoStep() throws Exception {
        // the warm-up's query phase gets what the push phase left, which a slow last push can make negative
        for (Duration budget : new Duration[] {Duration.ZERO, Duration.ofMillis(-300)}) {
            CompilerSettle.Outcome outcome = settle().repeat(() -> {
                throw new AssertionError("no step expected");
            }, budget);
            assertThat(outcome.steps()).isZero();
            assertThat(outcome.quiet()).isFalse();
        }
    }

    @Test
    void ofThisJvm_measuresThisJvmsCompilers() {
        // the test JVM runs with its JIT on, and HotSpot times its compilers
        assertThat(CompilerSettle.ofThisJvm()).isPresent();
    }
}
