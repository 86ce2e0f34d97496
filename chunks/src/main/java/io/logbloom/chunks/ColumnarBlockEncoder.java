package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes one block of a columnar object at a time into bytes of its own: timestamps, lines, then one column per
 * metadata key, back to back, with each column's place relative to the block's start. A {@link ColumnarObjectWriter}
 * keeps one per block it encodes at once, so blocks can be encoded on other threads while the writer fills the next
 * (see {@link ColumnarObjectWriter#ColumnarObjectWriter(java.io.OutputStream, ColumnarConfig,
 * java.util.concurrent.Executor, int)}).
 *
 * <p>Not thread-safe: one block at a time; its {@link Encoded} result points into its buffers and is valid until the
 * next {@link #encode}. {@link #close()} releases the native zstd context.
 */
final class ColumnarBlockEncoder implements AutoCloseable {
    private final ColumnarColumnEncoder encoder;
    private final ByteSink out = new ByteSink(ColumnarLineTokens.INITIAL_BUFFER_BYTES);
    private long[] timestampScratch;
    private KeyColumn[] keyColumns = new KeyColumn[0];
    /** Collects the words of the block's lines for sinks that want them; kept while blocks ask for the same rule. */
    private LineWords lineWords;

    ColumnarBlockEncoder(ColumnarConfig config) {
        this.encoder = new ColumnarColumnEncoder(config.zstdLevel(), config.effort());
        // a whole block's timestamps from the start (128 KB at the default 16 Ki rows): grown on demand, the scratch
        // grew in the warm-up's small blocks and again in the first real merge, whose C2 code an uncommon trap then
        // threw away mid-push
        this.timestampScratch = new long[Math.min(config.maxRowsPerBlock(), ColumnarConfig.DEFAULT_MAX_ROWS_PER_BLOCK)];
    }

    /**
     * One encoded block: its columns (offsets from the block's first byte) stored in {@code bytes[0, length)}, and
     * the words of its lines when they were asked for and the line encoder split them (else null).
     */
    record Encoded(int rows, long minTimeNanos, long maxTimeNanos, boolean distinctTimestamps,
            List<ColumnarColumnInfo> columns, byte[] bytes, int length, LineWords words) {}

    /**
     * Encodes rows {@code order[from, to)} of {@code rows} with metadata columns in {@code keyOrder} (key ids sorted
     * by name); collects the lines' words by {@code wordRule} when it is not null.
     */
    Encoded encode(ColumnarRows rows, int[] order, int from, int to, int[] keyOrder, LineWords.Rule wordRule) {
        // the row loops live in methods of their own: a loop in this method would be compiled on stack replacement,
        // once per loop, each time with every encoder inlined (the costliest compiles of a fresh server's first push)
        int count = to - from;
        LineWords words = lineWords(wordRule);
        out.reset();
        copyTimestamps(rows, order, from, to);
        List<ColumnarColumnInfo> columns = new ArrayList<>(2 + keyOrder.length);
        columns.add(put(ColumnarColumnInfo.Kind.TIMESTAMPS, "", encoder.timestamps(timestampScratch, count)));
        columns.add(put(ColumnarColumnInfo.Kind.LINES, "", encoder.lines(rows, order, from, to, words)));
        collectKeyColumns(rows, order, from, to, keyOrder);
        for (int keyId : keyOrder) {
            KeyColumn column = keyColumns[keyId];
            if (column.count > 0) {
                columns.add(put(ColumnarColumnInfo.Kind.METADATA, rows.keyName(keyId), encoder.metadata(count,
                        column.rows, column.count, rows.metaValues(), column.starts, column.ends)));
            }
        }
        return new Encoded(count, timestampScratch[0], timestampScratch[count - 1],
                strictlyIncreasing(timestampScratch, count), columns, out.array(), out.size(),
                words != null && words.split() ? words : null);
    }

    private ColumnarColumnInfo put(ColumnarColumnInfo.Kind kind, String key, ColumnarColumnEncoder.Encoded encoded) {
        ColumnarColumnInfo info = new ColumnarColumnInfo(kind, key, encoded.encoding(), encoded.zstd(), out.size(),
                encoded.length(), ColumnarLayout.crc32c(encoded.bytes(), 0, encoded.length()), encoded.decodedSize());
        out.writeBytes(encoded.bytes(), 0, encoded.length());
        return info;
    }

    /** The reset word collector for {@code rule} (kept while blocks ask for the same rule), or null without a rule. */
    private LineWords lineWords(LineWords.Rule rule) {
        if (rule == null) {
            return null;
        }
        if (lineWords == null || lineWords.rule() != rule) {
            lineWords = new LineWords(rule);
        }
        lineWords.reset();
        return lineWords;
    }

    /** The timestamps of rows {@code order[from, to)} into {@link #timestampScratch}, from index 0. */
    private void copyTimestamps(ColumnarRows rows, int[] order, int from, int to) {
        int count = to - from;
        if (timestampScratch.length < count) {
            timestampScratch = new long[Math.max(count, timestampScratch.length * 2)];
        }
        long[] times = timestampScratch;
        for (int i = from; i < to; i++) {
            times[i - from] = rows.timestampNanos(order[i]);
        }
    }

    /** Each metadata key's present rows and value ranges among rows {@code order[from, to)}, into its KeyColumn. */
    private void collectKeyColumns(ColumnarRows rows, int[] order, int from, int to, int[] keyOrder) {
        if (keyColumns.length < rows.keyCount()) {
            KeyColumn[] grown = Arrays.copyOf(keyColumns, rows.keyCount());
            for (int k = keyColumns.length; k < grown.length; k++) {
                grown[k] = new KeyColumn();
            }
            keyColumns = grown;
        }
        for (int k = 0; k < keyOrder.length; k++) {
            keyColumns[keyOrder[k]].count = 0;
        }
        for (int i = from; i < to; i++) {
            int row = order[i];
            for (int p = rows.metaPairStart(row); p < rows.metaPairEnd(row); p++) {
                keyColumns[rows.metaPairKey(p)].add(i - from, rows.metaValueStart(p), rows.metaValueEnd(p));
            }
        }
    }

    private static boolean strictlyIncreasing(long[] timestamps, int count) {
        for (int i = 1; i < count; i++) {
            if (timestamps[i] <= timestamps[i - 1]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        encoder.close();
    }

    /** One metadata key's present rows and value ranges within the block being encoded. */
    private static final class KeyColumn {
        int[] rows = new int[64];
        int[] starts = new int[64];
        int[] ends = new int[64];
        int count;

        void add(int row, int start, int end) {
            if (count == rows.length) {
                rows = Arrays.copyOf(rows, count * 2);
                starts = Arrays.copyOf(starts, count * 2);
                ends = Arrays.copyOf(ends, count * 2);
            }
            rows[count] = row;
            starts[count] = start;
            ends[count] = end;
            count++;
        }
    }
}
