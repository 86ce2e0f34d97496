package io.logbloom.bench;

import io.logbloom.api.PatternFeed;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushEnricher;
import io.logbloom.ingest.PushEnrichmentConfig;
import io.logbloom.ingest.PushListener;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.proto.PushProto;
import io.logbloom.patterns.DrainConfig;
import io.logbloom.patterns.PatternMiner;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.xerial.snappy.Snappy;

/**
 * Ingest cost of pattern mining, measured in one process: the push path as the HTTP route runs it
 * (decode snappy-protobuf, enrich with service name and detected level, {@link Ingester#push} with the
 * WAL forced per request) on one thread, with and without the {@link PatternFeed} into a
 * {@link PatternMiner}, in alternating rounds on fresh ingesters. Reports the process CPU per line of
 * each mode (median over rounds) and their ratio, plus the miner's own thread CPU per line. Not
 * thread-safe (one run per process).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.PatternMiningReport --batches 100 --rounds 6}.
 */
public final class PatternMiningReport {
    private PatternMiningReport() {}

    /** Runs the measurement; flags: --batches, --batch-lines, --streams, --rounds. */
    public static void main(String[] args) throws Exception {
        int batches = 100;
        int batchLines = 1000;
        int streams = 20;
        int rounds = 6;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--batch-lines" -> batchLines = Integer.parseInt(args[++i]);
                case "--streams" -> streams = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag: " + args[i]);
            }
        }
        long now = System.currentTimeMillis() * 1_000_000L;
        long from = now - Duration.ofMinutes(5).toNanos();
        ChunkLogGenerator generator = new ChunkLogGenerator(7, from);
        List<byte[]> bodies = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
            for (int s = 0; s < streams; s++) {
                PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                        .setLabels("{app=\"bench-" + (s % 5) + "\", pod=\"pod-" + s + "\"}");
                for (int l = 0; l < batchLines / streams; l++) {
                    LogEntry e = generator.next();
                    long ts = from + ((long) b * batchLines + (long) s * batchLines / streams + l) * 1000L;
                    stream.addEntries(PushProto.EntryAdapter.newBuilder().setLine(e.line())
                            .setTimestamp(com.google.protobuf.Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                    .setNanos((int) (ts % 1_000_000_000L))));
                }
                request.addStreams(stream);
            }
            bodies.add(Snappy.compress(request.build().toByteArray()));
        }
        double[] off = new double[(rounds + 1) / 2];
        double[] on = new double[rounds / 2];
        double[] minerOnly = new double[rounds / 2];
        long lines = 0;
        int patterns = 0;
        for (int r = 0; r < rounds; r++) {
            boolean mining = r % 2 == 1;
            Round result = round(bodies, mining);
            lines = result.lines;
            if (mining) {
                on[r / 2] = result.cpuNanos / (double) result.lines;
                minerOnly[r / 2] = result.minerNanos / (double) result.lines;
                patterns = result.patterns;
            } else {
                off[r / 2] = result.cpuNanos / (double) result.lines;
            }
        }
        double medianOff = median(off);
        double medianOn = median(on);
        System.out.printf(Locale.ROOT, "{\"what\":\"pattern_mining_ingest_cost\",\"lines_per_round\":%d,\"rounds\":%d,"
                + "\"cpu_us_per_line_without\":%.2f,\"cpu_us_per_line_with\":%.2f,\"ratio_with_to_without\":%.3f,"
                + "\"miner_cpu_us_per_line\":%.2f,\"patterns\":%d}%n", lines, rounds, medianOff / 1e3, medianOn / 1e3,
                medianOn / medianOff, median(minerOnly) / 1e3, patterns);
    }

    private record Round(long lines, long cpuNanos, long minerNanos, int patterns) {}

    private static Round round(List<byte[]> bodies, boolean mining) throws Exception {
        Path dir = Files.createTempDirectory("pattern-mining-report");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var threads = ManagementFactory.getThreadMXBean();
        Clock clock = Clock.systemUTC();
        try {
            LimitsConfig d = LimitsConfig.defaults();
            LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, 0, 15, 1024, 2048, true, d.rejectOldSamplesMaxAge(),
                    d.creationGracePeriod(), 0, 0, 0, true);
            IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open);
            PushDecoder decoder = new PushDecoder();
            PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
            PatternMiner miner = new PatternMiner(DrainConfig.defaults(), Duration.ofHours(3).toMillis());
            PushListener feed = new PatternFeed(miner, clock);
            long lines = 0;
            long minerNanos = 0;
            long cpu;
            try (Ingester ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")), clock,
                    new PrometheusRegistry())) {
                long cpu0 = os.getProcessCpuTime();
                for (byte[] body : bodies) {
                    List<PushStream> streams = enricher.enrich(decoder.decode(body, "application/x-protobuf"));
                    PushResult result = ingester.push("bench", streams);
                    lines += result.acceptedEntries();
                    if (mining) {
                        long m0 = threads.getCurrentThreadCpuTime();
                        feed.accepted("bench", streams);
                        minerNanos += threads.getCurrentThreadCpuTime() - m0;
                    }
                }
                cpu = os.getProcessCpuTime() - cpu0;
            }
            int patterns = mining ? miner.patterns("bench", l -> true, 0, Long.MAX_VALUE, 3_600_000L).size() : 0;
            return new Round(lines, cpu, minerNanos, patterns);
        } finally {
            TempTrees.delete(dir);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
