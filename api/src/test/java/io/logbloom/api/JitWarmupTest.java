package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

final class JitWarmupTest {
    @Test
    void run_pushesFlushesAndQueriesAPrivateServer_everyAnswerRight_andLeavesNoDirectoryBehind() throws Exception {
        Set<Path> before = warmupDirs();
        JitWarmup.Report report = new JitWarmup(3_500, 30, Duration.ZERO, CompilerSettle.ofThisJvm(), Clock.systemUTC())
                .run();
        assertThat(report.lines()).isEqualTo(3_500);
        assertThat(report.settleSeconds()).isZero();
        assertThat(report.settled()).isFalse();
        // the needles must find their one line and every other query must answer 200: a warm-up that
        // exercised a broken path would count failures here
        assertThat(report.queries()).isEqualTo(30);
        assertThat(report.failedQueries()).isZero();
        assertThat(report.seconds()).isGreaterThanOrEqualTo(report.pushSeconds() + report.flushSeconds());
        // its bloom cache holds a part of the blooms: queries keep loading blooms (550-600 times here)
        // and also find some cached; a cache holding them all reads each series' bloom once (100), and later rounds'
        // objects are picked up by reloads, which are not lookups
        assertThat(report.bloomsLoaded()).isGreaterThan(3L * WarmupTraffic.STREAMS);
        assertThat(report.bloomsCached()).isPositive();
        assertThat(warmupDirs()).isEqualTo(before);
    }

    @Test
    void runQuietly_reportsWhatRan() {
        JitWarmup.Report report = new JitWarmup(1_000, 4, Duration.ZERO, Optional.empty(), Clock.systemUTC())
                .runQuietly();
        assertThat(report.lines()).isEqualTo(1_000);
        assertThat(report.queries()).isEqualTo(4);
    }

    @Test
    void settle_pushesThenQueriesUntilTheCompilersGoQuiet_everyAnswerRight() throws Exception {
        // compilers that are never quiet: each phase runs until its share of the budget is spent
        long[] nanos = {0};
        CompilerSettle busy = new CompilerSettle(() -> nanos[0] / 1_000_000L, () -> nanos[0] += 100_000_000L);
        JitWarmup.Report report = new JitWarmup(2_000, 8, Duration.ofSeconds(4), Optional.of(busy), Clock.systemUTC())
                .run();
        // the push phase gets half the budget: 2 s of 0.1 s steps (the clock advancing twice per step)
        assertThat(report.lines()).isGreaterThan(2_000).isLessThanOrEqualTo(2_000 + 10 * 1_000);
        assertThat(report.queries()).isGreaterThan(8);
        assertThat(report.failedQueries()).isZero();
        assertThat(report.settleSeconds()).isGreaterThanOrEqualTo(3.9);
        assertThat(report.settled()).isFalse();
    }

    @Test
    void batchIsPast_onlyWhenItsLastLineIsBeforeNow() {
        long now = 10_000_000_000L;
        long batchSpan = WarmupTraffic.BATCH_LINES * WarmupTraffic.LINE_INTERVAL_NANOS;
        assertThat(JitWarmup.batchIsPast(now - batchSpan - 1, now)).isTrue();
        assertThat(JitWarmup.batchIsPast(now - batchSpan, now)).isFalse();
        assertThat(JitWarmup.batchIsPast(now, now)).isFalse();
    }

    @Test
    void queriesFor_scalesWithLines_atLeast20_atMost1000() {
        assertThat(JitWarmup.queriesFor(1)).isEqualTo(20);
        assertThat(JitWarmup.queriesFor(20_000)).isEqualTo(1_000);
        assertThat(JitWarmup.queriesFor(10_000)).isEqualTo(500);
        assertThat(JitWarmup.queriesFor(200_000)).isEqualTo(1_000);
    }

    @Test
    void rounds_oneUpToFourBatches_thenFour() {
        assertThat(JitWarmup.rounds(1)).isEqualTo(1);
        assertThat(JitWarmup.rounds(2_999)).isEqualTo(2);
        assertThat(JitWarmup.rounds(20_000)).isEqualTo(4);
        assertThat(JitWarmup.rounds(10_000_000)).isEqualTo(4);
    }

    @Test
    void badSizes_rejected() {
        assertThatThrownBy(() -> new JitWarmup(0, 1, Duration.ZERO, Optional.empty(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lines >= 1");
        assertThatThrownBy(() -> new JitWarmup(1, -1, Duration.ZERO, Optional.empty(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JitWarmup(1, 1, Duration.ofSeconds(-1), Optional.empty(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("settle");
    }

    private static Set<Path> warmupDirs() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("logbloom-warmup")).collect(Collectors.toSet());
        }
    }
}
