package io.logbloom.bench;

import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.WalConfig;
import io.logbloom.logql.Engine;
import io.logbloom.querier.LogqlBloomQueries;
import io.logbloom.querier.Querier;
import io.logbloom.querier.QuerierConfig;
import io.logbloom.querier.QueryOutcome;
import io.logbloom.querier.QueryRequest;
import io.logbloom.querier.QueryRunner;
import io.logbloom.querier.QueryStatistics;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The closing measurement: builds a data set of {@code --raw-mb} MB of raw log lines with a
 * unique {@code trace_id} in structured metadata per line, through the real {@link Ingester} and
 * flush (default chunk sizes, filesystem store), then runs the needle query
 * {@code {app=~".+"} | trace_id="<one id>"} over the whole range with blooms on and off in one
 * run, alternating, and prints chunks total / skipped / fetched and latencies, and of the last run with blooms on
 * where its time went (index lookup, bloom tests, the whole execution) and how many rows the read blocks held. The chunk cache is
 * off so both modes read from the store. Not thread-safe (one run per process).
 *
 * <p>Run: {@code java -Xmx2g -cp bench/target/benchmarks.jar io.logbloom.bench.QueryNeedleReport --raw-mb 300}
 * (flags: {@code --raw-mb N}, {@code --streams N}, {@code --runs N}, {@code --ngram}, {@code --dir PATH}).
 */
public final class QueryNeedleReport {
    private static final long SEC = 1_000_000_000L;
    /** Lines per push, like a client batch. */
    private static final int BATCH_LINES = 2000;
    /** Raw megabytes per ingester lifetime (see the segment loop). */
    private static final long SEGMENT_MB = 256;

    private QueryNeedleReport() {}

