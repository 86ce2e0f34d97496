package io.logbloom.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures the chunk format on realistic generated logs ({@link ChunkLogGenerator}): compression
 * ratio and encode/decode throughput per encoding, with Loki's default sizes (256 KiB blocks, 1.5 MiB
 * target chunks).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.ChunkReport --entries 200000}.
 * Encode = append every entry to a {@link MemChunk}, encoding and starting a new chunk whenever the
 * current one is full; decode = {@link Chunk#decode} plus a forward iteration over every entry of
 * every chunk. Each is run {@value #RUNS} times after one warm-up pass over all encodings and the
 * median is reported. MB are 10^6 bytes of raw log text (UTF-8 lines plus structured-metadata names
 * and values). One JSON object per encoding and line: {@code encoding, entries, chunks, raw_mb,
 * encoded_mb, ratio, encode_mb_s, decode_mb_s, encode_cpu_mb_s, decode_cpu_mb_s}; the {@code _cpu}
 * figures divide by the measuring thread's CPU time instead of wall time, so they stay meaningful on
 * a machine shared with other work (they exclude GC and JIT threads). Single-threaded; not thread-safe (a command-line
 * entry point).
 */
public final class ChunkReport {
    private static final int RUNS = 5;
    private static final long SEED = 42;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ChunkReport() {}

    /** Parses {@code --entries N} and prints one JSON line per encoding. */
    public static void main(String[] args) throws ChunkFormatException, JsonProcessingException {
        int entries = 200_000;
        for (int i = 0; i < args.length; i++) {
            if (!args[i].equals("--entries")) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "' (expected --entries N)");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after --entries");
            }
            entries = Integer.parseInt(args[++i]);
            if (entries <= 0) {
                throw new IllegalArgumentException("--entries must be positive: " + entries);
            }
        }
        List<LogEntry> stream = ChunkLogGenerator.entries(SEED, entries);
        for (ChunkEncoding encoding : ChunkEncoding.values()) {
            List<byte[]> chunks = encode(stream, encoding);
            decode(chunks, stream.size());
        }
        ObjectMapper json = new ObjectMapper();
        for (ChunkEncoding encoding : ChunkEncoding.values()) {
            System.out.println(json.writeValueAsString(measure(stream, encoding)));
        }
    }

    private static Map<String, Object> measure(List<LogEntry> stream, ChunkEncoding encoding)
            throws ChunkFormatException {
        MemChunk sizing = new MemChunk(ChunkConfig.defaults());
        for (LogEntry entry : stream) {
            sizing.append(entry);
        }
        long raw = sizing.uncompressedBytes();
        long[] encodeNanos = new long[RUNS];
        long[] decodeNanos = new long[RUNS];
        long[] encodeCpuNanos = new long[RUNS];
        long[] decodeCpuNanos = new long[RUNS];
        List<byte[]> chunks = List.of();
        for (int run = 0; run < RUNS; run++) {
            long start = System.nanoTime();
            long startCpu = THREADS.getCurrentThreadCpuTime();
            chunks = encode(stream, encoding);
            encodeNanos[run] = System.nanoTime() - start;
            encodeCpuNanos[run] = THREADS.getCurrentThreadCpuTime() - startCpu;
            start = System.nanoTime();
            startCpu = THREADS.getCurrentThreadCpuTime();
            decode(chunks, stream.size());
            decodeNanos[run] = System.nanoTime() - start;
            decodeCpuNanos[run] = THREADS.getCurrentThreadCpuTime() - startCpu;
        }
        long encoded = chunks.stream().mapToLong(c -> c.length).sum();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("encoding", encoding.name().toLowerCase(java.util.Locale.ROOT));
        row.put("entries", stream.size());
        row.put("chunks", chunks.size());
        row.put("raw_mb", round(raw / 1e6));
        row.put("encoded_mb", round(encoded / 1e6));
        row.put("ratio", round((double) raw / encoded));
        row.put("encode_mb_s", round(raw / 1e6 / (median(encodeNanos) / 1e9)));
        row.put("decode_mb_s", round(raw / 1e6 / (median(decodeNanos) / 1e9)));
        row.put("encode_cpu_mb_s", round(raw / 1e6 / (median(encodeCpuNanos) / 1e9)));
        row.put("decode_cpu_mb_s", round(raw / 1e6 / (median(decodeCpuNanos) / 1e9)));
        return row;
    }

    private static List<byte[]> encode(List<LogEntry> stream, ChunkEncoding encoding) {
        ChunkConfig config = ChunkConfig.defaults().withEncoding(encoding);
        List<byte[]> chunks = new ArrayList<>();
        MemChunk chunk = new MemChunk(config);
        for (LogEntry entry : stream) {
            chunk.append(entry);
            if (chunk.isFull()) {
                chunks.add(chunk.encode());
                chunk = new MemChunk(config);
            }
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk.encode());
        }
        return chunks;
    }

    private static void decode(List<byte[]> chunks, int expectedEntries) throws ChunkFormatException {
        long count = 0;
        long checksum = 0;
        for (byte[] bytes : chunks) {
            Iterator<LogEntry> iterator =
                    Chunk.decode(bytes).iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD);
            while (iterator.hasNext()) {
                LogEntry entry = iterator.next();
                checksum += entry.line().length() + entry.metadata().size();
                count++;
            }
        }
        if (count != expectedEntries || checksum == 0) {
            throw new IllegalStateException("decoded " + count + " entries, expected " + expectedEntries);
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
