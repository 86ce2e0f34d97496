package io.logbloom.bench;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
import java.util.Iterator;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH: decode throughput of a chunk — parse the header, verify and decompress every block and
 * iterate all entries — per encoding and direction. The {@code rawBytes} secondary result is the raw
 * log text (lines plus metadata, UTF-8) decoded per second: divide by 10^6 for MB/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ChunkDecodeBenchmark}. The setup checks that
 * the chunk decodes to the entries it was built from. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ChunkDecodeBenchmark {
    @Param({"SNAPPY", "GZIP", "ZSTD", "NONE"})
    ChunkEncoding encoding;

    @Param({"FORWARD", "BACKWARD"})
    Direction direction;

    /** Entries per chunk: about 6 MB of raw text. */
    @Param("25000")
    int entries;

    private byte[] encoded;
    private long rawBytesPerChunk;

    /** Builds and encodes the chunk and checks it decodes to the same entries. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        List<LogEntry> stream = ChunkLogGenerator.entries(42, entries);
        MemChunk chunk = new MemChunk(
                new ChunkConfig(ChunkConfig.DEFAULT_BLOCK_SIZE_BYTES, ChunkConfig.MAX_TARGET_SIZE_BYTES, encoding));
        stream.forEach(chunk::append);
        rawBytesPerChunk = chunk.uncompressedBytes();
        encoded = chunk.encode();
        if (!Chunk.decode(encoded).entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD).equals(stream)) {
            throw new IllegalStateException("chunk with " + encoding + " did not round-trip");
        }
    }

    /** Decodes the chunk and consumes every entry. */
    @Benchmark
    public void decodeAll(RawBytesPerSecond throughput, Blackhole blackhole) throws Exception {
        Iterator<LogEntry> iterator = Chunk.decode(encoded).iterator(Long.MIN_VALUE, Long.MAX_VALUE, direction);
        while (iterator.hasNext()) {
            blackhole.consume(iterator.next());
        }
        throughput.rawBytes += rawBytesPerChunk;
    }
}
