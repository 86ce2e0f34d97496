package io.logbloom.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: time to add a key to a filter sized for {@code items} keys at false-positive rate 0.01.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar BloomAddBenchmark} (add {@code -p
 * items=1000000} to skip the 10M case). Every iteration starts from an empty filter and adds keys
 * from a pool of 2^20 distinct keys in order; once the pool wraps within an iteration the adds
 * find their bits set, which every implementation handles with a read and no write, so the
 * comparison stays fair. The setup checks that added keys are found. Not thread-safe: one
 * benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BloomAddBenchmark {
    private static final int POOL = 1 << 20;

    @Param({"1000000", "10000000"})
    int items;

    @Param({"logbloom-partitioned", "logbloom-scalable", "guava", "guava-unencoded-chars", "fastfilter-blocked"})
    String filter;

    @Param("0.01")
    double fpp;

    private String[] keys;
    private BloomCandidate candidate;
    private int index;

    /** Generates the key pool once and checks that the chosen filter finds what it was given. */
    @Setup(Level.Trial)
    public void setUpTrial() {
        keys = BloomKeys.members(11, POOL);
        BloomCandidate check = BloomCandidate.create(filter, items, fpp);
        check.addAll(keys, 0, 1000);
        if (check.countContained(keys, 0, 1000) != 1000) {
            throw new IllegalStateException(filter + " lost added keys");
        }
    }

    /** Starts every iteration from an empty filter. */
    @Setup(Level.Iteration)
    public void setUpIteration() {
        candidate = BloomCandidate.create(filter, items, fpp);
        index = 0;
    }

    /** Adds the next key of the pool. */
    @Benchmark
    public void add() {
        candidate.add(keys[index++ & (POOL - 1)]);
    }
}
