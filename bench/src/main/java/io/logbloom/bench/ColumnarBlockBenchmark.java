package io.logbloom.bench;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.ColumnarScanBuffers;
import io.logbloom.chunks.ColumnarValues;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.ZstdInflater;
import io.logbloom.loadtest.GeneratorConfig;
import io.logbloom.loadtest.LogGenerator;
import io.logbloom.loadtest.LogStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * JMH: encode and decode of one columnar block of load-test rows (one stream, lines plus a unique
 * 128-bit {@code trace_id}, {@code rawKib} KiB of line and metadata bytes) per zstd level. The
 * {@code rawBytes} secondary result is raw bytes processed per second: divide by 10^6 for MB/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ColumnarBlockBenchmark}. The setup checks that
 * the block reads back as the rows it was built from. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ColumnarBlockBenchmark {
    /** The literal of {@link #containsLiteral}. */
    private static final byte[] STATUS_304 = "status=304".getBytes(StandardCharsets.UTF_8);

    @Param({"3", "9"})
    int zstdLevel;

    /** Raw KiB in the block: the default block bound. */
    @Param("256")
    int rawKib;

    /** How the reader inflates: a context per column ({@code perCall}) or reused ones ({@code pooled}). */
    @Param({"pooled", "perCall"})
    String inflater;

    private final Labels labels = Labels.of("job", "bench");
    private ColumnarRows rows;
    private ColumnarConfig config;
    private ColumnarObjectReader reader;
    private boolean[] wanted;
    private String needle;
    private final ColumnarScanBuffers scratch = new ColumnarScanBuffers();

    /** Generates one stream's rows up to the block bound and checks they round-trip as one block. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        config = new ColumnarConfig(ColumnarConfig.DEFAULT_MAX_ROWS_PER_BLOCK, rawKib * 1024, zstdLevel);
        LogGenerator generator = new LogGenerator(new GeneratorConfig(42, "bench", 1, 1000, false));
        LogGenerator.Lane lane = generator.lane(0, 1, () -> Instant.ofEpochSecond(1_760_000_000L));
        rows = new ColumnarRows();
        List<LogEntry> entries = new ArrayList<>();
        fill:
        while (true) {
            for (LogStream stream : lane.next().streams()) {
                for (io.logbloom.loadtest.LogEntry entry : stream.entries()) {
                    List<Label> metadata = List.of(new Label("trace_id", entry.traceId()));
                    long rowRaw = entry.line().getBytes(StandardCharsets.UTF_8).length + 8 + 32;
                    if (rows.rawBytes() + rowRaw > config.maxRawBytesPerBlock()) {
                        break fill;
                    }
                    rows.append(entry.timestampNanos(), entry.line(), metadata);
                    entries.add(new LogEntry(entry.timestampNanos(), entry.line(), metadata));
                }
            }
        }
        byte[] object = ColumnarObjectWriter.write(config, Map.of(labels, rows));
        reader = new ColumnarObjectReader(RangeSource.ofBytes("bench", object), null,
                inflater.equals("pooled") ? ZstdInflater.pooled(1) : ZstdInflater.perCall());
        wanted = new boolean[rows.size()];
        wanted[rows.size() / 2] = true;
        needle = entries.get(rows.size() / 2).metadata().get(0).value();
        long expected = entries.stream().filter(e -> e.line().contains("status=304")).count();
        boolean[] found = reader.readBlockLazily(0).rowsContaining(STATUS_304, scratch);
        long got = 0;
        for (boolean f : found) {
            got += f ? 1 : 0;
        }
        if (got != expected || expected == 0) {
            throw new IllegalStateException("status=304 rows: " + got + ", expected " + expected + " (none is no test)");
        }
        if (reader.directory().blocks().size() != 1 || !reader.entries(0).equals(entries)) {
            throw new IllegalStateException("block did not round-trip as one block");
        }
    }

    /** Encodes the rows into a one-block object. */
    @Benchmark
    public byte[] encode(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        return ColumnarObjectWriter.write(config, Map.of(labels, rows));
    }

    /** Reads and decodes the line column only, as a line filter would. */
    @Benchmark
    public Object decodeLines(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        return reader.readLines(0);
    }

    /**
     * What a needle does to the block that holds it: the block read lazily, its {@code trace_id} column decoded and
     * searched, and the one matching row's line rebuilt.
     */
    @Benchmark
    public Object needleRow(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        ColumnarBlock block = reader.readBlockLazily(0);
        ColumnarValues ids = block.metadata("trace_id");
        if (!needle.equals(ids.value(rows.size() / 2))) {
            throw new IllegalStateException("needle row lost");
        }
        return block.lines(wanted);
    }

    /**
     * What {@code |= "status=304"} (a rare status, as the bar's {@code status=500}) does to a block: the rows whose
     * line contains the literal, found on the tokenized line column, scan buffers reused as over many blocks.
     */
    @Benchmark
    public Object containsLiteral(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        return reader.readBlockLazily(0).rowsContaining(STATUS_304, scratch);
    }

    /** Reads and decodes every column of the block. */
    @Benchmark
    public Object decodeBlock(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        return reader.readBlock(0);
    }
}
