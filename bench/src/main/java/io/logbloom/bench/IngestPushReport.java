package io.logbloom.bench;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushEnricher;
import io.logbloom.ingest.PushEnrichmentConfig;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.WalConfig;
import io.logbloom.ingest.proto.PushProto;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.logbloom.loadtest.GeneratorConfig;
import io.logbloom.loadtest.LogGenerator;
import io.logbloom.loadtest.PushBatch;
import io.logbloom.loadtest.PushEncoding;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.xerial.snappy.Snappy;

/**
 * In-process push throughput of the write path without HTTP: decode snappy-protobuf bodies built
 * like a Loki client's, enrich them as the push route does ({@link PushEnricher} with Loki's defaults),
 * then {@link Ingester#push} with the WAL forced per request (the default),
 * from {@code --threads} threads; every entry carries a unique 32-hex {@code trace_id} in structured
 * metadata. Bodies are encoded before the timed phase, so the client's cost is excluded. Prints
 * lines/s and MB/s of raw bytes (lines plus metadata), and the process CPU time of the push phase
 * (pushes, seal and merge threads, GC, JIT) per line and per raw MB — the server's CPU per MB, which
 * stays comparable on a busy machine when wall-clock rates do not — split into the push threads, the
 * ingester's background threads (seal, merge) and the rest of the JVM (GC, JIT compilers); and the bytes the push
 * threads allocated per line, exact where the CPU figures of a shared machine scatter (the garbage the collector is
 * left with).
 *
 * <p>{@code --shape loadtest} builds the bodies with the load-test harness' own generator and encoder
 * ({@link LogGenerator}, {@link PushEncoding}), the storage issue's shape with {@code --line-length 85}:
 * 100 streams interleaved in every 1000-line batch over the same time range, ~143 raw bytes a line;
 * {@code --shape bench} (the default) builds them from {@link ChunkLogGenerator}, each stream a
 * contiguous run of a batch. {@code --rounds N} repeats the push phase on a fresh ingester N times in
 * one JVM and prints each round, so the later rounds show the JIT-compiled steady state. {@code --bodies
 * FILE} saves the generated bodies to FILE, or loads them when it exists (its flags then no longer matter).
 *
 * <p>Old vs new engine in one run: the report uses only the ingester's long-standing API, so this
 * class can run against a previous engine's jar by putting the new bench classes first, alternating:
 * {@code java -cp bench/target/classes:/tmp/old-benchmarks.jar io.logbloom.bench.IngestPushReport ...}
 * then {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.IngestPushReport ...}.
 * Not thread-safe (one run per process).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.IngestPushReport --shape loadtest
 * --line-length 85 --batches 600 --threads 2 --rounds 3}.
 */
public final class IngestPushReport {
    private IngestPushReport() {}

    /** Runs the measurement; flags: --batches, --batch-lines, --streams, --threads, --fsync, --shape, --line-length, --rounds. */
    public static void main(String[] args) throws Exception {
        int batches = 200;
        int batchLines = 1000;
        int streams = 100;
        int threads = 4;
        int rounds = 1;
        String shape = "bench";
        String bodiesFile = null;
        int lineLength = 85;
        WalConfig.FsyncPolicy fsync = WalConfig.FsyncPolicy.PER_REQUEST;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--batch-lines" -> batchLines = Integer.parseInt(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--shape" -> shape = args[++i];
                case "--bodies" -> bodiesFile = args[++i];
                case "--line-length" -> lineLength = Integer.parseInt(args[++i]);
                case "--fsync" -> fsync = WalConfig.FsyncPolicy.valueOf(args[++i].toUpperCase(Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown flag: " + args[i] + " (flags: --batches N, "
                        + "--batch-lines N, --streams N, --threads N, --rounds N, --shape bench|loadtest, "
                        + "--line-length N, --bodies FILE, --fsync per_request|interval)");
            }
        }
        Path cache = bodiesFile == null ? null : Path.of(bodiesFile);
        Bodies bodies;
        if (cache != null && Files.exists(cache)) {
            bodies = Bodies.read(cache);
        } else {
            bodies = switch (shape) {
                case "bench" -> benchBodies(batches, batchLines, streams);
                case "loadtest" -> loadtestBodies(batches, batchLines, streams, lineLength);
                default -> throw new IllegalArgumentException("--shape takes bench or loadtest, got " + shape);
            };
            if (cache != null) {
                bodies.write(cache);
            }
        }
        for (int round = 1; round <= rounds; round++) {
            pushRound(bodies, threads, fsync, shape, round);
        }
    }

    /** Pre-encoded request bodies and the raw bytes they carry (bench shape: lines and metadata; loadtest shape: lines). */
    private record Bodies(List<byte[]> bodies, long rawBytes) {
        /** Reads bodies saved by {@link #write}. */
        static Bodies read(Path file) throws java.io.IOException {
            try (var in = new java.io.DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
                long rawBytes = in.readLong();
                int n = in.readInt();
                List<byte[]> bodies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                    bodies.add(body);
                }
                return new Bodies(bodies, rawBytes);
            }
        }

