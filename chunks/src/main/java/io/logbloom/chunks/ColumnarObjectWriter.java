package io.logbloom.chunks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Writes one columnar object (layout in {@code ColumnarLayout}) to an {@link OutputStream}: each
 * {@link #add}ed stream is cut into blocks and its columns are encoded and written at once, so the
 * writer holds one block's scratch buffers and the directory, never the object. {@link #finish()}
 * writes the directory and footer and returns the directory.
 *
 * <p>Given an executor and a parallelism above one, the writer encodes up to that many blocks at once on the
 * executor's threads while its caller goes on filling the next block, and writes the encoded blocks in the order they
 * were cut: the object's bytes are the same as a serial writer's, and every {@link BlockSink} call still comes on the
 * caller's thread, in block order. Then it holds that many blocks' rows and scratch buffers.
 *
 * <p>Streams must be added in {@link ColumnarDirectory#STREAM_ORDER} (fingerprint, then labels),
 * each once; rows within a stream may come in any time order (they are sorted stably by
 * timestamp). A stream too large for heap is written row by row through {@link #begin}, in time order.
 * Not thread-safe (one caller thread). {@link #close()} waits for blocks still being encoded and releases the native
 * zstd contexts; it does not close the output stream.
 */
public final class ColumnarObjectWriter implements AutoCloseable {
    /** Blocks a writer encodes at once at most. */
    public static final int MAX_PARALLELISM = 64;

    private final OutputStream out;
    private final ColumnarConfig config;
    /** Where blocks are encoded, or null to encode each on the caller's thread as it is cut. */
    private final Executor encoders;
    private final int parallelism;
    private final List<ColumnarBlockEncoder> blockEncoders = new ArrayList<>();
    private final ArrayDeque<ColumnarBlockEncoder> idleEncoders = new ArrayDeque<>();
    /** Blocks cut and not yet written, oldest first. */
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final List<ColumnarStreamInfo> streams = new ArrayList<>();
    private final List<ColumnarBlockInfo> blocks = new ArrayList<>();
    private final TreeSet<String> keys = new TreeSet<>();
    /** Blocks cut so far, written or pending: the index of the next block. */
    private int blocksCut;
    private long position;
    private Labels previous;
    private boolean finished;
    private boolean failed;
    /** The stream being written row by row, if any. */
    private StreamAppender appending;
    /**
     * Row buffers of the {@link StreamAppender}s, handed from block to block and stream to stream: a buffer grows to
     * a block's rows, and buffers made per stream grew again each time (a tenth of a merge's allocations). One is
     * filled while the blocks cut before it are encoded: at most {@code parallelism + 2} exist.
     */
    private final ArrayDeque<ColumnarRows> freeRows = new ArrayDeque<>();
    private int rowBuffers;

    /** A writer onto {@code out} (which it neither buffers nor closes) with {@code config}'s block bounds. */
    public ColumnarObjectWriter(OutputStream out, ColumnarConfig config) throws IOException {
        this(out, config, null, 1);
    }

    /**
     * As {@link #ColumnarObjectWriter(OutputStream, ColumnarConfig)}, encoding up to {@code parallelism} blocks at
     * once on {@code encoders} (null: each block on the caller's thread, as it is cut).
     *
     * @throws IllegalArgumentException when {@code parallelism} is outside [1, {@value #MAX_PARALLELISM}]
     */
    public ColumnarObjectWriter(OutputStream out, ColumnarConfig config, Executor encoders, int parallelism)
            throws IOException {
        if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
            throw new IllegalArgumentException("block encoding parallelism " + parallelism + " is outside [1, "
                    + MAX_PARALLELISM + "]");
        }
        this.out = out;
        this.config = config;
        this.encoders = encoders;
        this.parallelism = encoders == null ? 1 : parallelism;
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

    /** Bytes written so far (blocks still being encoded not counted). */
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
     * ({@code words}, else null: the sink splits the lines itself if it needs their words); then, once a stream's
     * last block was shown, {@link #streamWritten()}. Called on the writer's caller's thread, blocks in order.
     */
    @FunctionalInterface
    public interface BlockSink {
        void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to, LineWords words);

        /** The words the sink wants of each block's lines, or null for none. */
        default LineWords.Rule wordRule() {
            return null;
        }

        /** Every block of the stream was shown to {@link #block}. */
        default void streamWritten() {}
    }

    /**
     * As {@link #add(Labels, ColumnarRows)}, telling {@code sink} (when not null) which rows went into which block.
     * Returns once every block of the stream is written: {@code rows} is the caller's again.
     */
    public void add(Labels labels, ColumnarRows rows, BlockSink sink) throws IOException {
        if (rows.size() == 0) {
            throw new IllegalArgumentException("stream " + labels + " has no rows");
        }
        checkNext(labels);
        int[] order = timeOrder(rows);
        int[] keyOrder = keyOrder(rows);
        int firstBlock = blocksCut;
        int start = 0;
        long blockRaw = 0;
        for (int i = 0; i < order.length; i++) {
            int rowRaw = rows.rowRawBytes(order[i]);
            int count = i - start;
            if (count > 0 && (count == config.maxRowsPerBlock() || blockRaw + rowRaw > config.maxRawBytesPerBlock())) {
                cut(streams.size(), rows, order, start, i, blockRaw, keyOrder, sink, false, null);
                start = i;
                blockRaw = 0;
            }
            blockRaw += rowRaw;
        }
        cut(streams.size(), rows, order, start, order.length, blockRaw, keyOrder, sink, true, null);
        streams.add(new ColumnarStreamInfo(labels, firstBlock, blocksCut - firstBlock,
                rows.timestampNanos(order[0]), rows.timestampNanos(order[order.length - 1]), rows.size(),
                rows.rawBytes()));
        writePending(0);
    }

    /**
     * Starts writing one stream whose rows come one at a time in time order, through the returned
     * appender: blocks are cut by the same rules as {@link #add} and written as they fill, so the writer
     * holds one block's rows, never the stream's (one per block being encoded, with a parallelism). Until
     * {@link StreamAppender#end()} nothing else may be written.
     *
     * @param sink when not null, told which rows went into which block, as by {@link #add(Labels, ColumnarRows, BlockSink)}
     * @throws IllegalArgumentException when {@code labels} does not come after the previously added stream in stream order
     */
    public StreamAppender begin(Labels labels, BlockSink sink) throws IOException {
        checkNext(labels);
        appending = new StreamAppender(labels, sink, takeRows());
        return appending;
    }

    /**
     * One stream being written row by row (see {@link #begin}); a row equal in time to the previous one
     * stays after it, as {@link #add}'s stable sort keeps it. When a row overflows the block, it moves to a
     * fresh buffer and the block is cut. Not thread-safe.
     */
    public final class StreamAppender {
        private final Labels labels;
        private final BlockSink sink;
        private final int firstBlock = blocksCut;
        private ColumnarRows block;
        private int[] identity = new int[0];
        private long blockRaw;
        private long rows;
        private long rawBytes;
        private long minTimeNanos;
        private long lastTimeNanos;
        private boolean ended;

        private StreamAppender(Labels labels, BlockSink sink, ColumnarRows block) {
            this.labels = labels;
            this.sink = sink;
            this.block = block;
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
                ColumnarRows next = takeRows();
                next.append(timestampNanos, block.lineBytes(), block.lineOffset(count), block.lineLength(count),
                        block.metadata(count));
                ColumnarRows full = block;
                block = next;
                cutBuffered(full, count, false);
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
         * Cuts the last block and records the stream in the directory; the writer then accepts the next
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
            cutBuffered(block, block.size(), true);
            block = null;
            streams.add(new ColumnarStreamInfo(labels, firstBlock, blocksCut - firstBlock, minTimeNanos,
                    lastTimeNanos, rows, rawBytes));
            appending = null;
        }

        /** Cuts the first {@code count} rows of {@code rows} as one block, the buffer free again once it is written. */
        private void cutBuffered(ColumnarRows rows, int count, boolean lastOfStream) throws IOException {
            if (identity.length < count) {
                int[] grown = new int[Math.max(count, identity.length * 2)]; // a new array: pending blocks read the old
                for (int i = 0; i < grown.length; i++) {
                    grown[i] = i;
                }
                identity = grown;
            }
            int[] keyOrder = keyOrder(rows);
            cut(streams.size(), rows, identity, 0, count, blockRaw, keyOrder, sink, lastOfStream, rows);
        }
    }

    private void checkNext(Labels labels) {
        if (finished) {
            throw new IllegalStateException("writer already finished");
        }
        if (failed) {
            throw new IllegalStateException("writer failed: a block could not be encoded");
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
        int[] order = new int[ids.length];
        for (int k = 0; k < ids.length; k++) {
            order[k] = ids[k];
        }
        return order;
    }

    /**
     * Cuts rows {@code order[from, to)} of {@code rows} as the next block: encoded at once on this thread without an
     * executor (and written), else on the executor, once an encoder is idle (writing the oldest pending blocks until
     * one is). {@code recycle}, when not null, is a row buffer that is free again once the block is written.
     */
    private void cut(int stream, ColumnarRows rows, int[] order, int from, int to, long rawBytes, int[] keyOrder,
            BlockSink sink, boolean lastOfStream, ColumnarRows recycle) throws IOException {
        ColumnarBlockEncoder encoder = idleEncoder();
        LineWords.Rule rule = sink == null ? null : sink.wordRule();
        CompletableFuture<ColumnarBlockEncoder.Encoded> encoded;
        if (encoders == null) {
            try {
                encoded = CompletableFuture.completedFuture(encoder.encode(rows, order, from, to, keyOrder, rule));
            } catch (RuntimeException | Error e) {
                failed = true;
                throw e;
            }
        } else {
            try {
                encoded = CompletableFuture.supplyAsync(() -> encoder.encode(rows, order, from, to, keyOrder, rule),
                        encoders);
            } catch (RuntimeException e) { // the executor refused it (shut down)
                failed = true;
                idleEncoders.add(encoder);
                throw e;
            }
        }
        pending.add(new Pending(stream, rows, order, from, to, rawBytes, sink, lastOfStream, recycle, encoder,
                encoded));
        blocksCut++;
        if (encoders == null) {
            writePending(0);
        }
    }

    /** A block cut and not yet written. */
    private record Pending(int stream, ColumnarRows rows, int[] order, int from, int to, long rawBytes, BlockSink sink,
            boolean lastOfStream, ColumnarRows recycle, ColumnarBlockEncoder encoder,
            CompletableFuture<ColumnarBlockEncoder.Encoded> encoded) {}

    /** An encoder for the next block: an idle one, a new one below the parallelism, or the oldest pending block's. */
    private ColumnarBlockEncoder idleEncoder() throws IOException {
        while (idleEncoders.isEmpty()) {
            if (blockEncoders.size() < parallelism) {
                ColumnarBlockEncoder encoder = new ColumnarBlockEncoder(config);
                blockEncoders.add(encoder);
                return encoder;
            }
            writeOldest();
        }
        return idleEncoders.poll();
    }

    /** A cleared row buffer for an appender: a free one, a new one while few exist, or the oldest pending block's. */
    private ColumnarRows takeRows() throws IOException {
        while (freeRows.isEmpty() && rowBuffers >= parallelism + 2 && !pending.isEmpty()) {
            writeOldest();
        }
        ColumnarRows rows = freeRows.poll();
        if (rows == null) {
            rows = new ColumnarRows();
            rowBuffers++;
        }
        rows.clear();
        return rows;
    }

    /** Writes the oldest pending blocks until at most {@code keep} are left. */
    private void writePending(int keep) throws IOException {
        while (pending.size() > keep) {
            writeOldest();
        }
    }

    /** Waits for the oldest pending block's encoding, writes it and shows it to its sink. */
    private void writeOldest() throws IOException {
        Pending block = pending.poll();
        ColumnarBlockEncoder.Encoded encoded;
        try {
            encoded = block.encoded().join();
        } catch (CompletionException e) {
            failed = true;
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException("encoding a block failed: " + cause, cause);
        }
        long base = position;
        List<ColumnarColumnInfo> columns = new ArrayList<>(encoded.columns().size());
        for (ColumnarColumnInfo c : encoded.columns()) {
            columns.add(new ColumnarColumnInfo(c.kind(), c.key(), c.encoding(), c.zstd(), base + c.offset(), c.length(),
                    c.crc32c(), c.decodedSize()));
        }
        write(encoded.bytes(), encoded.length());
        blocks.add(new ColumnarBlockInfo(block.stream(), encoded.rows(), encoded.minTimeNanos(),
                encoded.maxTimeNanos(), block.rawBytes(), encoded.distinctTimestamps(), columns));
        if (block.sink() != null) {
            block.sink().block(blocks.size() - 1, block.rows(), block.order(), block.from(), block.to(),
                    encoded.words());
            if (block.lastOfStream()) {
                block.sink().streamWritten();
            }
        }
        idleEncoders.add(block.encoder());
        if (block.recycle() != null) {
            freeRows.add(block.recycle());
        }
    }

    private void write(byte[] bytes, int length) throws IOException {
        out.write(bytes, 0, length);
        position += length;
    }

    /**
     * Writes the pending blocks, the directory and the footer; returns the directory. The writer accepts nothing
     * afterwards.
     */
    public ColumnarDirectory finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("writer already finished");
        }
        if (failed) {
            throw new IllegalStateException("writer failed: a block could not be encoded");
        }
        if (appending != null) {
            throw new IllegalStateException("stream " + appending.labels + " is still being appended");
        }
        writePending(0);
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

    /** Waits for blocks still being encoded (their results are dropped), then releases the encoders' zstd contexts. */
    @Override
    public void close() {
        for (Pending block : pending) {
            try {
                block.encoded().join();
            } catch (CompletionException | java.util.concurrent.CancellationException ignored) {
                // the writer failed or was abandoned: the block is not written either way
            }
        }
        pending.clear();
        for (ColumnarBlockEncoder encoder : blockEncoders) {
            encoder.close();
        }
    }
}
