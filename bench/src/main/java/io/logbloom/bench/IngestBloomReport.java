package io.logbloom.bench;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.WalConfig;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures what line tokens cost: bytes of series bloom per MB of log text, and CPU time of
 * tokenizing + adding tokens (CPU time of the measuring thread), for metadata only (the baseline),
 * metadata + word tokens (the default), and metadata + n-grams; then the whole ingest path (push into an
 * {@link Ingester} with interval fsync, then flush to a filesystem store) per line in each mode, as ratios
 * to the baseline measured in the same run.
 * Logs come from {@link ChunkLogGenerator} (realistic mixed logfmt/JSON/plain, a third with
 * structured metadata), grouped into chunks of {@code --chunk-mb} MB of raw text per series.
 * Not thread-safe (one run per process).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.IngestBloomReport --mb 16}.
 */
public final class IngestBloomReport {
    /** CPU time of the measuring thread: the machine is shared, so wall time would measure the neighbours. */
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private IngestBloomReport() {}

    /** Runs the measurement; flags: --mb (log MB per mode, default 16), --chunk-mb (default 1), --skip (n-gram skip, default 0). */
    public static void main(String[] args) throws Exception {
        int mb = 16;
        int chunkMb = 1;
        int skip = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mb" -> mb = Integer.parseInt(args[++i]);
                case "--chunk-mb" -> chunkMb = Integer.parseInt(args[++i]);
                case "--skip" -> skip = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag: " + args[i]);
            }
        }
        long start = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;
        List<List<LogEntry>> chunks = chunks(start, mb, chunkMb);
        long rawBytes = 0;
        for (List<LogEntry> chunk : chunks) {
            for (LogEntry e : chunk) {
                rawBytes += rawSize(e);
            }
        }
        double rawMb = rawBytes / 1e6;
        BloomTokenizerConfig metadataOnly = new BloomTokenizerConfig(true, false, 4, skip, false);
        BloomTokenizerConfig words = new BloomTokenizerConfig(true, false, 4, skip, true);
        BloomTokenizerConfig ngrams = new BloomTokenizerConfig(true, true, 4, skip, false);
        long lines = chunks.stream().mapToLong(List::size).sum();
        // warm-up, then measure
        tokenize(chunks, metadataOnly);
        tokenize(chunks, words);
        tokenize(chunks, ngrams);
        Result base = tokenize(chunks, metadataOnly);
        Result word = tokenize(chunks, words);
        Result gram = tokenize(chunks, ngrams);
        print("metadata", base, rawMb, chunks.size(), lines);
        print("metadata+words", word, rawMb, chunks.size(), lines);
        print("metadata+ngram n=4 skip=" + skip, gram, rawMb, chunks.size(), lines);
        System.out.printf("{\"what\":\"tokenizer_ratio\",\"words_bloom_size_ratio\":%.2f,\"words_cpu_ratio\":%.2f,"
                + "\"ngram_bloom_size_ratio\":%.1f,\"ngram_cpu_ratio\":%.1f}%n",
                (double) word.bloomBytes / base.bloomBytes, (double) word.nanos / base.nanos,
                (double) gram.bloomBytes / base.bloomBytes, (double) gram.nanos / base.nanos);
        ingest(chunks, metadataOnly, 1);
        ingest(chunks, words, 1);
        long ingestBase = ingest(chunks, metadataOnly, 1);
        long ingestWords = ingest(chunks, words, 1);
        long ingestGram = ingest(chunks, ngrams, 1);
        System.out.printf("{\"what\":\"ingest_push_and_flush\",\"log_mb\":%.1f,\"lines\":%d,\"metadata_us_per_line\":%.2f,"
                + "\"words_us_per_line\":%.2f,\"ngram_us_per_line\":%.2f,\"words_cpu_ratio\":%.2f,\"ngram_cpu_ratio\":%.2f}%n",
                rawMb, lines, ingestBase / 1e3 / lines, ingestWords / 1e3 / lines, ingestGram / 1e3 / lines,
                (double) ingestWords / ingestBase, (double) ingestGram / ingestBase);
    }

    private static void print(String mode, Result r, double rawMb, int chunks, long lines) {
        System.out.printf("{\"what\":\"tokenizer\",\"log_mb\":%.1f,\"chunks\":%d,\"mode\":\"%s\",\"bloom_bytes_per_log_mb\":%.0f,"
                + "\"tokens\":%d,\"cpu_ms\":%d,\"ns_per_line\":%.0f,\"mb_per_s\":%.1f}%n", rawMb, chunks, mode,
                r.bloomBytes / rawMb, r.tokens, r.nanos / 1_000_000, (double) r.nanos / lines, rawMb / (r.nanos / 1e9));
    }

    private record Result(long bloomBytes, long tokens, long nanos) {}

    /** One bloom per series (as ingest keeps one per series and day); each chunk is one series here. */
    private static Result tokenize(List<List<LogEntry>> chunks, BloomTokenizerConfig config) {
        BloomTokenizer tokenizer = new BloomTokenizer(config);
        long bytes = 0;
        long[] tokens = {0};
        long t0 = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < chunks.size(); i++) {
            List<LogEntry> chunk = chunks.get(i);
            ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults());
            BloomTokenizer.ChunkTokens chunkTokens = tokenizer.chunk("bench/" + i, h -> {
                filter.add(h);
                tokens[0]++;
            });
            for (LogEntry e : chunk) {
                for (Label field : e.metadata()) {
                    chunkTokens.metadata(field.name(), field.value());
                }
                chunkTokens.line(e.line());
            }
            bytes += filter.serialize().length;
        }
        return new Result(bytes, tokens[0], CPU.getCurrentThreadCpuTime() - t0);
    }

    private static long ingest(List<List<LogEntry>> chunks, BloomTokenizerConfig tokenizer, int round) throws IOException {
        Path dir = Files.createTempDirectory("ingest-bloom-report");
        try {
            LimitsConfig d = LimitsConfig.defaults();
            LimitsConfig open = new LimitsConfig(1 << 20, 1 << 20, 0, 15, 1024, 2048, false, d.rejectOldSamplesMaxAge(),
                    Duration.ofDays(3650), 0, 0, 0, true);
            IngestConfig config = IngestConfig.defaults(dir.resolve("wal")).withLimits(open).withTokenizer(tokenizer)
                    .withWal(new WalConfig(dir.resolve("wal"), WalConfig.FsyncPolicy.INTERVAL, Duration.ofSeconds(1), 64L << 20));
            Clock clock = Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC);
            long t0 = CPU.getCurrentThreadCpuTime();
            try (Ingester ingester = new Ingester(config, new FileSystemObjectStore(dir.resolve("store")), clock,
                    new PrometheusRegistry())) {
                for (int i = 0; i < chunks.size(); i++) {
                    List<LogEntry> chunk = chunks.get(i);
                    for (int from = 0; from < chunk.size(); from += 1000) {
                        ingester.push("bench", List.of(new PushStream("{app=\"bench\", series=\"" + i + "\", round=\"" + round + "\"}",
                                chunk.subList(from, Math.min(chunk.size(), from + 1000)))));
                    }
                }
                ingester.flushAll();
            }
            return CPU.getCurrentThreadCpuTime() - t0;
        } finally {
            TempTrees.delete(dir);
        }
    }

    private static List<List<LogEntry>> chunks(long start, int mb, int chunkMb) {
        ChunkLogGenerator generator = new ChunkLogGenerator(42, start);
        List<List<LogEntry>> chunks = new ArrayList<>();
        long total = 0;
        long target = (long) mb << 20;
        while (total < target) {
            List<LogEntry> chunk = new ArrayList<>();
            long size = 0;
            while (size < ((long) chunkMb << 20)) {
                LogEntry e = generator.next();
                chunk.add(e);
                size += rawSize(e);
            }
            chunks.add(chunk);
            total += size;
        }
        return chunks;
    }

    private static long rawSize(LogEntry e) {
        long size = e.line().getBytes(StandardCharsets.UTF_8).length;
        for (Label l : e.metadata()) {
            size += l.name().length() + l.value().length();
        }
        return size;
    }
}
