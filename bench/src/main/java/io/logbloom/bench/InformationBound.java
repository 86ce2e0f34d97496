package io.logbloom.bench;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * How small the footprint data set can get, so a size target can be judged against it: the bytes no
 * encoding removes from the data, per column.
 *
 * <ul>
 *   <li>Random ids: a metadata value of 32 hex digits is 16 random bytes ({@code trace_id} draws two
 *       {@code nextLong}s per line), counted exactly for every line; no encoding shrinks them.
 *   <li>Lines: the generator's own account of the information its lines carry
 *       ({@link io.logbloom.loadtest.LogGenerator#lineInformationBits}: the mean self-information of what a line
 *       shows, i.e. an estimate of the lines' entropy), which no lossless encoding beats on average.
 *   <li>Timestamps: they come from the clock, not from draws; a sample (the first {@code sampleLines} lines)
 *       grouped by stream, as zigzag varint deltas, compressed with xz (LZMA2 preset 9, 64 MiB dictionary): an
 *       upper estimate of what they carry, under a bit per line.
 * </ul>
 *
 * The bound is "ids + lines' information + xz(timestamps)": no store can hold the data set in less, whatever its
 * index and filters add. For comparison the lines are also compressed with xz as above: a strong general-purpose
 * compressor's size, which a block-seekable store's encoding can approach or beat (the columnar tokenized lines
 * do) but which is not a floor.
 *
 * Not thread-safe: one report thread feeds it.
 */
final class InformationBound {
    private static final int RANDOM_ID_HEX_DIGITS = 32;
    /** Lines the generator draws to estimate the information of a line (three significant digits). */
    static final int INFORMATION_SAMPLES = 300_000;

    private final Path dir;
    private final long sampleLines;
    private final Map<Labels, Integer> streamIndex = new HashMap<>();
    private final List<DataOutputStream> lineFiles = new ArrayList<>();
    private final List<DataOutputStream> timestampFiles = new ArrayList<>();
    private final List<long[]> lastTimestamp = new ArrayList<>();
    private long sampled;
    private long randomIdBytes;
    private long otherMetadataBytes;

    /** A bound sampling {@code sampleLines} lines into files under {@code dir}. */
    InformationBound(Path dir, long sampleLines) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.sampleLines = sampleLines;
    }

    /** Accounts one row of stream {@code labels}. */
    void add(Labels labels, long timestampNanos, byte[] line, List<Label> metadata) throws IOException {
        for (Label field : metadata) {
            if (field.value().length() == RANDOM_ID_HEX_DIGITS && field.value().chars().allMatch(
                    c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                randomIdBytes += RANDOM_ID_HEX_DIGITS / 2;
            } else {
                otherMetadataBytes += field.name().length() + field.value().length();
            }
        }
        if (sampled >= sampleLines) {
            return;
        }
        sampled++;
        int stream = streamIndex.computeIfAbsent(labels, l -> {
            try {
                lineFiles.add(open("lines-" + streamIndex.size()));
                timestampFiles.add(open("timestamps-" + streamIndex.size()));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            lastTimestamp.add(new long[] {0});
            return streamIndex.size();
        });
        lineFiles.get(stream).write(line);
        lineFiles.get(stream).write('\n');
        long delta = timestampNanos - lastTimestamp.get(stream)[0];
        lastTimestamp.get(stream)[0] = timestampNanos;
        writeVarint(timestampFiles.get(stream), (delta << 1) ^ (delta >> 63));
    }

    /**
     * Compresses the samples and prints the bound as one JSON line, extrapolated to {@code totalLines}; {@code
     * lineInformationBits} is the generator's information per line.
     */
    void print(long totalLines, double lineInformationBits) throws IOException {
        for (DataOutputStream out : lineFiles) {
            out.close();
        }
        for (DataOutputStream out : timestampFiles) {
            out.close();
        }
        long[] lines = xz("lines-");
        long[] timestamps = xz("timestamps-");
        double scale = totalLines / (double) Math.max(1, sampled);
        double linesXzMb = lines[1] * scale / 1e6;
        double linesInformationMb = lineInformationBits / 8 * totalLines / 1e6;
        double timestampsMb = timestamps[1] * scale / 1e6;
        double idsMb = randomIdBytes / 1e6;
        double otherMb = otherMetadataBytes / 1e6;
        System.out.println(String.format(Locale.ROOT, "{\"what\":\"information_bound\",\"lines\":%d,\"sample_lines\":%d,"
                        + "\"random_ids_mb\":%.2f,\"other_metadata_raw_mb\":%.2f,\"lines_raw_mb\":%.1f,"
                        + "\"lines_information_mb\":%.2f,\"lines_information_bits_per_line\":%.1f,"
                        + "\"lines_xz9_mb\":%.2f,\"lines_xz9_bits_per_line\":%.1f,\"timestamps_xz9_mb\":%.2f,"
                        + "\"timestamps_xz9_bits_per_line\":%.2f,\"bound_mb\":%.2f,\"bound_with_xz_lines_mb\":%.2f}",
                totalLines, sampled, idsMb, otherMb, lines[0] * scale / 1e6, linesInformationMb, lineInformationBits,
                linesXzMb, lines[1] * 8.0 / Math.max(1, sampled), timestampsMb,
                timestamps[1] * 8.0 / Math.max(1, sampled), idsMb + linesInformationMb + timestampsMb + otherMb,
                idsMb + linesXzMb + timestampsMb + otherMb));
    }

    /** Raw and xz-compressed bytes of the files {@code prefix0..n}, concatenated in stream order. */
    private long[] xz(String prefix) throws IOException {
        ColumnarFootprintReport.CountingSink counter = new ColumnarFootprintReport.CountingSink();
        long raw = 0;
        LZMA2Options options = new LZMA2Options(LZMA2Options.PRESET_MAX);
        try (XZOutputStream out = new XZOutputStream(counter, options)) {
            for (int i = 0; i < streamIndex.size(); i++) {
                Path file = dir.resolve(prefix + i);
                raw += Files.size(file);
                Files.copy(file, out);
            }
        }
        return new long[] {raw, counter.count};
    }

    private DataOutputStream open(String name) throws IOException {
        return new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(name)), 1 << 16));
    }

    private static void writeVarint(OutputStream out, long value) throws IOException {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