    /** Builds the data set, runs the needle query with blooms on and off, prints the report. */
    public static void main(String[] args) throws Exception {
        long rawMb = 300;
        int streams = 16;
        int runs = 3;
        boolean ngram = false;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--raw-mb" -> rawMb = Long.parseLong(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--ngram" -> ngram = true;
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + " (flags: --raw-mb N, --streams N, --runs N, --ngram, --dir PATH)");
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("logbloom-needle");
        }
        Clock clock = Clock.systemUTC();
        IngestConfig d = IngestConfig.defaults(dir.resolve("wal"));
        LimitsConfig unlimited = BenchLimits.unlimited(d.limits(), d.limits().maxGlobalStreamsPerUser());
        IngestConfig config = new IngestConfig(unlimited,
                new WalConfig(dir.resolve("wal"), WalConfig.FsyncPolicy.INTERVAL, Duration.ofSeconds(1), 64L << 20),
                d.flush(), ChunkConfig.defaults(), new BloomTokenizerConfig(true, ngram, 4, 0, true), d.bloom(), d.index());

        long targetBytes = rawMb << 20;
        long totalLines = 0;
        long rawBytes = 0;
        long ingestStart = System.nanoTime();
        String needleId = null;
        try (FileSystemObjectStore store = new FileSystemObjectStore(dir.resolve("objects"))) {
            SplittableRandom rnd = new SplittableRandom(42);
            long lineEstimate = targetBytes / 100;
            long spanNanos = 20L * 3600 * SEC;
            long base = clock.millis() * 1_000_000L - spanNanos - 600 * SEC;
            long step = Math.max(1, spanNanos / Math.max(1, lineEstimate));
            String[] levels = {"info", "info", "info", "warn", "error", "debug"};
            String[] paths = {"/api/orders", "/api/users", "/healthz", "/api/cart", "/login", "/api/search"};
            long needleLine = targetBytes / 300;
            // one ingester per segment, flushed and closed, so the ingester's per-stream memory (dedupe keys,
            // recently flushed chunks) never spans the whole data set; the next one reloads the series blooms
            while (rawBytes < targetBytes) {
                long segmentEnd = Math.min(targetBytes, rawBytes + (SEGMENT_MB << 20));
                try (Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry())) {
                    while (rawBytes < segmentEnd) {
                        List<PushStream> push = new ArrayList<>(streams);
                        for (int s = 0; s < streams && rawBytes < segmentEnd; s++) {
                            List<LogEntry> entries = new ArrayList<>(BATCH_LINES / streams + 1);
                            for (int i = 0; i < BATCH_LINES / streams; i++) {
                                String traceId = Long.toHexString(rnd.nextLong() | Long.MIN_VALUE)
                                        + Long.toHexString(totalLines);
                                if (totalLines == needleLine) {
                                    needleId = traceId;
                                }
                                String line = String.format(Locale.ROOT,
                                        "ts=%d level=%s method=GET path=%s status=%d duration=%dms bytes=%d user=u%d "
                                                + "msg=\"request served\"",
                                        totalLines, levels[rnd.nextInt(levels.length)], paths[rnd.nextInt(paths.length)],
                                        200 + rnd.nextInt(4) * 100, rnd.nextInt(900), rnd.nextInt(100_000),
                                        rnd.nextInt(5000));
                                entries.add(new LogEntry(base + Math.min(totalLines * step, spanNanos), line,
                                        List.of(new Label("trace_id", traceId), new Label("pod", "pod-" + s))));
                                rawBytes += line.length() + traceId.length();
                                totalLines++;
                            }
                            push.add(new PushStream("{app=\"svc-" + s + "\", env=\"bench\"}", entries));
                        }
                        PushResult r = ingester.push("bench", push);
                        if (!r.errors().isEmpty()) {
                            throw new IllegalStateException("push rejected: " + r.errors().get(0));
                        }
                    }
                    ingester.flushAll();
                }
                System.err.printf(Locale.ROOT, "ingested %.0f MB in %.0f s%n", rawBytes / 1048576.0,
                        (System.nanoTime() - ingestStart) / 1e9);
            }
            double ingestSeconds = (System.nanoTime() - ingestStart) / 1e9;
            try (Ingester ingester = new Ingester(config, store, clock, new PrometheusRegistry())) {

            QuerierConfig qc = new QuerierConfig(true, 8, 0, 128L << 20, 5000, 500, Duration.ofMinutes(10), 0);
            try (Querier querier = Querier.overIngester(qc, store, () -> ingester, clock, new PrometheusRegistry())) {
                QueryRunner runner = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
                String query = "{app=~\".+\"} | trace_id=\"" + needleId + "\"";
                long start = base - SEC;
                long end = clock.millis() * 1_000_000L;
                long[] onNanos = new long[runs];
                long[] offNanos = new long[runs];
                QueryStatistics on = null;
                QueryStatistics off = null;
                int found = -1;
                for (int i = 0; i < runs; i++) {
                    long t = System.nanoTime();
                    QueryOutcome a = runner.run(new QueryRequest("bench", query, start, end, 0, 100, false, false, false));
                    offNanos[i] = System.nanoTime() - t;
                    off = a.stats();
                    t = System.nanoTime();
                    QueryOutcome b = runner.run(new QueryRequest("bench", query, start, end, 0, 100, false, false, true));
                    onNanos[i] = System.nanoTime() - t;
                    on = b.stats();
                    int foundOn = ((QueryOutcome.Logs) b).result().entryCount();
                    int foundOff = ((QueryOutcome.Logs) a).result().entryCount();
                    if (foundOn != foundOff || !((QueryOutcome.Logs) a).result().equals(((QueryOutcome.Logs) b).result())) {
                        throw new IllegalStateException("BUG: blooms on and off differ: " + foundOn + " vs " + foundOff);
                    }
                    found = foundOn;
                }
                Arrays.sort(onNanos);
                Arrays.sort(offNanos);
                System.out.printf(Locale.ROOT, "{\"rawMb\":%.1f,\"lines\":%d,\"streams\":%d,\"ngram\":%b,"
                                + "\"ingestSeconds\":%.1f,\"storeMb\":%.1f,\"query\":\"%s\",\"matches\":%d,"
                                + "\"chunksTotal\":%d,\"bloomsOn\":{\"skipped\":%d,\"fetched\":%d,\"bloomsLoaded\":%d,"
                                + "\"bloomMs\":%.1f,\"indexMs\":%.1f,\"execMs\":%.1f,\"rowsTested\":%d,"
                                + "\"medianMs\":%.1f,\"minMs\":%.1f},"
                                + "\"bloomsOff\":{\"skipped\":%d,\"fetched\":%d,\"medianMs\":%.1f,\"minMs\":%.1f}}%n",
                        rawBytes / 1048576.0, totalLines, streams, ngram, ingestSeconds, dirMb(dir.resolve("objects")),
                        query.replace("\"", "\\\""), found, on.totalChunksRef(), on.chunksSkipped(), on.chunksFetched(),
                        on.bloomsLoaded(), on.bloomFilterTimeNanos() / 1e6, on.indexTimeNanos() / 1e6,
                        on.execTimeNanos() / 1e6, on.decompressedLines(), onNanos[runs / 2] / 1e6, onNanos[0] / 1e6,
                        off.chunksSkipped(), off.chunksFetched(), offNanos[runs / 2] / 1e6, offNanos[0] / 1e6);
            }
            }
        }
    }

    private static double dirMb(Path root) throws java.io.IOException {
        try (var files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum() / 1048576.0;
        }
    }
}
