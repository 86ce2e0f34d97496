package io.logbloom.querier;

import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Reads a series' rows inside a columnar object block by block: from the object's (cached)
 * directory it lists the series' blocks overlapping the query range, and gives one
 * {@link SeriesReader.Segment} per block whose fetch is a single ranged read of that block's
 * columns (through the byte-bounded block cache) and whose decode yields the block's rows in range.
 * A query that stops early (a satisfied limit) never reads the blocks beyond.
 *
 * <p>Thread-safe: holds only thread-safe collaborators.
 */
final class ColumnarBlockSegments {
    private final ObjectStore store;
    private final ColumnarDirectoryCache directories;
    private final ChunkCache blocks;
    private final ExecutorService fetchPool;

    ColumnarBlockSegments(ObjectStore store, ColumnarDirectoryCache directories, ChunkCache blocks,
            ExecutorService fetchPool) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.directories = Objects.requireNonNull(directories, "directories is null");
        this.blocks = Objects.requireNonNull(blocks, "blocks is null");
        this.fetchPool = Objects.requireNonNull(fetchPool, "fetchPool is null");
    }

    /** The segments of {@code series}' blocks in {@code ref}'s object overlapping [fromNanos, throughNanos). */
    List<SeriesReader.Segment> segments(QueryContext ctx, Labels series, ChunkRef ref, long fromNanos,
            long throughNanos) throws IOException {
        ColumnarDirectory directory = directories.get(ref.objectKey());
        int stream = directory.indexOf(series);
        if (stream < 0) {
            throw new ChunkFormatException("object " + ref.objectKey() + " holds no stream " + series
                    + " although the index says it does");
        }
        ColumnarStreamInfo info = directory.streams().get(stream);
        List<SeriesReader.Segment> segments = new ArrayList<>();
        for (int b = info.firstBlock(); b < info.firstBlock() + info.blockCount(); b++) {
            ColumnarBlockInfo block = directory.blocks().get(b);
            if (block.maxTimeNanos() < fromNanos || block.minTimeNanos() >= throughNanos) {
                continue;
            }
            int index = b;
            segments.add(new SeriesReader.Segment(block.minTimeNanos(), block.maxTimeNanos(),
                    () -> fetch(ctx, ref.objectKey(), block),
                    bytes -> decode(ctx, ref.objectKey(), directory, index, bytes, fromNanos, throughNanos)));
        }
        return segments;
    }

    private CompletableFuture<byte[]> fetch(QueryContext ctx, String objectKey, ColumnarBlockInfo block) {
        CompletableFuture<byte[]> future = CompletableFuture.supplyAsync(() -> {
            try {
                return read(ctx, objectKey, block);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read object " + objectKey + ": " + e.getMessage(), e);
            }
        }, fetchPool);
        ctx.track(future);
        return future;
    }

    private byte[] read(QueryContext ctx, String objectKey, ColumnarBlockInfo block) throws IOException {
        long start = System.nanoTime();
        String cacheKey = objectKey + "#" + block.offset();
        byte[] bytes = blocks.get(cacheKey);
        if (bytes != null) {
            ctx.stats.chunksFromCache.increment();
        } else {
            bytes = store.getRange(objectKey, block.offset(), Math.toIntExact(block.length()));
            if (bytes.length != block.length()) {
                throw new ChunkFormatException("object " + objectKey + " truncated: block at " + block.offset()
                        + " has " + bytes.length + " of its " + block.length() + " bytes");
            }
            blocks.put(cacheKey, bytes);
        }
        ctx.stats.chunksDownloadTimeNanos.add(System.nanoTime() - start);
        ctx.stats.chunksFetched.increment();
        ctx.stats.compressedBytes.add(bytes.length);
        return bytes;
    }

    private List<LogEntry> decode(QueryContext ctx, String objectKey, ColumnarDirectory directory, int block,
            byte[] bytes, long fromNanos, long throughNanos) throws IOException {
        ColumnarBlockInfo info = directory.blocks().get(block);
        RangeSource window = new BlockWindow(objectKey, info.offset(), bytes);
        List<LogEntry> inRange = new ArrayList<>(info.rows());
        for (LogEntry entry : new ColumnarObjectReader(window, directory).readBlock(block).entries()) {
            if (entry.timestampNanos() >= fromNanos && entry.timestampNanos() < throughNanos) {
                inRange.add(entry);
            }
        }
        ctx.stats.decompressedLines.add(inRange.size());
        ctx.stats.decompressedBytes.add(StoreReader.entryBytes(inRange));
        return inRange;
    }

    /** The fetched bytes of one block, served as the object's range they came from. Thread-safe. */
    private record BlockWindow(String name, long start, byte[] bytes) implements RangeSource {
        @Override
        public long size() {
            return start + bytes.length;
        }

        @Override
        public byte[] read(long offset, int length) throws IOException {
            if (offset < start || offset + length > start + bytes.length) {
                throw new ChunkFormatException("BUG: read [" + offset + ", +" + length + ") of " + name
                        + " outside the fetched block [" + start + ", +" + bytes.length + ")");
            }
            if (offset == start && length == bytes.length) {
                return bytes;
            }
            byte[] out = new byte[length];
            System.arraycopy(bytes, (int) (offset - start), out, 0, length);
            return out;
        }
    }
}
