package io.logbloom.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: time to test a key against a filter holding {@code items} keys, for a member (hit) and a non-member (miss).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar BloomTestBenchmark} (add {@code -p
 * items=1000000} to skip the 10M case). The filter is filled once per trial with {@code items}
 * keys generated a million at a time; tests cycle through 65536 sampled members and 65536
 * absent keys, so the bit array, not the key pool, dominates cache misses. The setup checks
 * that every sampled member hits and that the miss pool's false-positive rate is plausible.
 * Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BloomTestBenchmark {
    private static final int POOL = 1 << 16;
    private static final int CHUNK = 1_000_000;
    private static final long SEED = 7;

    @Param({"1000000", "10000000"})
    int items;

    @Param({"logbloom-partitioned", "logbloom-scalable", "guava", "guava-unencoded-chars", "fastfilter-blocked"})
    String filter;

    @Param("0.01")
    double fpp;

    private BloomCandidate candidate;
    private String[] members;
    private String[] absent;
    private int index;

    /** Fills the filter and checks it: no sampled member may miss, the misses' FP rate must be near the target. */
    @Setup
    public void setUp() {
        candidate = BloomCandidate.create(filter, items, fpp);
        members = new String[POOL];
        for (int start = 0, chunk = 0; start < items; start += CHUNK, chunk++) {
            String[] keys = BloomKeys.members(SEED + chunk, Math.min(CHUNK, items - start));
            candidate.addAll(keys, 0, keys.length);
            if (chunk == 0) {
                for (int i = 0; i < POOL; i++) {
                    members[i] = keys[(int) ((long) i * keys.length / POOL)];
                }
            }
        }
        absent = BloomKeys.absent(SEED, POOL);
        int hits = candidate.countContained(members, 0, POOL);
        if (hits != POOL) {
            throw new IllegalStateException(filter + " lost " + (POOL - hits) + " sampled members");
        }
        double falsePositiveRate = (double) candidate.countContained(absent, 0, POOL) / POOL;
        if (falsePositiveRate > 3 * fpp) {
            throw new IllegalStateException(filter + " false-positive rate " + falsePositiveRate + " for target " + fpp);
        }
    }

    /** Tests a key that was added. */
    @Benchmark
    public boolean testHit() {
        return candidate.mightContain(members[index++ & (POOL - 1)]);
    }

    /** Tests a key that was never added. */
    @Benchmark
    public boolean testMiss() {
        return candidate.mightContain(absent[index++ & (POOL - 1)]);
    }
}
