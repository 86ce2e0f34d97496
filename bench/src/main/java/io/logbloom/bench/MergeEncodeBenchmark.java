package io.logbloom.bench;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LineWords;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.ingest.SeriesBloomWriter;
import io.logbloom.loadtest.GeneratorConfig;
import io.logbloom.loadtest.LogGenerator;
import io.logbloom.loadtest.LogStream;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
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
 * JMH: what a merge spends writing one stream into a stored object: load-test rows (lines plus a unique
 * {@code trace_id}, {@code rawMib} MiB) encoded in the stored objects' format ({@link Ingester#storedObjectFormat}:
 * 1 MiB blocks, zstd 9) with the series bloom's tokens collected per block, as {@code PartMerger} does:
 * {@code blooms=none} without them, {@code linesScanned} with the bloom tokenizer scanning each line for its words,
 * {@code wordsSplit} taking the words the line encoder splits anyway ({@link LineWords}). {@code encoders}: blocks
 * encoded at once on a pool of that many threads while the benchmark thread cuts the next and writes the encoded ones
 * ({@code ingester.merge_concurrency}), or 0 for each block encoded on the benchmark thread as it is cut (the writer
 * before merges encoded in parallel). The {@code rawBytes} secondary result is raw bytes per second of wall time:
 * divide by 10^6 for MB/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar MergeEncodeBenchmark}; the encoders alone:
 * {@code -p blooms=wordsSplit}. Not thread-safe: one thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class MergeEncodeBenchmark {
    private static final String OBJECT_KEY = "bench/objects/merged.lbo";
    private static final long T0 = 1_760_000_000_000_000_000L;

    @Param({"none", "linesScanned", "wordsSplit"})
    String blooms;

    /** Raw MiB of the stream: several blocks. */
    @Param("8")
    int rawMib;

    /** Threads encoding blocks at once, 0 for none (each block encoded on the writer's thread). */
    @Param({"0", "1", "2"})
    int encoders;

    private java.util.concurrent.ExecutorService pool;

    private final Labels labels = Labels.of("job", "bench");
    private ColumnarRows rows;
    private ColumnarConfig config;
    private SeriesBloomWriter bloomWriter;

    /** Generates the stream's rows; the blooms live in a temporary directory's store. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        java.nio.file.Path dir = TempTrees.createDeletedOnExit("merge-encode-bench");
        config = Ingester.storedObjectFormat(IngestConfig.defaults(dir.resolve("wal")));
        LogGenerator generator = new LogGenerator(new GeneratorConfig(42, "bench", 1, 1000, false));
        LogGenerator.Lane lane = generator.lane(0, 1, () -> Instant.ofEpochSecond(1_760_000_000L));
        rows = new ColumnarRows();
        while (rows.rawBytes() < (long) rawMib << 20) {
            for (LogStream stream : lane.next().streams()) {
                for (io.logbloom.loadtest.LogEntry entry : stream.entries()) {
                    rows.append(entry.timestampNanos(), entry.line(), List.of(new Label("trace_id", entry.traceId())));
                }
            }
        }
        SeriesBloomStore store = new SeriesBloomStore(new FileSystemObjectStore(dir.resolve("store")));
        bloomWriter = new SeriesBloomWriter(new BloomTokenizer(BloomTokenizerConfig.defaults()), BloomConfig.defaults(),
                store, 256L << 20);
        pool = encoders == 0 ? null : java.util.concurrent.Executors.newFixedThreadPool(encoders, r -> {
            Thread t = new Thread(r, "bench-encoder");
            t.setDaemon(true);
            return t;
        });
    }

    @org.openjdk.jmh.annotations.TearDown(Level.Trial)
    public void tearDown() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    /** Writes the stream as one object (to nowhere), with its bloom tokens as {@link #blooms} says. */
    @Benchmark
    public Object encode(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rows.rawBytes();
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(OutputStream.nullOutputStream(), config, pool,
                Math.max(1, encoders))) {
            if (blooms.equals("none")) {
                writer.add(labels, rows);
                return writer.finish();
            }
            SeriesBloomWriter.ObjectTokens tokens = bloomWriter.start("bench", labels.fingerprint(), T0, OBJECT_KEY);
            writer.add(labels, rows, blooms.equals("wordsSplit") ? tokens
                    : (blockIndex, blockRows, order, from, to, words) -> tokens.block(blockIndex, blockRows, order,
                            from, to, null)); // no word rule: the writer splits nothing, the tokenizer scans lines
            tokens.finish(); // the writer finished them already when they were its sink
            return writer.finish();
        }
    }
}
