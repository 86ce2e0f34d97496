package io.logbloom.bench;

import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.proto.PushProto;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.xerial.snappy.Snappy;

/**
 * JMH: the write path without HTTP — decode a pre-encoded snappy-protobuf push of 1000 lines over
 * 100 streams (~200-byte loadtest-like lines, a unique 32-hex {@code trace_id} in each entry's
 * structured metadata) and {@link Ingester#push} it (validation, limits, dedupe, WAL with fsync per
 * request, chunks; the flush loop runs as in production). Each pass over the pre-encoded bodies
 * shifts the timestamps past the previous pass (a cheap copy of the decoded entries, part of every
 * measured operation), so the duplicate filter never short-cuts an entry. The {@code rawBytes}
 * secondary result is raw log bytes (lines plus metadata) per second: divide by 10^6 for MB/s.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar IngestPushBenchmark}. The setup checks that
 * one push is accepted whole. Thread-safe state shared by the benchmark threads (the ingester is).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Threads(2)
public class IngestPushBenchmark {
    private static final int STREAMS = 100;
    private static final int BATCH_LINES = 1000;
    private static final int BODIES = 64;

    @Param({"SNAPPY", "ZSTD"})
    ChunkEncoding encoding;

    private final List<byte[]> bodies = new ArrayList<>();
    private final AtomicLong next = new AtomicLong();
    private long rawBytesPerBody;
    private Path dir;
    private Ingester ingester;
    private PushDecoder decoder;

    /** Builds the bodies, opens an ingester on a temporary directory and checks one push. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Random random = new Random(42);
        long base = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
        long raw = 0;
        for (int b = 0; b < BODIES; b++) {
            PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
            for (int s = 0; s < STREAMS; s++) {
                PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                        .setLabels("{job=\"loadtest\", service=\"svc-" + (s % 12) + "\", pod=\"pod-" + s + "\"}");
                for (int l = 0; l < BATCH_LINES / STREAMS; l++) {
                    long ts = base + ((long) b * BATCH_LINES + l) * 1000L;
                    String line = PushReport.logLine(random, b, s, l);
                    String traceId = String.format("%016x%016x", random.nextLong(), random.nextLong());
                    raw += line.getBytes(StandardCharsets.UTF_8).length + "trace_id".length() + traceId.length();
                    stream.addEntries(PushProto.EntryAdapter.newBuilder().setLine(line)
                            .setTimestamp(com.google.protobuf.Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                    .setNanos((int) (ts % 1_000_000_000L)))
                            .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                                    .setValue(traceId)));
                }
                request.addStreams(stream);
            }
            bodies.add(Snappy.compress(request.build().toByteArray()));
        }
        rawBytesPerBody = raw / BODIES;
        dir = Files.createTempDirectory("ingest-push-benchmark");
        LimitsConfig d = LimitsConfig.defaults();
        LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, d.maxLineSizeBytes(), 15, 1024, 2048, true,
                d.rejectOldSamplesMaxAge(), d.creationGracePeriod(), 0, 0, 0, true);
        IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open)
                .withChunk(ChunkConfig.defaults().withEncoding(encoding));
        ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")), Clock.systemUTC(),
                new PrometheusRegistry());
        decoder = new PushDecoder();
        PushResult check = ingester.push("check", decoder.decode(bodies.get(0), "application/x-protobuf"));
        if (check.acceptedEntries() != BATCH_LINES || check.rejectedEntries() != 0) {
            throw new IllegalStateException("setup push not accepted whole: " + check);
        }
    }

    /** Closes the ingester and deletes the temporary directory. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        ingester.close();
        TempTrees.delete(dir);
    }

    /** Decodes and pushes one body. */
    @Benchmark
    public int push(RawBytesPerSecond throughput) throws Exception {
        long n = next.getAndIncrement();
        List<PushStream> decoded = decoder.decode(bodies.get((int) (n % BODIES)), "application/x-protobuf");
        long shift = (n / BODIES) * BODIES * BATCH_LINES * 1000L; // each pass later than the previous one
        List<PushStream> streams = new ArrayList<>(decoded.size());
        for (PushStream s : decoded) {
            List<LogEntry> entries = new ArrayList<>(s.entries().size());
            for (LogEntry e : s.entries()) {
                entries.add(new LogEntry(e.timestampNanos() + shift, e.line(), e.metadata()));
            }
            streams.add(new PushStream(s.labels(), entries));
        }
        PushResult result = ingester.push("bench", streams);
        throughput.rawBytes += rawBytesPerBody;
        return result.acceptedEntries();
    }
}
