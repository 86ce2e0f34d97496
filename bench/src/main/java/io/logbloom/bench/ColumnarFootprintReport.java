package io.logbloom.bench;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarColumnInfo;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.FileRangeSource;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LineWords;
import io.logbloom.chunks.MemChunk;
import io.logbloom.chunks.RangeSource;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.ingest.SeriesBloomWriter;
import io.logbloom.loadtest.GeneratorConfig;
import io.logbloom.loadtest.LogGenerator;
import io.logbloom.loadtest.LogStream;
import io.logbloom.loadtest.PushBatch;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Stored bytes of the issue-10 data set in the row chunk format (v1) against the columnar format
 * (v2), in one run. The data comes from the load-test {@link LogGenerator} (100 streams, 1000-line
 * batches, a unique 128-bit {@code trace_id} per line; 3 M lines are about 430 MB of line bytes),
 * with a simulated clock advancing {@code --batch-interval-ms} per batch.
 *
 * <ul>
 *   <li>v1: one {@link MemChunk} per stream with {@link ChunkConfig#defaults()}, cut when full and at
 *       the end, as the ingester flushes them (chunk bytes only; index and blooms are not counted).
 *   <li>v2 parts: the rows of each {@code --window-seconds} window, all streams, sealed into one
 *       columnar object per window (written to temporary files), as LSM sealing would.
 *   <li>v2 merged: every part read back through {@link ColumnarObjectReader} and merged into one
 *       object per variant ({@code --variants level:blockKiB,...}), as the merger would.
 * </ul>
 *
 * Prints one JSON line per variant: objects, stored bytes (total and by column kind), bytes per
 * line byte and per raw byte (line + metadata), encode MB/s (thread CPU spent writing, per MB of
 * line bytes) and, for merges, decode MB/s of the line columns read from the parts. Not
 * thread-safe (one run per process).
 *
 * <p>Run: {@code java -Xmx3g -cp bench/target/benchmarks.jar io.logbloom.bench.ColumnarFootprintReport
 * --lines 3000000 --variants 3:256,9:256,19:1024}
 */
public final class ColumnarFootprintReport {
    private static final int STREAMS = 100;
    private static final int BATCH_LINES = 1000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The storage issue's data set: median 85 gives 3 M lines = 430 MB of lines (~143 bytes a line). */
    private static final int ISSUE_MEDIAN_LINE_LENGTH = 85;
    /** Object key the merged object's blooms are scoped to (the report writes no real object). */
    private static final String MERGED_KEY = "footprint/objects/merged.lbo";

    private ColumnarFootprintReport() {}

    /** One merged-object variant: zstd level and block size. */
    private record Variant(int zstdLevel, int blockKib) {}

    /** Runs the measurement; flags {@code --lines N --window-seconds S --batch-interval-ms M --variants L:K,...}. */
    public static void main(String[] args) throws Exception {
        long lines = 3_000_000;
        int lineLength = ISSUE_MEDIAN_LINE_LENGTH;
        long entropyLines = 300_000;
        int windowSeconds = 1;
        double batchIntervalMs = 5;
        List<Variant> variants = List.of(new Variant(3, 256), new Variant(9, 256), new Variant(3, 1024),
                new Variant(19, 1024));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lines" -> lines = Long.parseLong(args[++i]);
                case "--line-length" -> lineLength = Integer.parseInt(args[++i]);
                case "--entropy-lines" -> entropyLines = Long.parseLong(args[++i]);
                case "--window-seconds" -> windowSeconds = Integer.parseInt(args[++i]);
                case "--batch-interval-ms" -> batchIntervalMs = Double.parseDouble(args[++i]);
                case "--variants" -> {
                    List<Variant> list = new ArrayList<>();
                    for (String v : args[++i].split(",")) {
                        String[] parts = v.split(":");
                        list.add(new Variant(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
                    }
                    variants = list;
                }
                default -> throw new IllegalArgumentException("unknown flag: " + args[i]
                        + " (expected --lines, --line-length, --entropy-lines, --window-seconds, --batch-interval-ms,"
                        + " --variants)");
            }
        }
        Path dir = Files.createTempDirectory("columnar-footprint");
        try {
            run(dir, lines, lineLength, entropyLines, windowSeconds, batchIntervalMs, variants);
        } finally {
            TempTrees.delete(dir);
        }
    }

    private static void run(Path dir, long targetLines, int lineLength, long entropyLines, int windowSeconds,
            double batchIntervalMs, List<Variant> variants) throws IOException {
        long[] clockNanos = {1_760_000_000_000_000_000L};
        LogGenerator generator = new LogGenerator(new GeneratorConfig(42, "footprint", STREAMS, BATCH_LINES, false,
                lineLength));
        InformationBound bound = new InformationBound(dir.resolve("entropy"), entropyLines);
        LogGenerator.Lane lane = generator.lane(0, 1, () -> Instant.ofEpochSecond(0, clockNanos[0]));
        Map<Map<String, String>, Labels> labelsCache = new IdentityHashMap<>();
        Map<Labels, MemChunk> v1Chunks = new HashMap<>();
        Map<Labels, ColumnarRows> window = new TreeMap<>(ColumnarDirectory.STREAM_ORDER);
        Totals v1 = new Totals();
        Totals parts = new Totals();
        List<Path> partFiles = new ArrayList<>();
        long windowNanos = windowSeconds * 1_000_000_000L;
        long windowEnd = clockNanos[0] + windowNanos;
        long lineBytes = 0;
        long rawBytes = 0;
        long lines = 0;
        ColumnarConfig partConfig = ColumnarConfig.defaults();
        while (lines < targetLines) {
            PushBatch batch = lane.next();
            clockNanos[0] += (long) (batchIntervalMs * 1e6);
            for (LogStream stream : batch.streams()) {
                Labels labels = labelsCache.computeIfAbsent(stream.labels(), Labels::of);
                MemChunk chunk = v1Chunks.computeIfAbsent(labels, l -> new MemChunk(ChunkConfig.defaults()));
                ColumnarRows rows = window.computeIfAbsent(labels, l -> new ColumnarRows());
                for (io.logbloom.loadtest.LogEntry entry : stream.entries()) {
                    byte[] line = entry.line().getBytes(StandardCharsets.UTF_8);
                    List<Label> metadata = new ArrayList<>(entry.structuredMetadata().size());
                    entry.structuredMetadata().forEach((k, v) -> metadata.add(new Label(k, v)));
                    lineBytes += line.length;
                    rawBytes += line.length;
                    for (Label label : metadata) {
                        rawBytes += label.name().length() + label.value().length();
                    }
                    lines++;
                    bound.add(labels, entry.timestampNanos(), line, metadata);
                    long cpu = THREADS.getCurrentThreadCpuTime();
                    chunk.append(new io.logbloom.chunks.LogEntry(entry.timestampNanos(), entry.line(), metadata));
                    if (chunk.isFull()) {
                        v1.add(chunk.encode().length);
                        v1Chunks.put(labels, new MemChunk(ChunkConfig.defaults()));
                    }
                    v1.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
                    rows.append(entry.timestampNanos(), line, 0, line.length, metadata);
                }
            }
            if (clockNanos[0] >= windowEnd || lines >= targetLines) {
                partFiles.add(seal(dir.resolve("part-" + partFiles.size()), window, partConfig, parts));
                window.clear();
                windowEnd += windowNanos;
            }
        }
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (MemChunk chunk : v1Chunks.values()) {
            if (!chunk.isEmpty()) {
                v1.add(chunk.encode().length);
            }
        }
        v1.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
        Data data = new Data(lines, lineBytes, rawBytes);
        print("v1_row_chunks", "zstd-3, 256 KiB blocks, 1.5 MiB chunks", data, v1, v1);
        print("v2_parts", windowSeconds + " s windows, zstd-" + partConfig.zstdLevel() + ", "
                + partConfig.maxRawBytesPerBlock() / 1024 + " KiB blocks", data, parts, v1);
        boolean blooms = true;
        for (Variant variant : variants) {
            Totals merged = merge(partFiles, new ColumnarConfig(ColumnarConfig.DEFAULT_MAX_ROWS_PER_BLOCK,
                    variant.blockKib() * 1024, variant.zstdLevel()), blooms ? dir.resolve("blooms") : null);
            print("v2_merged", "one object, zstd-" + variant.zstdLevel() + ", " + variant.blockKib() + " KiB blocks"
                    + (blooms ? ", encode CPU with tokenizing for both bloom layouts" : ""), data, merged, v1);
            blooms = false; // the tokens, so the blooms, are the same for every variant of the one object
        }
        bound.print(lines, generator.lineInformationBits(InformationBound.INFORMATION_SAMPLES, 1));
    }

    private static Path seal(Path file, Map<Labels, ColumnarRows> window, ColumnarConfig config, Totals totals)
            throws IOException {
        long cpu = THREADS.getCurrentThreadCpuTime();
        ColumnarDirectory directory;
        long size;
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                ColumnarObjectWriter writer = new ColumnarObjectWriter(out, config)) {
            for (Map.Entry<Labels, ColumnarRows> stream : window.entrySet()) {
                if (stream.getValue().size() > 0) {
                    writer.add(stream.getKey(), stream.getValue());
                }
            }
            directory = writer.finish();
            size = writer.bytesWritten();
        }
        totals.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
        totals.add(size);
        totals.addColumns(directory);
        return file;
    }

    /**
     * Reads every part and writes one merged object (to a counting sink); returns its totals. With a
     * {@code bloomDir}, also measures the series blooms of the object two ways: main's layout (one
     * scalable filter per series with the default {@link BloomConfig}: capacity 1024, growth x2,
     * tightening 0.5) and the exactly sized filter per series and object that {@link SeriesBloomWriter}
     * writes (the stored bloom files' bytes).
     */
    private static Totals merge(List<Path> partFiles, ColumnarConfig config, Path bloomDir) throws IOException {
        Totals totals = new Totals();
        BloomTokenizer tokenizer = new BloomTokenizer(BloomTokenizerConfig.defaults());
        SeriesBloomWriter bloomWriter = bloomDir == null ? null : new SeriesBloomWriter(tokenizer,
                BloomConfig.defaults(), new SeriesBloomStore(new FileSystemObjectStore(bloomDir)), Long.MAX_VALUE);
        List<FileRangeSource> sources = new ArrayList<>();
        try {
            List<ColumnarObjectReader> readers = new ArrayList<>();
            TreeMap<Labels, List<int[]>> streamParts = new TreeMap<>(ColumnarDirectory.STREAM_ORDER);
            for (int p = 0; p < partFiles.size(); p++) {
                FileRangeSource source = RangeSource.ofFile(partFiles.get(p));
                sources.add(source);
                ColumnarObjectReader reader = new ColumnarObjectReader(source);
                readers.add(reader);
                List<io.logbloom.chunks.ColumnarStreamInfo> streams = reader.directory().streams();
                for (int s = 0; s < streams.size(); s++) {
                    streamParts.computeIfAbsent(streams.get(s).labels(), l -> new ArrayList<>()).add(new int[] {p, s});
                }
            }
            CountingSink sink = new CountingSink();
            ColumnarDirectory directory;
            try (ColumnarObjectWriter writer = new ColumnarObjectWriter(sink, config)) {
                ColumnarRows rows = new ColumnarRows();
                for (Map.Entry<Labels, List<int[]>> stream : streamParts.entrySet()) {
                    rows.clear();
                    long cpu = THREADS.getCurrentThreadCpuTime();
                    for (int[] ref : stream.getValue()) {
                        ColumnarObjectReader reader = readers.get(ref[0]);
                        for (ColumnarBlockInfo info : reader.directory().blocksOf(ref[1])) {
                            int block = reader.directory().blocks().indexOf(info);
                            long decode = THREADS.getCurrentThreadCpuTime();
                            ColumnarLines lines = reader.readLines(block);
                            totals.decodeNanos += THREADS.getCurrentThreadCpuTime() - decode;
                            totals.decodedLineBytes += lines.offset(lines.rows() - 1) + lines.length(lines.rows() - 1)
                                    - lines.offset(0);
                            ColumnarBlock decoded = reader.readBlock(block);
                            for (int row = 0; row < decoded.rows(); row++) {
                                rows.append(decoded.timestampNanos(row), lines.bytes(), lines.offset(row),
                                        lines.length(row), decoded.metadata(row));
                            }
                        }
                    }
                    totals.readNanos += THREADS.getCurrentThreadCpuTime() - cpu;
                    cpu = THREADS.getCurrentThreadCpuTime();
                    if (bloomWriter == null) {
                        writer.add(stream.getKey(), rows);
                        totals.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
                        continue;
                    }
                    // with blooms the encode CPU includes tokenizing into both layouts
                    ScalableBloomFilter scalable = ScalableBloomFilter.create(BloomConfig.defaults());
                    SeriesBloomWriter.ObjectTokens exact = bloomWriter.start("footprint", stream.getKey().fingerprint(),
                            rows.timestampNanos(0), MERGED_KEY);
                    writer.add(stream.getKey(), rows, new ColumnarObjectWriter.BlockSink() {
                        @Override
                        public LineWords.Rule wordRule() {
                            return exact.wordRule(); // the exact layout takes the words the writer splits
                        }

                        @Override
                        public void block(int block, ColumnarRows blockRows, int[] order, int from, int to,
                                LineWords words) {
                            exact.block(block, blockRows, order, from, to, words);
                            BloomTokenizer.ChunkTokens tokens = tokenizer.chunk(
                                    ColumnarDirectory.blockScope(MERGED_KEY, block), scalable::add);
                            for (int i = from; i < to; i++) {
                                for (Label field : blockRows.metadata(order[i])) {
                                    tokens.metadata(field.name(), field.value());
                                }
                                tokens.line(blockRows.line(order[i]));
                            }
                        }
                    });
                    exact.finish();
                    totals.bloomsScalableBytes += scalable.serialize().length;
                    totals.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
                }
                if (bloomWriter != null) {
                    bloomWriter.persist();
                    try (Stream<Path> files = Files.walk(bloomDir)) {
                        totals.bloomsExactBytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length())
                                .sum();
                    }
                }
                long cpu = THREADS.getCurrentThreadCpuTime();
                directory = writer.finish();
                totals.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
            }
            totals.add(sink.count);
            totals.addColumns(directory);
        } finally {
            for (FileRangeSource source : sources) {
                source.close();
            }
        }
        return totals;
    }

    private static void print(String what, String settings, Data data, Totals totals, Totals baseline) {
        StringBuilder json = new StringBuilder();
        json.append(String.format(Locale.ROOT, "{\"what\":\"%s\",\"settings\":\"%s\",\"lines\":%d,\"line_mb\":%.1f,"
                        + "\"raw_mb\":%.1f,\"objects\":%d,\"stored_mb\":%.2f,\"per_line_byte\":%.4f,"
                        + "\"per_raw_byte\":%.4f,\"vs_v1\":%.3f,\"encode_mb_per_cpu_s\":%.1f", what, settings,
                data.lines, data.lineBytes / 1e6, data.rawBytes / 1e6, totals.objects, totals.bytes / 1e6,
                totals.bytes / (double) data.lineBytes, totals.bytes / (double) data.rawBytes,
                totals.bytes / (double) baseline.bytes, data.lineBytes / 1e6 / (totals.cpuNanos / 1e9)));
        if (totals.decodeNanos > 0) {
            json.append(String.format(Locale.ROOT, ",\"line_decode_mb_per_cpu_s\":%.1f,\"merge_read_cpu_s\":%.1f",
                    totals.decodedLineBytes / 1e6 / (totals.decodeNanos / 1e9), totals.readNanos / 1e9));
        }
        if (totals.bloomsExactBytes > 0) {
            json.append(String.format(Locale.ROOT, ",\"blooms_mb\":{\"scalable_per_series_main\":%.2f,"
                    + "\"scalable_share_of_stored\":%.3f,\"exact_per_object\":%.2f,\"exact_share_of_stored\":%.3f,"
                    + "\"exact_vs_scalable\":%.3f}", totals.bloomsScalableBytes / 1e6,
                    totals.bloomsScalableBytes / (double) (totals.bytes + totals.bloomsScalableBytes),
                    totals.bloomsExactBytes / 1e6,
                    totals.bloomsExactBytes / (double) (totals.bytes + totals.bloomsExactBytes),
                    totals.bloomsExactBytes / (double) totals.bloomsScalableBytes));
        }
        if (!totals.byKind.isEmpty()) {
            json.append(",\"columns_mb\":{");
            boolean first = true;
            for (Map.Entry<String, Long> kind : totals.byKind.entrySet()) {
                json.append(first ? "" : ",").append(String.format(Locale.ROOT, "\"%s\":%.2f", kind.getKey(),
                        kind.getValue() / 1e6));
                first = false;
            }
            json.append(String.format(Locale.ROOT, ",\"directory_and_framing\":%.2f}",
                    (totals.bytes - totals.byKind.values().stream().mapToLong(Long::longValue).sum()) / 1e6));
        }
        System.out.println(json.append('}'));
    }

    private record Data(long lines, long lineBytes, long rawBytes) {}

    /** Accumulated sizes and CPU of one variant. Not thread-safe. */
    private static final class Totals {
        long objects;
        long bytes;
        long cpuNanos;
        long decodeNanos;
        long readNanos;
        long decodedLineBytes;
        long bloomsScalableBytes;
        long bloomsExactBytes;
        final Map<String, Long> byKind = new TreeMap<>();

        void add(long objectBytes) {
            objects++;
            bytes += objectBytes;
        }

        void addColumns(ColumnarDirectory directory) {
            for (ColumnarBlockInfo block : directory.blocks()) {
                for (ColumnarColumnInfo column : block.columns()) {
                    String kind = column.kind() == ColumnarColumnInfo.Kind.METADATA ? "metadata:" + column.key()
                            : column.kind().name().toLowerCase(Locale.ROOT);
                    byKind.merge(kind, (long) column.length(), Long::sum);
                }
            }
        }
    }

    /** An output stream that only counts. Not thread-safe. */
    static final class CountingSink extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
