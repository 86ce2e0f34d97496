package io.logbloom.bench;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Fixed single-threaded workloads timed on demand: how fast this box runs right now. A shared machine slows down and
 * speeds up from minute to minute (other tenants, a sibling hyperthread, the memory they share), which moves every
 * figure of a round alike: a fresh server's push whose every function took half as long again, the compilers and the
 * collector too, is the box, not the code.
 *
 * <p>Two probes, as the two ways a box slows down: {@link #millis} times {@link #ROUNDS} steps of a 64-bit xorshift
 * generator folded into a multiply-add (the core's arithmetic; nothing allocated, the result kept so the compiler
 * cannot drop it); {@link #memoryMillis} times {@link #CHASE_STEPS} dependent reads through a random cycle over
 * {@link #CHASE_INTS} ints (128 MB; each read a cache miss, so memory latency). On 2026-12-07 neither moved (84-93
 * and 210-243 ms) around bar pushes that went 48.9-71.3 MB/s: what slows this box's pushes is not what they see.
 *
 * <p>Thread-safe: the chase's cycle is built once under the class's lock and only read after.
 */
final class CpuProbe {
    /** Steps per probe: about 90 ms on this project's 2-core box once compiled (86-96 ms idle, eight probes). */
    static final int ROUNDS = 50_000_000;

    /** Ints of the memory probe's cycle: 128 MB, far past any cache of the box. */
    static final int CHASE_INTS = 32 * 1024 * 1024;
    /** Dependent reads per memory probe: about 0.24 s on this project's box (232-240 ms idle; misses of cache and TLB). */
    static final int CHASE_STEPS = 1_000_000;
    private static int[] cycle;

    private CpuProbe() {}

    /** Runs the memory chase {@code times} times (the first builds the cycle and compiles) and returns the last's ms. */
    static double memoryMillis(int times) {
        int[] at = {0};
        return lastOf(times, () -> at[0] = chase(cycle(), at[0], CHASE_STEPS));
    }

    /** Follows {@code next} from {@code at} for {@code steps} reads; returns where it ends. */
    static int chase(int[] next, int at, int steps) {
        for (int i = 0; i < steps; i++) {
            at = next[at];
        }
        return at;
    }

    private static synchronized int[] cycle() {
        if (cycle == null) {
            cycle = randomCycle(CHASE_INTS, 42);
        }
        return cycle;
    }

    /** One cycle through all {@code n} slots in a random order (Sattolo's algorithm), deterministic for a seed. */
    static int[] randomCycle(int n, long seed) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }

    /** Runs the workload {@code times} times (the first ones compile it) and returns the last run's milliseconds. */
    static double millis(int times) {
        return lastOf(times, () -> work(ROUNDS));
    }

    /** Runs {@code probe} {@code times} times; the last run's milliseconds. Its results are kept so none is dropped. */
    private static double lastOf(int times, LongSupplier probe) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be >= 1, got " + times);
        }
        double last = 0;
        long sink = 0;
        for (int i = 0; i < times; i++) {
            long start = System.nanoTime();
            sink += probe.getAsLong();
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
