package io.logbloom.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measures our partitioned and scalable filters against Guava's and fastfilter's blocked bloom filter in one run.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.BloomReport --items 1000000 --fpp 0.01}.
 * Each filter is sized for N items at the target rate, gets N random member keys, and is tested
 * with N other keys (the false-positive rate) and with the N members (which must all hit). Times
 * are taken per batch of {@value #BATCH} operations as the thread's CPU time (so that time the
 * scheduler gives other processes on a shared machine is not counted; wall time when the JVM
 * cannot measure CPU time) and reported as the median batch's nanoseconds per operation, after a warm-up run of every filter so the JIT has
 * compiled all of them. {@code test_ns} is the time to test an absent key (the common case when a
 * query skips chunks); {@code test_hit_ns} the time to test a member. One JSON object per filter
 * and line: {@code name, items, fpp_target, fpp_measured, bits_per_item, add_ns, test_ns,
 * test_hit_ns, clock, details}. The scalable filter starts at N/63 and grows five times to hold N exactly; it
 * spends more bits because its sub-filters are tightened so that the compound rate stays at the
 * target, and each test probes all six sub-filters.
 *
 * <p>Single-threaded; not thread-safe (a command-line entry point).
 */
public final class BloomReport {
    private static final int BATCH = 1000;
    private static final long SEED = 42;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_CLOCK =
            THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

    private BloomReport() {}

    private static long now() {
        return CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /** Parses {@code --items N --fpp P} and prints one JSON line per filter. */
    public static void main(String[] args) throws JsonProcessingException {
        int items = 1_000_000;
        double fpp = 0.01;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + arg);
            }
            String value = args[++i];
            switch (arg) {
                case "--items" -> items = Integer.parseInt(value);
                case "--fpp" -> fpp = Double.parseDouble(value);
                default -> throw new IllegalArgumentException("unknown option " + arg + ", expected --items N --fpp P");
            }
        }
        if (items < BATCH) {
            throw new IllegalArgumentException("--items must be at least " + BATCH + ", got " + items);
        }
        if (!(fpp > 0 && fpp < 1)) {
            throw new IllegalArgumentException("--fpp must be in (0, 1), got " + fpp);
        }
        String[] members = BloomKeys.members(SEED, items);
        String[] absent = BloomKeys.absent(SEED, items);

        int warmupItems = Math.max(BATCH, items / 8);
        for (int round = 0; round < 2; round++) {
            for (String name : BloomCandidate.NAMES) {
                measure(BloomCandidate.create(name, warmupItems, fpp), members, absent, warmupItems);
            }
        }
        ObjectMapper json = new ObjectMapper();
        for (String name : BloomCandidate.NAMES) {
            BloomCandidate candidate = BloomCandidate.create(name, items, fpp);
            Measurement m = measure(candidate, members, absent, items);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", name);
            row.put("items", items);
            row.put("fpp_target", fpp);
            row.put("fpp_measured", (double) m.falsePositives() / items);
            row.put("bits_per_item", round((double) candidate.bitCount() / items));
            row.put("add_ns", round(m.addNs()));
            row.put("test_ns", round(m.testAbsentNs()));
            row.put("test_hit_ns", round(m.testMemberNs()));
            row.put("clock", CPU_CLOCK ? "thread_cpu" : "wall");
            row.put("details", candidate.details());
            System.out.println(json.writeValueAsString(row));
        }
    }

    private record Measurement(int falsePositives, double addNs, double testAbsentNs, double testMemberNs) {}

    private static Measurement measure(BloomCandidate candidate, String[] members, String[] absent, int items) {
        int batches = items / BATCH;
        double[] add = new double[batches];
        double[] testAbsent = new double[batches];
        double[] testMember = new double[batches];
        for (int b = 0; b < batches; b++) {
            long start = now();
            candidate.addAll(members, b * BATCH, (b + 1) * BATCH);
            add[b] = (double) (now() - start) / BATCH;
        }
        candidate.addAll(members, batches * BATCH, items);
        int falsePositives = 0;
        for (int b = 0; b < batches; b++) {
            long start = now();
            falsePositives += candidate.countContained(absent, b * BATCH, (b + 1) * BATCH);
            testAbsent[b] = (double) (now() - start) / BATCH;
        }
        falsePositives += candidate.countContained(absent, batches * BATCH, items);
        int hits = 0;
        for (int b = 0; b < batches; b++) {
            long start = now();
            hits += candidate.countContained(members, b * BATCH, (b + 1) * BATCH);
            testMember[b] = (double) (now() - start) / BATCH;
        }
        hits += candidate.countContained(members, batches * BATCH, items);
        if (hits != items) {
            throw new IllegalStateException(candidate.name() + " lost " + (items - hits) + " of " + items + " added keys");
        }
        return new Measurement(falsePositives, median(add), median(testAbsent), median(testMember));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
