package io.logbloom.api;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Repeats a warm-up step until the JVM's just-in-time compilers go quiet (they spent less than
 * {@link #QUIET_SHARE} of the last {@link #WINDOW} compiling) or a time budget is spent.
 *
 * <p>Why: on two cores the one C2 thread is the warm-up's bottleneck. While its queue is long the JVM raises the
 * compile thresholds and drops queued methods that stopped running, so a warm-up of a fixed size leaves most of the
 * push path to be compiled during the first real load (3.5-4 s of C2 during a 3 M-line push) and the query path
 * during the first needles. Repeating the step until the compilers have nothing left to do moves that work before
 * {@code /ready}.
 *
 * <p>Not thread-safe.
 */
final class CompilerSettle {
    /** The window over which the compilers' activity is measured. */
    static final Duration WINDOW = Duration.ofSeconds(1);
    /** The compilers are quiet when they compiled for less than this share of a window. */
    static final double QUIET_SHARE = 0.2;

    private final LongSupplier compileMillis;
    private final LongSupplier nanoTime;

    /**
     * @param compileMillis total time the compilers have spent so far, in ms ({@link CompilationMXBean})
     * @param nanoTime      a monotonic clock in ns
     */
    CompilerSettle(LongSupplier compileMillis, LongSupplier nanoTime) {
        this.compileMillis = Objects.requireNonNull(compileMillis, "compileMillis is null");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime is null");
    }

    /** This JVM's compilers, or empty when it has none or does not time them (then there is nothing to wait for). */
    static Optional<CompilerSettle> ofThisJvm() {
        CompilationMXBean compilers = ManagementFactory.getCompilationMXBean();
        if (compilers == null || !compilers.isCompilationTimeMonitoringSupported()) {
            return Optional.empty();
        }
        return Optional.of(new CompilerSettle(compilers::getTotalCompilationTime, System::nanoTime));
    }

    /** One step of warm-up traffic. */
    @FunctionalInterface
    interface Step {
        /** Runs the step; false when there is nothing more to send (the loop ends). */
        boolean run() throws IOException, InterruptedException;
    }

    /**
     * What a {@link #repeat} did.
     *
     * @param steps   steps run
     * @param quiet   whether it ended because the compilers went quiet
     * @param seconds wall-clock time it took
     */
    record Outcome(int steps, boolean quiet, double seconds) {}

    /**
     * Runs {@code step} until the compilers go quiet, the step has nothing more to send, or {@code budget} is spent (at
     * once when it is zero or negative).
     */
    Outcome repeat(Step step, Duration budget) throws IOException, InterruptedException {
        long start = nanoTime.getAsLong();
        long budgetNanos = budget.toNanos();
        long windowNanos = WINDOW.toNanos();
        long windowStart = start;
        long windowCompileMillis = compileMillis.getAsLong();
        int steps = 0;
        while (nanoTime.getAsLong() - start < budgetNanos) {
            if (!step.run()) {
                break;
            }
            steps++;
            long now = nanoTime.getAsLong();
            if (now - windowStart >= windowNanos) {
                long compiled = compileMillis.getAsLong();
                if ((compiled - windowCompileMillis) * 1e6 < QUIET_SHARE * (now - windowStart)) {
                    return new Outcome(steps, true, (now - start) / 1e9);
                }
                windowStart = now;
                windowCompileMillis = compiled;
            }
        }
        return new Outcome(steps, false, (nanoTime.getAsLong() - start) / 1e9);
    }
}
