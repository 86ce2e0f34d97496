package io.logbloom.bench;

/**
 * A fixed single-threaded workload timed on demand: how fast this box's CPU runs right now. A shared machine's cores
 * slow down and speed up from minute to minute (other tenants, a sibling hyperthread), which moves every figure of a
 * round alike: a fresh server's push whose every function took half as long again, the compilers and the collector
 * too, is the box, not the code. A report that probes before and after each phase can tell the two apart.
 *
 * <p>The work: {@link #ROUNDS} steps of a 64-bit xorshift generator folded into a multiply-add, the same instructions
 * on every call, nothing allocated, its result returned so the compiler cannot drop it.
 *
 * <p>Thread-safe: stateless.
 */
final class CpuProbe {
    /** Steps per probe: about 90 ms on this project's 2-core box once compiled (86-96 ms idle, eight probes). */
    static final int ROUNDS = 50_000_000;

    private CpuProbe() {}

    /** Runs the workload {@code times} times (the first ones compile it) and returns the last run's milliseconds. */
    static double millis(int times) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be >= 1, got " + times);
        }
        double last = 0;
        long sink = 0;
        for (int i = 0; i < times; i++) {
            long start = System.nanoTime();
            sink += work(ROUNDS);
            last = (System.nanoTime() - start) / 1e6;
        }
        if (sink == 42) { // never: keeps the work observable
            System.out.print("");
        }
        return last;
    }

    /** The workload: deterministic for a step count (tests pin its value). */
    static long work(int rounds) {
        long x = 0x9E3779B97F4A7C15L;
        long acc = 1;
        for (int i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            acc = acc * 31 + x;
        }
        return acc;
    }
}
