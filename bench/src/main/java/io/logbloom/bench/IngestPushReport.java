package io.logbloom.bench;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.WalConfig;
import io.logbloom.ingest.proto.PushProto;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.xerial.snappy.Snappy;

/**
 * In-process push throughput of the write path without HTTP: decode snappy-protobuf bodies built
 * like a Loki client's, then {@link Ingester#push} with the WAL forced per request (the default),
 * from {@code --threads} threads; every entry carries a unique 32-hex {@code trace_id} in structured
 * metadata. Prints lines/s and MB/s of raw bytes (lines plus metadata), and the process CPU time of
 * the push phase (pushes, flush loop, GC) per line and per raw MB, which stays comparable on a busy
 * machine when wall-clock rates do not. Not thread-safe (one
 * run per process).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.IngestPushReport --batches 200 --threads 4}.
 */
public final class IngestPushReport {
    private IngestPushReport() {}

    /** Runs the measurement; flags: --batches, --batch-lines, --streams, --threads, --fsync per_request|interval. */
    public static void main(String[] args) throws Exception {
        int batches = 200;
        int batchLines = 1000;
        int streams = 100;
        int threads = 4;
        WalConfig.FsyncPolicy fsync = WalConfig.FsyncPolicy.PER_REQUEST;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--batch-lines" -> batchLines = Integer.parseInt(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--fsync" -> fsync = WalConfig.FsyncPolicy.valueOf(args[++i].toUpperCase(java.util.Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown flag: " + args[i]);
            }
        }
        Clock clock = Clock.systemUTC();
        long now = System.currentTimeMillis() * 1_000_000L;
        ChunkLogGenerator generator = new ChunkLogGenerator(7, now - Duration.ofMinutes(5).toNanos());
        java.util.Random traceIds = new java.util.Random(11);
        List<byte[]> bodies = new ArrayList<>();
        long rawBytes = 0;
        for (int b = 0; b < batches; b++) {
            PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
            for (int s = 0; s < streams; s++) {
                PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                        .setLabels("{app=\"bench\", pod=\"pod-" + s + "\"}");
                for (int l = 0; l < batchLines / streams; l++) {
                    LogEntry e = generator.next();
                    long ts = now - Duration.ofMinutes(5).toNanos() + ((long) b * batchLines + s * batchLines / streams + l) * 1000L;
                    String traceId = String.format("%016x%016x", traceIds.nextLong(), traceIds.nextLong());
                    rawBytes += e.line().getBytes(StandardCharsets.UTF_8).length + "trace_id".length() + traceId.length();
                    stream.addEntries(PushProto.EntryAdapter.newBuilder().setLine(e.line())
                            .setTimestamp(com.google.protobuf.Timestamp.newBuilder()
                                    .setSeconds(ts / 1_000_000_000L)
                                    .setNanos((int) (ts % 1_000_000_000L)))
                            .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                                    .setValue(traceId)));
                }
                request.addStreams(stream);
            }
            bodies.add(Snappy.compress(request.build().toByteArray()));
        }
        Path dir = Files.createTempDirectory("ingest-push-report");
        try {
            LimitsConfig d = LimitsConfig.defaults();
            LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, 0, 15, 1024, 2048, true, d.rejectOldSamplesMaxAge(),
                    d.creationGracePeriod(), 0, 0, 0, true);
            IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open)
                    .withWal(new WalConfig(dir.resolve("wal"), fsync, Duration.ofSeconds(1), 64L << 20));
            PushDecoder decoder = new PushDecoder();
            AtomicInteger next = new AtomicInteger();
            AtomicInteger lines = new AtomicInteger();
            long t0;
            long elapsed;
            long cpu0;
            long cpu;
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            try (Ingester ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")), clock,
                    new PrometheusRegistry())) {
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                cpu0 = os.getProcessCpuTime();
                t0 = System.nanoTime();
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    futures.add(pool.submit(() -> {
                        int i;
                        while ((i = next.getAndIncrement()) < bodies.size()) {
                            List<PushStream> decoded = decoder.decode(bodies.get(i), "application/x-protobuf");
                            lines.addAndGet(ingester.push("bench", decoded).acceptedEntries());
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
                elapsed = System.nanoTime() - t0;
                cpu = os.getProcessCpuTime() - cpu0;
                pool.shutdown();
            }
            double seconds = elapsed / 1e9;
            System.out.printf("{\"what\":\"in_process_push\",\"fsync\":\"%s\",\"threads\":%d,\"batches\":%d,\"lines\":%d,"
                    + "\"seconds\":%.2f,\"lines_per_s\":%.0f,\"mb_per_s\":%.1f,\"cpu_s\":%.2f,\"cpu_us_per_line\":%.2f,"
                    + "\"mb_per_cpu_s\":%.1f}%n", fsync.name().toLowerCase(java.util.Locale.ROOT),
                    threads, batches, lines.get(), seconds, lines.get() / seconds, rawBytes / 1e6 / seconds, cpu / 1e9,
                    cpu / 1e3 / lines.get(), rawBytes / 1e6 / (cpu / 1e9));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
