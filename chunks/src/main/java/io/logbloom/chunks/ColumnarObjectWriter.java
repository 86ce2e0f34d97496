package io.logbloom.chunks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Writes one columnar object (layout in {@code ColumnarLayout}) to an {@link OutputStream}: each
 * {@link #add}ed stream is cut into blocks and its columns are encoded and written at once, so the
 * writer holds one block's scratch buffers and the directory, never the object. {@link #finish()}
 * writes the directory and footer and returns the directory.
 *
 * <p>Streams must be added in {@link ColumnarDirectory#STREAM_ORDER} (fingerprint, then labels),
 * each once; rows within a stream may come in any time order (they are sorted stably by
 * timestamp). A stream too large for heap is written row by row through {@link #begin}, in time order.
 * Not thread-safe. {@link #close()} releases the native zstd context; it does not close
 * the output stream.
 */
public final class ColumnarObjectWriter implements AutoCloseable {
    private final OutputStream out;
    private final ColumnarConfig config;
    private final ColumnarColumnEncoder encoder;
    private final List<ColumnarStreamInfo> streams = new ArrayList<>();
    private final List<ColumnarBlockInfo> blocks = new ArrayList<>();
    private final TreeSet<String> keys = new TreeSet<>();
    private long position;
    private Labels previous;
    private boolean finished;
    private long[] timestampScratch = new long[256];
    private KeyColumn[] keyColumns = new KeyColumn[0];
    /** The stream being written row by row, if any. */
    private StreamAppender appending;
    /**
     * The two row buffers of the {@link StreamAppender}s, handed from one stream to the next: a buffer grows to a
     * block's rows, and buffers made per stream grew again each time (a tenth of a merge's allocations).
     */
    private final ColumnarRows[] appenderRows = {new ColumnarRows(), new ColumnarRows()};
    /** Collects the words of blocks' lines for sinks that want them ({@link BlockSink#wordRule()}). */
    private LineWords lineWords;

    /** A writer onto {@code out} (which it neither buffers nor closes) with {@code config}'s block bounds. */
    public ColumnarObjectWriter(OutputStream out, ColumnarConfig config) throws IOException {
        this.out = out;
        this.config = config;
        this.encoder = new ColumnarColumnEncoder(config.zstdLevel(), config.effort());
        ByteSink head = new ByteSink(ColumnarLayout.HEAD_BYTES);
        ColumnarLayout.writeHead(head);
        write(head.array(), head.size());
    }

    /** Writes {@code streams} (any map; sorted here) into one object and returns its bytes. */
    public static byte[] write(ColumnarConfig config, Map<Labels, ColumnarRows> streams) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(bytes, config)) {
            List<Labels> order = new ArrayList<>(streams.keySet());
            order.sort(ColumnarDirectory.STREAM_ORDER);
            for (Labels labels : order) {
                writer.add(labels, streams.get(labels));
            }
            writer.finish();
        }
        return bytes.toByteArray();
    }

    /** Bytes written so far. */
    public long bytesWritten() {
        return position;
    }

    /**
     * Writes the rows of one stream as one or more blocks.
     *
     * @throws IllegalArgumentException when {@code rows} is empty or {@code labels} does not come after
     *     the previously added stream in stream order
     */
    public void add(Labels labels, ColumnarRows rows) throws IOException {
        add(labels, rows, null);
    }

    /**
     * Sees each block once it is written: its index in the object and its rows, {@code rows} at {@code order[from..to)},
     * and, when the sink has a {@link #wordRule()} and the writer tokenized the block's lines, the lines' words
     * ({@code words}, else null: the sink splits the lines itself if it needs their words).
     */
    @FunctionalInterface
    public interface BlockSink {
        void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to, LineWords words);

        /** The words the sink wants of each block's lines, or null for none. */
        default LineWords.Rule wordRule() {
            return null;
        }
    }

    /** As {@link #add(Labels, ColumnarRows)}, telling {@code sink} (when not null) which rows went into which block. */
    public void add(Labels labels, ColumnarRows rows, BlockSink sink) throws IOException {
        if (rows.size() == 0) {
            throw new IllegalArgumentException("stream " + labels + " has no rows");
        }
        checkNext(labels);
        int[] order = timeOrder(rows);
        int[] keyOrder = keyOrder(rows);
        int firstBlock = blocks.size();
        int start = 0;
        long blockRaw = 0;
        for (int i = 0; i < order.length; i++) {
            int rowRaw = rows.rowRawBytes(order[i]);
            int count = i - start;
            if (count > 0 && (count == config.maxRowsPerBlock() || blockRaw + rowRaw > config.maxRawBytesPerBlock())) {
                writeBlock(streams.size(), rows, order, start, i, blockRaw, keyOrder, sink);
                start = i;
                blockRaw = 0;
            }
            blockRaw += rowRaw;
        }
        writeBlock(streams.size(), rows, order, start, order.length, blockRaw, keyOrder, sink);
        streams.add(new ColumnarStreamInfo(labels, firstBlock, blocks.size() - firstBlock,
                rows.timestampNanos(order[0]), rows.timestampNanos(order[order.length - 1]), rows.size(),
                rows.rawBytes()));
    }

    /**
     * Starts writing one stream whose rows come one at a time in time order, through the returned
     * appender: blocks are cut by the same rules as {@link #add} and written as they fill, so the writer
     * holds one block's rows, never the stream's. Until {@link StreamAppender#end()} nothing else may be
     * written.
     *
     * @param sink when not null, told which rows went into which block, as by {@link #add(Labels, ColumnarRows, BlockSink)}
     * @throws IllegalArgumentException when {@code labels} does not come after the previously added stream in stream order
     */
    public StreamAppender begin(Labels labels, BlockSink sink) {
        checkNext(labels);
        appending = new StreamAppender(labels, sink);
        return appending;
    }

    /**
     * One stream being written row by row (see {@link #begin}); a row equal in time to the previous one
     * stays after it, as {@link #add}'s stable sort keeps it. Two row buffers alternate: when a row
     * overflows the block, the block is written and that row moves to the other buffer. Not thread-safe.
     */
    public final class StreamAppender {
        private final Labels labels;
        private final BlockSink sink;
        private final int firstBlock = blocks.size();
        private ColumnarRows block = appenderRows[0];
        private ColumnarRows spare = appenderRows[1];
        private int[] identity = new int[0];
        private long blockRaw;
        private long rows;
        private long rawBytes;
        private long minTimeNanos;
        private long lastTimeNanos;
        private boolean ended;

        private StreamAppender(Labels labels, BlockSink sink) {
            this.labels = labels;
            this.sink = sink;
            block.clear();
            spare.clear();
        }

        /**
         * Appends one row: {@code utf8Line[offset, offset+length)} is copied.
         *
         * @throws IllegalArgumentException when {@code timestampNanos} is before the previous row's or a
         *     metadata key repeats within the row
         */
        public void append(long timestampNanos, byte[] utf8Line, int offset, int length, List<Label> metadata)
                throws IOException {
            checkNextRow(timestampNanos);
            block.append(timestampNanos, utf8Line, offset, length, metadata);
            appended(timestampNanos);
        }

        /**
         * Appends one row whose metadata is row {@code sourceRow} of {@code metadata} (a block's columns, copied as
         * bytes: see {@link ColumnarRows#append(long, byte[], int, int, ColumnarMetadata, int)}).
         *
         * @throws IllegalArgumentException when {@code timestampNanos} is before the previous row's
         */
        public void append(long timestampNanos, byte[] utf8Line, int offset, int length, ColumnarMetadata metadata,
                int sourceRow) throws IOException {
            checkNextRow(timestampNanos);
            block.append(timestampNanos, utf8Line, offset, length, metadata, sourceRow);
            appended(timestampNanos);
        }

        private void checkNextRow(long timestampNanos) {
            if (ended) {
                throw new IllegalStateException("stream " + labels + " already ended");
            }
            if (rows > 0 && timestampNanos < lastTimeNanos) {
                throw new IllegalArgumentException("row at " + timestampNanos + " after a row at " + lastTimeNanos
                        + " in stream " + labels + "; rows must be appended in time order");
            }
        }

        /** Cuts the block before the row just appended to it when the row overflows it, and counts the row. */
        private void appended(long timestampNanos) throws IOException {
            int count = block.size() - 1;
            int rowRaw = block.rowRawBytes(count);
            if (count > 0 && (count == config.maxRowsPerBlock() || blockRaw + rowRaw > config.maxRawBytesPerBlock())) {
                writeBufferedBlock(count);
                spare.clear();
                spare.append(timestampNanos, block.lineBytes(), block.lineOffset(count), block.lineLength(count),
                        block.metadata(count));
                ColumnarRows written = block;
                block = spare;
                spare = written;
                blockRaw = 0;
            }
            if (rows == 0) {
                minTimeNanos = timestampNanos;
            }
            blockRaw += rowRaw;
            rawBytes += rowRaw;
            lastTimeNanos = timestampNanos;
            rows++;
        }

        /**
         * Writes the last block and records the stream in the directory; the writer then accepts the next
         * stream or {@link #finish()}.
         *
         * @throws IllegalArgumentException when no row was appended
         */
        public void end() throws IOException {
            if (ended) {
                throw new IllegalStateException("stream " + labels + " already ended");
            }
            if (rows == 0) {
                throw new IllegalArgumentException("stream " + labels + " has no rows");
            }
            ended = true;
            writeBufferedBlock(block.size());
            streams.add(new ColumnarStreamInfo(labels, firstBlock, blocks.size() - firstBlock, minTimeNanos,
                    lastTimeNanos, rows, rawBytes));
            appending = null;
        }

        /** Writes the first {@code count} rows of {@link #block} as one block. */
        private void writeBufferedBlock(int count) throws IOException {
            if (identity.length < count) {
                identity = new int[Math.max(count, identity.length * 2)];
                for (int i = 0; i < identity.length; i++) {
                    identity[i] = i;
                }
            }
            int[] keyOrder = keyOrder(block);
            writeBlock(streams.size(), block, identity, 0, count, blockRaw, keyOrder, sink);
        }
    }

    private void checkNext(Labels labels) {
        if (finished) {
            throw new IllegalStateException("writer already finished");
        }
        if (appending != null) {
            throw new IllegalStateException("stream " + appending.labels + " is still being appended");
        }
        if (previous != null && ColumnarDirectory.STREAM_ORDER.compare(previous, labels) >= 0) {
            throw new IllegalArgumentException("stream " + labels + " added after " + previous
                    + "; streams must be added once each in fingerprint order");
        }
        previous = labels;
    }

    private static int[] timeOrder(ColumnarRows rows) {
        int n = rows.size();
        if (rows.isSortedByTime()) {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            return order;
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(rows.timestampNanos(a), rows.timestampNanos(b))); // stable
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
        return order;
    }

    /** Key ids of {@code rows} sorted by key name, the order of a block's metadata columns. */
    private int[] keyOrder(ColumnarRows rows) {
        Integer[] ids = new Integer[rows.keyCount()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = k;
            keys.add(rows.keyName(k));
        }
        Arrays.sort(ids, (a, b) -> rows.keyName(a).compareTo(rows.keyName(b)));
        if (keyColumns.length < ids.length) {
            KeyColumn[] grown = Arrays.copyOf(keyColumns, ids.length);
            for (int k = keyColumns.length; k < ids.length; k++) {
                grown[k] = new KeyColumn();
            }
            keyColumns = grown;
        }
        int[] order = new int[ids.length];
        for (int k = 0; k < ids.length; k++) {
            order[k] = ids[k];
        }
        return order;
    }

    /** Writes rows {@code order[from, to)} as the next block, then shows it to {@code sink} (when not null). */
    private void writeBlock(int stream, ColumnarRows rows, int[] order, int from, int to, long rawBytes,
            int[] keyOrder, BlockSink sink) throws IOException {
        // the row loops live in methods of their own: a loop in this method would be compiled on stack replacement,
        // once per loop, each time with every encoder inlined (the costliest compiles of a fresh server's first push)
        int count = to - from;
        LineWords words = sink == null ? null : lineWords(sink.wordRule());
        copyTimestamps(rows, order, from, to);
        List<ColumnarColumnInfo> columns = new ArrayList<>(2 + keyOrder.length);
        columns.add(writeColumn(ColumnarColumnInfo.Kind.TIMESTAMPS, "", encoder.timestamps(timestampScratch, count)));
        columns.add(writeColumn(ColumnarColumnInfo.Kind.LINES, "", encoder.lines(rows, order, from, to, words)));
        collectKeyColumns(rows, order, from, to, keyOrder);
        for (int keyId : keyOrder) {
            KeyColumn column = keyColumns[keyId];
            if (column.count > 0) {
                columns.add(writeColumn(ColumnarColumnInfo.Kind.METADATA, rows.keyName(keyId), encoder.metadata(count,
                        column.rows, column.count, rows.metaValues(), column.starts, column.ends)));
            }
        }
        blocks.add(new ColumnarBlockInfo(stream, count, timestampScratch[0], timestampScratch[count - 1], rawBytes,
                strictlyIncreasing(timestampScratch, count), columns));
        if (sink != null) {
            sink.block(blocks.size() - 1, rows, order, from, to, words != null && words.split() ? words : null);
        }
    }

    /** The reset word collector for {@code rule} (kept while sinks hand the same rule), or null without a rule. */
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
        long[] out = timestampScratch;
        for (int i = from; i < to; i++) {
            out[i - from] = rows.timestampNanos(order[i]);
        }
    }

    /** Each metadata key's present rows and value ranges among rows {@code order[from, to)}, into its KeyColumn. */
    private void collectKeyColumns(ColumnarRows rows, int[] order, int from, int to, int[] keyOrder) {
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

    private ColumnarColumnInfo writeColumn(ColumnarColumnInfo.Kind kind, String key, ColumnarColumnEncoder.Encoded encoded)
            throws IOException {
        ColumnarColumnInfo info = new ColumnarColumnInfo(kind, key, encoded.encoding(), encoded.zstd(), position,
                encoded.length(), ColumnarLayout.crc32c(encoded.bytes(), 0, encoded.length()), encoded.decodedSize());
        write(encoded.bytes(), encoded.length());
        return info;
    }

    private void write(byte[] bytes, int length) throws IOException {
        out.write(bytes, 0, length);
        position += length;
    }

    /** Writes the directory and footer; returns the directory. The writer accepts nothing afterwards. */
    public ColumnarDirectory finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("writer already finished");
        }
        if (appending != null) {
            throw new IllegalStateException("stream " + appending.labels + " is still being appended");
        }
        finished = true;
        long directoryOffset = position;
        ByteSink directory = new ByteSink(1024 + 48 * blocks.size());
        ColumnarLayout.writeDirectory(directory, List.copyOf(keys), streams, blocks);
        int directoryLength = directory.size();
        if (directoryLength > ColumnarLayout.MAX_DIRECTORY_BYTES) {
            throw new IllegalStateException("columnar directory of " + directoryLength + " bytes exceeds "
                    + ColumnarLayout.MAX_DIRECTORY_BYTES + "; write fewer blocks per object");
        }
        int directoryCrc = ColumnarLayout.crc32c(directory.array(), 0, directoryLength);
        ColumnarLayout.writeFooter(directory, directoryOffset, directoryLength, directoryCrc);
        write(directory.array(), directory.size());
        out.flush();
        return new ColumnarDirectory(streams, blocks, directoryOffset, directoryLength);
    }

    @Override
    public void close() {
        encoder.close();
    }

    /** One metadata key's present rows and value ranges within the block being written. */
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
