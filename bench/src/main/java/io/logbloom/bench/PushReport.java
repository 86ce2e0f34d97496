package io.logbloom.bench;

import com.google.protobuf.Timestamp;
import io.logbloom.ingest.proto.PushProto;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.xerial.snappy.Snappy;

/**
 * Measures push throughput of a running server over loopback, the way a Loki client pushes:
 * snappy-compressed protobuf {@code PushRequest}s of {@code --batch-lines} lines spread over
 * {@code --streams} streams, sent by {@code --concurrency} connections. Bodies are built before the
 * clock starts (so client-side encoding does not compete for the CPU during the measurement), each
 * with fresh timestamps so the ingester's duplicate filter never drops them. Prints lines/s and MB/s
 * of raw line bytes, plus client latency. Not thread-safe (one run per process).
 *
 * <p>Run: start the server with limits high enough not to throttle, e.g. a config with
 * {@code limits: { ingestion_rate_mb: 1024, ingestion_burst_size_mb: 2048 }}, then
 * {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.PushReport --url http://127.0.0.1:3100 --batches 300}.
 */
public final class PushReport {
    private PushReport() {}

    /** Runs the measurement; flags: --url, --batches, --batch-lines, --streams, --concurrency, --tenant. */
    public static void main(String[] args) throws Exception {
        String url = "http://127.0.0.1:3100";
        int batches = 300;
        int batchLines = 1000;
        int streams = 100;
        int concurrency = 2;
        String tenant = "bench";
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--url" -> url = args[i + 1];
                case "--batches" -> batches = Integer.parseInt(args[i + 1]);
                case "--batch-lines" -> batchLines = Integer.parseInt(args[i + 1]);
                case "--streams" -> streams = Integer.parseInt(args[i + 1]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[i + 1]);
                case "--tenant" -> tenant = args[i + 1];
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + " (expected --url, --batches, --batch-lines, --streams, --concurrency, --tenant)");
            }
        }
        if (batchLines % streams != 0) {
            throw new IllegalArgumentException("--batch-lines " + batchLines + " must be a multiple of --streams " + streams);
        }

        Random random = new Random(42);
        List<byte[]> bodies = new ArrayList<>(batches);
        long rawBytes = 0;
        long wireBytes = 0;
        Instant start = Instant.now();
        long baseNanos = start.getEpochSecond() * 1_000_000_000L + start.getNano();
        for (int b = 0; b < batches; b++) {
            PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
            for (int s = 0; s < streams; s++) {
                PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                        .setLabels("{app=\"bench\", pod=\"pod-" + s + "\", namespace=\"ns-" + (s % 7) + "\"}");
                for (int l = 0; l < batchLines / streams; l++) {
                    long ts = baseNanos + ((long) b * batchLines + l) * 1000L;
                    String line = logLine(random, b, s, l);
                    rawBytes += line.length();
                    stream.addEntries(PushProto.EntryAdapter.newBuilder()
                            .setTimestamp(Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                    .setNanos((int) (ts % 1_000_000_000L)))
                            .setLine(line)
                            .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                                    .setValue(Long.toHexString(random.nextLong()))));
                }
                request.addStreams(stream);
            }
            byte[] body = Snappy.compress(request.build().toByteArray());
            wireBytes += body.length;
            bodies.add(body);
        }

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create(url + "/loki/api/v1/push");
        AtomicInteger next = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        AtomicLong latencyNanos = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        String tenantId = tenant;
        long t0 = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int c = 0; c < concurrency; c++) {
            workers.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < bodies.size()) {
                    long begin = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri)
                            .header("Content-Type", "application/x-protobuf").header("X-Scope-OrgID", tenantId)
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i))).build(),
                            HttpResponse.BodyHandlers.ofString());
                    latencyNanos.addAndGet(System.nanoTime() - begin);
                    if (r.statusCode() != 204) {
                        failures.incrementAndGet();
                        System.err.println("push " + i + " answered " + r.statusCode() + ": " + r.body());
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        long lines = (long) batches * batchLines;
        System.out.printf("pushed %d batches x %d lines (%d streams, %d connections) in %.2f s, %d failed%n",
                batches, batchLines, streams, concurrency, seconds, failures.get());
        System.out.printf("throughput: %.0f lines/s, %.2f MB/s of raw lines, %.2f MB/s on the wire (snappy protobuf)%n",
                lines / seconds, rawBytes / seconds / (1 << 20), wireBytes / seconds / (1 << 20));
        System.out.printf("mean push latency: %.1f ms; raw %.1f MB, wire %.1f MB%n",
                latencyNanos.get() / 1e6 / batches, rawBytes / (double) (1 << 20), wireBytes / (double) (1 << 20));
    }

    private static final String[] LEVELS = {"info", "info", "info", "debug", "warn", "error"};
    private static final String[] PATHS = {"/api/v1/orders", "/api/v1/users", "/healthz", "/api/v1/cart", "/login"};

    static String logLine(Random random, int batch, int stream, int line) {
        return "ts=" + batch + "." + line + " level=" + LEVELS[random.nextInt(LEVELS.length)] + " method=GET path="
                + PATHS[random.nextInt(PATHS.length)] + " status=" + (200 + random.nextInt(5) * 100) + " duration_ms="
                + random.nextInt(2000) + " pod=pod-" + stream + " user_id=" + random.nextInt(100_000)
                + " msg=\"request handled\"";
    }
}
