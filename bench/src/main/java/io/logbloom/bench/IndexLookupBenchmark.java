package io.logbloom.bench;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.index.HeadIndex;
import io.logbloom.index.IndexFileReader;
import io.logbloom.index.IndexFileWriter;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * Label-index lookups by stream selector over the in-memory head and over an opened index file with
 * the same content: {@code seriesCount} series labelled like Kubernetes pods (100 apps, 3 envs,
 * a unique pod each), four chunk refs per series spread over one day, queries over one hour.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar IndexLookupBenchmark -f 1 -wi 3 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class IndexLookupBenchmark {
    private static final String TENANT = "bench";
    private static final long HOUR = 3_600_000_000_000L;

    @Param({"10000"})
    public int seriesCount;

    @Param({"head", "file"})
    public String implementation;

    private IndexReader index;
    private final List<LabelMatcher> equality = List.of(LabelMatcher.equal("app", "app42"), LabelMatcher.equal("env", "prod"));
    private final List<LabelMatcher> regex = List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "pod", "pod-12.*"));
    private final List<LabelMatcher> negative = List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", "app[1-3].*"),
            LabelMatcher.of(LabelMatcher.MatchType.NOT_EQUAL, "env", "dev"));
    private final long from = 10 * HOUR;
    private final long through = 11 * HOUR;

    @Setup
    public void setUp() throws IOException {
        Random random = new Random(7);
        HeadIndex head = new HeadIndex();
        String[] envs = {"prod", "dev", "staging"};
        for (int i = 0; i < seriesCount; i++) {
            Labels labels = Labels.of(Map.of("app", "app" + (i % 100), "env", envs[(i / 100) % 3], "pod", "pod-" + i,
                    "namespace", "ns" + (i % 7)));
            for (int r = 0; r < 4; r++) {
                long start = (long) (random.nextDouble() * 23 * HOUR);
                head.add(TENANT, labels, new ChunkRef(TENANT, labels.fingerprint(), start, start + HOUR / 2,
                        random.nextInt(), 100_000, 1000));
            }
        }
        byte[] file = new IndexFileWriter().write(TENANT, 0, 24 * HOUR,
                head.chunks(TENANT, List.of(), Long.MIN_VALUE, Long.MAX_VALUE));
        IndexFileReader reader = IndexFileReader.open("bench.idx", file);
        for (List<LabelMatcher> selector : List.of(equality, regex, negative)) {
            List<SeriesChunks> expected = head.chunks(TENANT, selector, from, through);
            if (expected.isEmpty() || !expected.equals(reader.chunks(TENANT, selector, from, through))) {
                throw new IllegalStateException("BUG: head and file disagree or select nothing for " + selector);
            }
        }
        index = implementation.equals("head") ? head : reader;
    }

    /** Two equality matchers: selects about a third of one app's series. */
    @Benchmark
    public List<SeriesChunks> chunksByEquality() throws IOException {
        return index.chunks(TENANT, equality, from, through);
    }

    /** A regex over the high-cardinality pod label: every distinct value is tested. */
    @Benchmark
    public List<SeriesChunks> chunksByRegex() throws IOException {
        return index.chunks(TENANT, regex, from, through);
    }

    /** A regex plus a negative matcher that removes a posting list. */
    @Benchmark
    public List<SeriesChunks> chunksByRegexAndNotEqual() throws IOException {
        return index.chunks(TENANT, negative, from, through);
    }

    /** Values of a label over all series with data in the hour (Grafana's label browser). */
    @Benchmark
    public List<String> labelValuesAll() throws IOException {
        return index.labelValues(TENANT, "app", List.of(), from, through);
    }
}