        /** Saves the bodies, so alternating runs (old and new engine) push the very same bytes without regenerating them. */
        void write(Path file) throws java.io.IOException {
            try (var out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
                out.writeLong(rawBytes);
                out.writeInt(bodies.size());
                for (byte[] body : bodies) {
                    out.writeInt(body.length);
                    out.write(body);
                }
            }
        }
    }

    private static Bodies benchBodies(int batches, int batchLines, int streams) throws Exception {
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
        return new Bodies(bodies, rawBytes);
    }

    /** Bodies exactly as the load-test harness sends them (its generator and protobuf encoder, one lane). */
    private static Bodies loadtestBodies(int batches, int batchLines, int streams, int lineLength) {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(42, "push-report", streams, batchLines, false,
                lineLength));
        LogGenerator.Lane lane = generator.lane(0, 1, java.time.InstantSource.system());
        List<byte[]> bodies = new ArrayList<>();
        long rawBytes = 0;
        for (int b = 0; b < batches; b++) {
            PushBatch batch = lane.next();
            rawBytes += batch.lineBytes(); // the harness' measure (lines only): 3 M lines = 430 MB with --line-length 85
            bodies.add(PushEncoding.PROTOBUF.encode(batch).body());
        }
        return new Bodies(bodies, rawBytes);
    }

    private static void pushRound(Bodies bodies, int threads, WalConfig.FsyncPolicy fsync, String shape, int round)
            throws Exception {
        Path dir = Files.createTempDirectory("ingest-push-report");
        try {
            LimitsConfig d = LimitsConfig.defaults();
            LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, 0, 15, 1024, 2048, true, d.rejectOldSamplesMaxAge(),
                    d.creationGracePeriod(), 0, 0, 0, true);
            IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open)
                    .withWal(new WalConfig(dir.resolve("wal"), fsync, Duration.ofSeconds(1), 64L << 20));
            PushDecoder decoder = new PushDecoder();
            // the server's push route enriches between decode and push (Loki 3's defaults: service name, detected level)
            PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
            AtomicInteger next = new AtomicInteger();
            AtomicInteger lines = new AtomicInteger();
            AtomicLong pushThreadsCpu = new AtomicLong();
            AtomicLong pushThreadsAllocated = new AtomicLong();
            long t0;
            long elapsed;
            long cpu0;
            long cpu;
            long background0;
            long background;
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
            var allocations = (com.sun.management.ThreadMXBean) threadBean;
            try (Ingester ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")),
                    Clock.systemUTC(), new PrometheusRegistry())) {
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                background0 = backgroundCpuNanos(threadBean);
                cpu0 = os.getProcessCpuTime();
                t0 = System.nanoTime();
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    futures.add(pool.submit(() -> {
                        long own0 = threadBean.getCurrentThreadCpuTime();
                        long allocated0 = allocations.getCurrentThreadAllocatedBytes();
                        int i;
                        while ((i = next.getAndIncrement()) < bodies.bodies().size()) {
                            List<PushStream> decoded = decoder.decode(bodies.bodies().get(i), "application/x-protobuf");
                            lines.addAndGet(ingester.push("bench", enricher.enrich(decoded)).acceptedEntries());
                        }
                        pushThreadsCpu.addAndGet(threadBean.getCurrentThreadCpuTime() - own0);
                        pushThreadsAllocated.addAndGet(allocations.getCurrentThreadAllocatedBytes() - allocated0);
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
                elapsed = System.nanoTime() - t0;
                cpu = os.getProcessCpuTime() - cpu0;
                background = backgroundCpuNanos(threadBean) - background0;
                pool.shutdown();
            }
            double seconds = elapsed / 1e9;
            double rawMb = bodies.rawBytes() / 1e6;
            System.out.printf(Locale.ROOT, "{\"what\":\"in_process_push\",\"shape\":\"%s\",\"round\":%d,\"fsync\":\"%s\","
                    + "\"threads\":%d,\"batches\":%d,\"lines\":%d,\"raw_mb\":%.1f,\"seconds\":%.2f,\"lines_per_s\":%.0f,"
                    + "\"mb_per_s\":%.1f,\"cpu_s\":%.2f,\"cpu_us_per_line\":%.2f,\"mb_per_cpu_s\":%.1f,"
                    + "\"push_threads_cpu_s\":%.2f,\"seal_merge_cpu_s\":%.2f,\"other_jvm_cpu_s\":%.2f,"
                    + "\"push_threads_allocated_bytes_per_line\":%.0f}%n",
                    shape, round, fsync.name().toLowerCase(Locale.ROOT), threads, bodies.bodies().size(), lines.get(),
                    rawMb, seconds, lines.get() / seconds, rawMb / seconds, cpu / 1e9, cpu / 1e3 / lines.get(),
                    rawMb / (cpu / 1e9), pushThreadsCpu.get() / 1e9, background / 1e9,
                    (cpu - pushThreadsCpu.get() - background) / 1e9, (double) pushThreadsAllocated.get() / lines.get());
        } finally {
            TempTrees.delete(dir);
        }
    }

    /**
     * CPU time of the ingester's background threads (seal, merge, the merge's encoders) alive now; ended threads are not
     * counted.
     */
    private static long backgroundCpuNanos(ThreadMXBean threadBean) {
        long total = 0;
        for (ThreadInfo info : threadBean.getThreadInfo(threadBean.getAllThreadIds())) {
            if (info != null && (info.getThreadName().startsWith(Ingester.SEAL_THREAD)
                    || info.getThreadName().startsWith(Ingester.MERGE_THREAD))) {
                long t = threadBean.getThreadCpuTime(info.getThreadId());
                if (t > 0) {
                    total += t;
                }
            }
        }
        return total;
    }
}
