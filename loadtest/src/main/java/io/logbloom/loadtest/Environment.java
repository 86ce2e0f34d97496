package io.logbloom.loadtest;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Objects;

/**
 * What a command talks to outside itself, injected so tests capture output and control time.
 *
 * <p>Thread-safe: its streams and clock are.
 *
 * @param out receives the JSON report and comparison tables
 * @param err receives progress and the human summary
 * @param clock wall clock for timestamps and the run's start time
 * @param interactive whether {@code err} is a terminal (progress overwrites one line)
 * @param handleInterrupt whether Ctrl-C should stop the run cleanly with a report (a JVM shutdown hook)
 */
record Environment(PrintStream out, PrintStream err, Clock clock, boolean interactive, boolean handleInterrupt) {
    Environment {
        Objects.requireNonNull(out, "out is null");
        Objects.requireNonNull(err, "err is null");
        Objects.requireNonNull(clock, "clock is null");
    }

    /** Returns the environment of the real process. */
    static Environment system() {
        return new Environment(System.out, System.err, Clock.systemUTC(), System.console() != null, true);
    }

    /** Returns the current wall-clock time in Unix epoch nanoseconds. */
    long epochNanos() {
        java.time.Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
