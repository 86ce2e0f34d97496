package io.logbloom.bench;

import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.proto.PushProto;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
import org.xerial.snappy.Snappy;

/**
 * JMH: the push decoder alone, the first step of every push's request thread — one body of 1000 lines
 * over 100 streams (loadtest-like lines, a unique 32-hex {@code trace_id} in each entry's structured
 * metadata, the bar's shape), as snappy-protobuf or as JSON, decoded into {@link PushStream}s. The
 * {@code rawBytes} secondary result is raw log bytes (lines plus metadata names and values) per second:
 * divide by 10^6 for MB/s, and compare it with the server's push rate to see the decoder's share.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar PushDecoderBenchmark}. The setup checks that
 * the body decodes to every line it was built from, in order. Per-thread state, not shared.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PushDecoderBenchmark {
    private static final int STREAMS = 100;
    private static final int BATCH_LINES = 1000;

    /** The body's format: Loki's snappy-protobuf, or its JSON. */
    @Param({"protobuf", "json"})
    String format;

    private final PushDecoder decoder = new PushDecoder();
    private byte[] body;
    private String contentType;
    private long rawBytesPerBody;

    /** Builds the body and checks that it decodes to the lines it holds. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Random random = new Random(42);
        long base = 1_700_000_000_000_000_000L;
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        StringBuilder json = new StringBuilder("{\"streams\":[");
        List<String> lines = new ArrayList<>();
        long raw = 0;
        for (int s = 0; s < STREAMS; s++) {
            String labels = "{job=\"loadtest\", service=\"svc-" + (s % 12) + "\", pod=\"pod-" + s + "\"}";
            PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder().setLabels(labels);
            json.append(s == 0 ? "" : ",").append("{\"stream\":{\"job\":\"loadtest\",\"service\":\"svc-")
                    .append(s % 12).append("\",\"pod\":\"pod-").append(s).append("\"},\"values\":[");
            for (int l = 0; l < BATCH_LINES / STREAMS; l++) {
                long ts = base + ((long) s * BATCH_LINES + l) * 1000L;
                String line = PushReport.logLine(random, 0, s, l);
                String traceId = String.format("%016x%016x", random.nextLong(), random.nextLong());
                lines.add(line);
                raw += line.getBytes(StandardCharsets.UTF_8).length + "trace_id".length() + traceId.length();
                stream.addEntries(PushProto.EntryAdapter.newBuilder().setLine(line)
                        .setTimestamp(com.google.protobuf.Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                .setNanos((int) (ts % 1_000_000_000L)))
                        .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                                .setValue(traceId)));
                json.append(l == 0 ? "" : ",").append("[\"").append(ts).append("\",\"")
                        .append(line.replace("\\", "\\\\").replace("\"", "\\\"")).append("\",{\"trace_id\":\"")
                        .append(traceId).append("\"}]");
            }
            json.append("]}");
            request.addStreams(stream);
        }
        json.append("]}");
        rawBytesPerBody = raw;
        if (format.equals("protobuf")) {
            body = Snappy.compress(request.build().toByteArray());
            contentType = "application/x-protobuf";
        } else {
            body = json.toString().getBytes(StandardCharsets.UTF_8);
            contentType = "application/json";
        }
        List<String> decoded = new ArrayList<>();
        for (PushStream stream : decoder.decode(body, contentType)) {
            for (LogEntry entry : stream.entries()) {
                decoded.add(entry.line());
            }
        }
        if (!decoded.equals(lines)) {
            throw new IllegalStateException("the " + format + " body did not decode to its " + lines.size() + " lines");
        }
    }

    /** Decodes the body once. */
    @Benchmark
    public List<PushStream> decode(RawBytesPerSecond throughput) throws Exception {
        throughput.rawBytes += rawBytesPerBody;
        return decoder.decode(body, contentType);
    }
}
