package io.logbloom.bench;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
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
 * JMH: encode throughput of a chunk — append a stream's entries into a {@link MemChunk} (head
 * blocks cut and compressed every 256 KiB) and encode it — per encoding. The {@code rawBytes}
 * secondary result is the raw log text (lines plus metadata, UTF-8) encoded per second: divide by
 * 10^6 for MB/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ChunkEncodeBenchmark}. The setup checks that
 * the encoded chunk decodes to the same entries. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ChunkEncodeBenchmark {
    @Param({"SNAPPY", "GZIP", "ZSTD", "NONE"})
    ChunkEncoding encoding;

    /** Entries per chunk: about 6 MB of raw text, one default 1.5 MiB-target chunk with snappy. */
    @Param("25000")
    int entries;

    private List<LogEntry> stream;
    private long rawBytesPerChunk;
    private ChunkConfig config;

    /** Generates the stream and checks that an encoded chunk reads back identically. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        stream = ChunkLogGenerator.entries(42, entries);
        config = new ChunkConfig(ChunkConfig.DEFAULT_BLOCK_SIZE_BYTES, ChunkConfig.MAX_TARGET_SIZE_BYTES, encoding);
        MemChunk chunk = new MemChunk(config);
        stream.forEach(chunk::append);
        rawBytesPerChunk = chunk.uncompressedBytes();
        List<LogEntry> decoded = Chunk.decode(chunk.encode()).entries(Long.MIN_VALUE, Long.MAX_VALUE,
                Direction.FORWARD);
        if (!decoded.equals(stream)) {
            throw new IllegalStateException("chunk with " + encoding + " did not round-trip");
        }
    }

    /** Appends the whole stream to a fresh chunk and encodes it. */
    @Benchmark
    public byte[] appendAndEncode(RawBytesPerSecond throughput) {
        MemChunk chunk = new MemChunk(config);
        for (LogEntry entry : stream) {
            chunk.append(entry);
        }
        throughput.rawBytes += rawBytesPerChunk;
        return chunk.encode();
    }
}
