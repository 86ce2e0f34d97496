package io.logbloom.bench;

import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Bytes on disk per raw byte of log, by kind (chunks, index, blooms, WAL after the final flush and
 * checkpoint) and chunk encoding, for data shaped like the load-test harness': 100 streams,
 * ~200-byte lines mixing logfmt, JSON and plain text padded with words, and a unique 32-hex
 * {@code trace_id} in every entry's structured metadata. Data goes through the real
 * {@link Ingester} (validation, WAL, chunks, index, blooms) in 1000-line pushes, then
 * {@link Ingester#flushAll()} and {@link Ingester#close()}. Raw bytes are the UTF-8 bytes of lines
 * plus metadata names and values. Also prints the ingester's CPU per raw MB (process CPU time, so
 * run it on a quiet machine). Not thread-safe (one run per process).
 *
 * <p>Run: {@code java -Xmx2g -cp bench/target/benchmarks.jar io.logbloom.bench.StorageFootprintReport --raw-mb 64}
 * (flags: {@code --raw-mb N}, {@code --encodings snappy,zstd,...}, {@code --block-size BYTES}).
 */
public final class StorageFootprintReport {
    private static final int STREAMS = 100;
    private static final int BATCH_LINES = 1000;
    private static final int MEDIAN_LINE_LENGTH = 200;
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
        "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
        "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "shard", "replica", "tenant", "region", "bucket",
        "segment", "offset", "partition", "leader", "follower", "token", "lease", "snapshot", "checkpoint", "window",
        "batch", "cursor", "commit", "rollback", "frame"};
    private static final String[] LEVELS = {"debug", "info", "info", "info", "info", "warn", "error"};
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "POST", "PUT", "DELETE"};
    private static final String[] PATHS = {"/api/v1/users/%d", "/api/v1/orders/%d", "/api/v1/cart/%d/items",
        "/api/v1/products/%d", "/api/v1/search", "/api/v1/login", "/healthz", "/metrics", "/static/js/app.%d.js"};
    private static final int[] STATUS = {200, 200, 200, 200, 201, 204, 301, 304, 400, 404, 429, 500, 503};
    private static final String[] SERVICES = {"api-gateway", "checkout", "cart", "catalog", "auth", "search",
        "inventory", "shipping", "billing", "notifications", "recommendations", "frontend"};

    private StorageFootprintReport() {}

    /** Runs the measurement and prints one JSON line per encoding. */
    public static void main(String[] args) throws Exception {
        long rawTarget = 64L << 20;
        List<ChunkEncoding> encodings = List.of(ChunkEncoding.SNAPPY, ChunkEncoding.ZSTD);
        int blockSize = ChunkConfig.DEFAULT_BLOCK_SIZE_BYTES;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--raw-mb" -> rawTarget = Long.parseLong(args[++i]) << 20;
                case "--encodings" -> {
                    List<ChunkEncoding> list = new ArrayList<>();
                    for (String name : args[++i].split(",")) {
                        list.add(ChunkEncoding.parse(name));
                    }
                    encodings = list;
                }
                case "--block-size" -> blockSize = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag: " + args[i]
                        + " (expected --raw-mb, --encodings, --block-size)");
            }
        }
        for (ChunkEncoding encoding : encodings) {
            run(encoding, blockSize, rawTarget);
        }
    }

    private static void run(ChunkEncoding encoding, int blockSize, long rawTarget) throws IOException {
        Path dir = Files.createTempDirectory("storage-footprint");
        try {
            LimitsConfig d = LimitsConfig.defaults();
            LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, d.maxLineSizeBytes(), 15, 1024, 2048, true,
                    d.rejectOldSamplesMaxAge(), d.creationGracePeriod(), 0, 0, 0, true);
            IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open)
                    .withChunk(new ChunkConfig(blockSize, ChunkConfig.DEFAULT_TARGET_SIZE_BYTES, encoding));
            SplittableRandom random = new SplittableRandom(42);
            long raw = 0;
            long lines = 0;
            long startNanos = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
            long[] last = new long[STREAMS];
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0;
            long wall0;
            try (Ingester ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")),
                    Clock.systemUTC(), new PrometheusRegistry())) {
                cpu0 = os.getProcessCpuTime();
                wall0 = System.nanoTime();
                long batch = 0;
                while (raw < rawTarget) {
                    List<List<LogEntry>> byStream = new ArrayList<>(STREAMS);
                    for (int s = 0; s < STREAMS; s++) {
                        byStream.add(new ArrayList<>());
                    }
                    for (int n = 0; n < BATCH_LINES; n++) {
                        int s = random.nextInt(STREAMS);
                        long ts = Math.max(startNanos + batch * 1_000_000L, last[s] + 1);
                        last[s] = ts;
                        String traceId = hex(random.nextLong()) + hex(random.nextLong());
                        String line = line(random);
                        raw += line.getBytes(StandardCharsets.UTF_8).length + "trace_id".length() + traceId.length();
                        byStream.get(s).add(new LogEntry(ts, line, List.of(new Label("trace_id", traceId))));
                    }
                    List<PushStream> push = new ArrayList<>();
                    for (int s = 0; s < STREAMS; s++) {
                        if (!byStream.get(s).isEmpty()) {
                            push.add(new PushStream(labels(s), byStream.get(s)));
                        }
                    }
                    PushResult result = ingester.push("bench", push);
                    if (result.rejectedEntries() > 0) {
                        throw new IllegalStateException("push rejected entries: " + result.errors());
                    }
                    lines += result.acceptedEntries();
                    batch++;
                }
                ingester.flushAll();
            }
            long cpu = os.getProcessCpuTime() - cpu0;
            long wall = System.nanoTime() - wall0;
            long chunks = bytesUnder(dir.resolve("store").resolve("objects").resolve("bench"));
            long index = bytesUnder(dir.resolve("store").resolve("objects").resolve("index"));
            long blooms = bytesUnder(dir.resolve("store").resolve("objects").resolve("blooms"));
            long wal = bytesUnder(dir.resolve("wal"));
            long total = bytesUnder(dir);
            double rawMb = raw / 1e6;
            System.out.printf(Locale.ROOT, "{\"what\":\"storage_footprint\",\"encoding\":\"%s\",\"block_size\":%d,"
                            + "\"raw_mb\":%.1f,\"lines\":%d,\"bytes_per_raw_byte\":%.4f,\"chunks_per_raw_mb\":%.0f,"
                            + "\"index_per_raw_mb\":%.0f,\"blooms_per_raw_mb\":%.0f,\"wal_per_raw_mb\":%.0f,"
                            + "\"other_per_raw_mb\":%.0f,\"cpu_s_per_raw_mb\":%.4f,\"cpu_us_per_line\":%.2f,"
                            + "\"wall_s\":%.1f}%n", encoding.name().toLowerCase(Locale.ROOT), blockSize, rawMb, lines,
                    total / (double) raw, chunks / rawMb, index / rawMb, blooms / rawMb, wal / rawMb,
                    (total - chunks - index - blooms - wal) / rawMb, cpu / 1e9 / rawMb, cpu / 1e3 / lines, wall / 1e9);
        } finally {
            TempTrees.delete(dir);
        }
    }

    private static long bytesUnder(Path root) throws IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static String labels(int stream) {
        String service = SERVICES[stream % SERVICES.length];
        return "{job=\"loadtest\", namespace=\"ns-" + (stream / SERVICES.length) % 4 + "\", service=\"" + service
                + "\", pod=\"" + service + "-" + Integer.toHexString(0x100000 + stream * 7919) + "-" + stream + "\"}";
    }

    /** A loadtest-like line: logfmt 45 %, JSON 35 %, plain 20 %, padded with words to a log-normal length. */
    private static String line(SplittableRandom random) {
        double gaussian = Math.sqrt(-2.0 * Math.log(1.0 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        int target = (int) Math.max(40, Math.min(4 * MEDIAN_LINE_LENGTH, MEDIAN_LINE_LENGTH * Math.exp(0.6 * gaussian)));
        String level = LEVELS[random.nextInt(LEVELS.length)];
        String method = METHODS[random.nextInt(METHODS.length)];
        String path = String.format(Locale.ROOT, PATHS[random.nextInt(PATHS.length)], random.nextInt(100_000));
        int status = STATUS[random.nextInt(STATUS.length)];
        long duration = 1 + random.nextInt(400);
        long bytes = random.nextInt(40_000);
        int format = random.nextInt(100);
        StringBuilder line = new StringBuilder(target + 32);
        if (format < 45) {
            line.append("level=").append(level).append(" msg=\"").append(method).append(' ').append(path)
                    .append(" completed\" method=").append(method).append(" path=").append(path).append(" status=")
                    .append(status).append(" duration_ms=").append(duration).append(" bytes=").append(bytes)
                    .append(" caller=handler.go:").append(40 + random.nextInt(400));
            return pad(line, target, random, " detail=\"", "\"");
        }
        if (format < 80) {
            line.append("{\"level\":\"").append(level).append("\",\"msg\":\"request completed\",\"method\":\"")
                    .append(method).append("\",\"path\":\"").append(path).append("\",\"status\":").append(status)
                    .append(",\"duration_ms\":").append(duration).append(",\"bytes\":").append(bytes);
            return pad(line, target - 1, random, ",\"detail\":\"", "\"") + "}";
        }
        line.append(level.toUpperCase(Locale.ROOT)).append(" [worker-").append(random.nextInt(16))
                .append("] request finished in ").append(duration).append("ms, ").append(bytes).append(" bytes");
        return pad(line, target, random, " - ", "");
    }

    private static String pad(StringBuilder line, int target, SplittableRandom random, String open, String close) {
        if (line.length() + open.length() + close.length() >= target) {
            return line.toString();
        }
        line.append(open);
        boolean first = true;
        while (line.length() + close.length() < target) {
            if (!first) {
                line.append(' ');
            }
            line.append(WORDS[random.nextInt(WORDS.length)]);
            first = false;
        }
        return line.append(close).toString();
    }

    private static String hex(long value) {
        String digits = Long.toHexString(value);
        return "0".repeat(16 - digits.length()) + digits;
    }
}
