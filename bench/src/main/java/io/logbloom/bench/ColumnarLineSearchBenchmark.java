package io.logbloom.bench;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.ColumnarScanBuffers;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.RangeSource;
import io.logbloom.loadtest.GeneratorConfig;
import io.logbloom.loadtest.LogGenerator;
import io.logbloom.loadtest.LogStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * JMH: a line filter's search of one tokenized line column ({@code ColumnarBlock.rowsContaining}) over a block of
 * {@code shape} lines (QueryScanReport's, whose block 995000 holds the needle {@code ts=1000000 }, or the load test's
 * from all streams), written as the merger writes (smallest encodings, zstd 9). {@code scan} inflates the column's
 * sections into reused buffers on every call, as a query over more blocks than the cache holds does (two blocks of the
 * same lines take turns, as the buffers skip inflating the block they hold); {@code kept} searches sections inflated
 * once, so {@code scan - kept} is what inflating costs. The {@code rows} secondary result is rows searched per second.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ColumnarLineSearchBenchmark}. The setup checks every
 * literal's answer against a substring search of the decoded lines. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ColumnarLineSearchBenchmark {
    /** The literals of QueryScanReport's line filters: a status, a status prefix, a word, a one-line needle. */
    @Param({"status=500", "status=5", "retry", "ts=1000000 "})
    String literal;

    /**
     * {@code scan}: QueryScanReport's logfmt lines (a status of 200 to 500 in every line); {@code loadtest}: the load
     * test's logfmt, JSON and plain lines of all its streams; {@code loadtest-info}: those of its info streams only, as
     * the block of one such stream holds them (statuses 200-304, so the ranges rule {@code status=500} out).
     */
    @Param({"scan", "loadtest", "loadtest-info"})
    String shape;

    private byte[] needle;
    private final ColumnarBlock[] scanned = new ColumnarBlock[2];
    private int turn;
    private ColumnarBlock kept;
    private final ColumnarScanBuffers buffers = new ColumnarScanBuffers();

    /** Rows searched, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Throughput {
        /** Rows searched. */
        public long rows;
    }

    /** Builds one block of mixed lines and checks the search against the decoded lines. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ColumnarConfig config = ColumnarConfig.defaults().withZstdLevel(9);
        ColumnarRows rows = shape.equals("scan") ? scanRows(config)
                : loadTestRows(config, shape.equals("loadtest-info"));
        byte[] object = ColumnarObjectWriter.write(config, Map.of(Labels.of("job", "bench"), rows));
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("bench", object));
        if (reader.directory().blocks().size() != 1) {
            throw new IllegalStateException("rows did not fit one block");
        }
        needle = literal.getBytes(StandardCharsets.UTF_8);
        scanned[0] = reader.readBlockLazily(0);
        scanned[1] = reader.readBlockLazily(0);
        kept = reader.readBlockLazily(0);
        ColumnarLines lines = reader.readLines(0);
        boolean[] expected = new boolean[lines.rows()];
        for (int row = 0; row < expected.length; row++) {
            expected[row] = new String(lines.bytes(), lines.offset(row), lines.length(row), StandardCharsets.UTF_8)
                    .contains(literal);
        }
        if (!java.util.Arrays.equals(scanned[0].rowsContaining(needle, buffers), expected)
                || !java.util.Arrays.equals(kept.rowsContaining(needle), expected)) {
            throw new IllegalStateException("the token search disagrees with a substring search for " + literal);
        }
    }

    private static ColumnarRows scanRows(ColumnarConfig config) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        ColumnarRows rows = new ColumnarRows();
        for (long n = 995_000; ; n++) {
            String traceId = Long.toHexString(rnd.nextLong() | Long.MIN_VALUE) + Long.toHexString(n);
            String line = QueryScanReport.line(rnd, n);
            if (rows.rawBytes() + line.length() + 8 + 8 + traceId.length() > config.maxRawBytesPerBlock()) {
                return rows;
            }
            rows.append(1_760_000_000_000_000_000L + n, line, List.of(new Label("trace_id", traceId)));
        }
    }

    private static ColumnarRows loadTestRows(ColumnarConfig config, boolean infoOnly) {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(42, "bench", 100, 1000, false, 85));
        LogGenerator.Lane lane = generator.lane(0, 1, () -> Instant.ofEpochSecond(1_760_000_000L));
        ColumnarRows rows = new ColumnarRows();
        while (true) {
            for (LogStream stream : lane.next().streams()) {
                if (infoOnly && !"info".equals(stream.labels().get("level"))) {
                    continue;
                }
                for (io.logbloom.loadtest.LogEntry entry : stream.entries()) {
                    long rowRaw = entry.line().getBytes(StandardCharsets.UTF_8).length + 8 + 32;
                    if (rows.rawBytes() + rowRaw > config.maxRawBytesPerBlock()) {
                        return rows;
                    }
                    rows.append(rows.size() == 0 ? entry.timestampNanos() : rows.timestampNanos(rows.size() - 1) + 1,
                            entry.line(), List.of(new Label("trace_id", entry.traceId())));
                }
            }
        }
    }

    /** Searches the block, inflating its sections into the reused buffers. */
    @Benchmark
    public boolean[] scan(Throughput throughput) {
        ColumnarBlock block = scanned[turn];
        turn ^= 1;
        throughput.rows += block.rows();
        return block.rowsContaining(needle, buffers);
    }

    /** Searches the block's sections inflated once. */
    @Benchmark
    public boolean[] kept(Throughput throughput) {
        throughput.rows += kept.rows();
        return kept.rowsContaining(needle);
    }
}
