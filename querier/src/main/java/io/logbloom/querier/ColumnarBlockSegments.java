package io.logbloom.querier;

import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.FileRangeSource;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.ZstdInflater;
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
    private final QuerierMetrics metrics;
    private final ZstdInflater inflater;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ColumnarBlockSegments.class);

    ColumnarBlockSegments(ObjectStore store, ColumnarDirectoryCache directories, ChunkCache blocks,
            ExecutorService fetchPool, QuerierMetrics metrics, ZstdInflater inflater) {
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.inflater = Objects.requireNonNull(inflater, "inflater is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.directories = Objects.requireNonNull(directories, "directories is null");
        this.blocks = Objects.requireNonNull(blocks, "blocks is null");
        this.fetchPool = Objects.requireNonNull(fetchPool, "fetchPool is null");
    }


    /** Indexes of {@code series}' blocks in {@code ref}'s object overlapping [fromNanos, throughNanos). */
    int[] blocksInRange(Labels series, ChunkRef ref, long fromNanos, long throughNanos) throws IOException {
        return blocksInRange(series, ref, fromNanos, throughNanos, null);
    }

    /** As {@link #blocksInRange(Labels, ChunkRef, long, long)}, counting the blocks left out in {@code stats}. */
    int[] blocksInRange(Labels series, ChunkRef ref, long fromNanos, long throughNanos, QueryStatsCollector stats)
            throws IOException {
        return blocksInRange(series, ref, directories.entry(ref.objectKey()), fromNanos, throughNanos, stats);
    }

    /**
     * As {@link #blocksInRange(Labels, ChunkRef, long, long, QueryStatsCollector)}, given the ref's object from
     * {@link #object} (a caller visiting an object once per series looks it up once).
     */
    int[] blocksInRange(Labels series, ChunkRef ref, ColumnarDirectoryCache.Entry object, long fromNanos,
            long throughNanos, QueryStatsCollector stats) throws ChunkFormatException {
        ColumnarBlockTable table = object.table();
        int stream = object.indexOf(series);
        if (stream < 0) {
            throw new ChunkFormatException("object " + ref.objectKey() + " holds no stream " + series
                    + " although the index says it does");
        }
        ColumnarStreamInfo info = object.directory().streams().get(stream);
        int[] out = new int[info.blockCount()];
        int n = 0;
        for (int b = info.firstBlock(); b < info.firstBlock() + info.blockCount(); b++) {
            if (table.overlaps(b, fromNanos, throughNanos)) {
                out[n++] = b;
            } else if (stats != null) {
                stats.chunksSkippedByTime.increment();
                stats.bytesSkippedByTime.add(table.length(b));
            }
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    /** The (cached) directory of the columnar object {@code objectKey} with its block table. */
    ColumnarDirectoryCache.Entry object(String objectKey) throws IOException {
        return directories.entry(objectKey);
    }

    /** An exact test of the rows of a decoded block (see {@link RowBloomTest}): per row, whether it may match. */
    @FunctionalInterface
    interface RowTest {
        boolean[] mayMatch(ColumnarBlock block);
    }

    /**
     * The segments of {@code series}' blocks {@code blocks} (all its blocks overlapping the range when
     * null) in {@code ref}'s object; when {@code rows} is not null, only a block's rows it accepts are
     * passed on (an exact per-row test that drops rows the query cannot return, see {@link RowBloomTest}).
     */
    List<SeriesReader.Segment> segments(QueryContext ctx, Labels series, ChunkRef ref, int[] blocks, long fromNanos,
            long throughNanos, RowTest rows) throws IOException {
        ColumnarDirectory directory = directories.get(ref.objectKey());
        int[] toRead = blocks != null ? blocks : blocksInRange(series, ref, fromNanos, throughNanos);
        List<SeriesReader.Segment> segments = new ArrayList<>(toRead.length);
        for (int index : toRead) {
            ColumnarBlockInfo block = directory.blocks().get(index);
            segments.add(new SeriesReader.Segment(block.minTimeNanos(), block.maxTimeNanos(),
                    awaited -> fetch(ctx, ref.objectKey(), block, awaited),
                    bytes -> decode(ctx, ref.objectKey(), directory, index, bytes, fromNanos, throughNanos, rows,
                            true)));
        }
        return segments;
    }

    /**
     * The segments of a stream in a local columnar file (an ingester's part) overlapping [fromNanos,
     * throughNanos): each reads its block with a positional read of the file (not cached: the file is
     * on local disk and short-lived).
     */
    List<SeriesReader.Segment> fileSegments(QueryContext ctx, ColumnarFileStream part, long fromNanos,
            long throughNanos) {
        List<SeriesReader.Segment> segments = new ArrayList<>();
        String name = part.file().toString();
        for (int b : part.blocksIn(fromNanos, throughNanos)) {
            ColumnarBlockInfo block = part.directory().blocks().get(b);
            segments.add(new SeriesReader.Segment(block.minTimeNanos(), block.maxTimeNanos(),
                    awaited -> CompletableFuture.completedFuture(null),
                    none -> unflushedRows(ctx, decode(ctx, name, part.directory(), b, readFile(part, block),
                            fromNanos, throughNanos, null, false))));
        }
        return segments;
    }

    static byte[] readFile(ColumnarFileStream part, ColumnarBlockInfo block) throws IOException {
        return readFile(part, block, block.length());
    }

    /** The first {@code length} bytes of block {@code block} of a part's file (its timestamp and line columns: a count). */
    static byte[] readFile(ColumnarFileStream part, ColumnarBlockInfo block, long length) throws IOException {
        try (FileRangeSource source = RangeSource.ofFile(part.file())) {
            return source.read(block.offset(), Math.toIntExact(length));
        }
    }

    /** Rows of an ingester's part count as unflushed (head) data in the stats, as rows still in memory do. */
    private static List<LogEntry> unflushedRows(QueryContext ctx, List<LogEntry> rows) {
        ctx.stats.headChunkLines.add(rows.size());
        ctx.stats.headChunkBytes.add(StoreReader.lineBytes(rows));
        ctx.stats.headChunkStructuredMetadataBytes.add(StoreReader.metadataBytes(rows));
        return rows;
    }

    /** The (cached) block table of the columnar object {@code objectKey}. */
    ColumnarBlockTable table(String objectKey) throws IOException {
        return directories.table(objectKey);
    }

    /** The directory of {@code objectKey} with its block table when it is in memory (no store read), else null. */
    ColumnarDirectoryCache.Entry cachedObject(String objectKey) {
        return directories.cached(objectKey);
    }

    /** The (cached) directory of the columnar object {@code objectKey}. */
    ColumnarDirectory directory(String objectKey) throws IOException {
        return directories.get(objectKey);
    }

    /**
     * Block {@code block} of an object or part named {@code name}, decoded from its fetched {@code bytes} (its
     * metadata columns only when {@code metadata}, each verified now and decoded when first asked for: a count reads
     * one key, not the block's ids beside it); null when its checksums show it damaged (logged and counted: the query
     * answers from the intact blocks, as a read does).
     */
    ColumnarBlock decodeBlock(String name, ColumnarDirectory directory, int block, byte[] bytes, boolean metadata)
            throws IOException {
        ColumnarBlockInfo info = directory.blocks().get(block);
        try {
            ColumnarObjectReader reader = new ColumnarObjectReader(new BlockWindow(name, info.offset(), bytes), directory,
                    inflater);
            return metadata ? reader.readBlockLazily(block) : reader.readTimestampsAndLines(block);
        } catch (ChunkFormatException e) {
            damaged(name, block, e.getMessage());
            return null;
        }
    }

    /**
     * Block {@code info} of the stored object {@code objectKey} with its timestamps and lines (no metadata) as an
     * earlier query decoded it, or null when the cache does not hold it; a hit counts as a chunk fetched from cache.
     */
    ColumnarBlock cachedLinesBlock(QueryContext ctx, String objectKey, ColumnarBlockInfo info) {
        ColumnarBlock block = blocks.getBlock(linesBlockKey(objectKey, info));
        if (block != null) {
            ctx.stats.chunksFromCache.increment();
            ctx.stats.chunksFetched.increment();
            ctx.stats.compressedBytes.add(info.timestampsAndLinesLength()); // all such a block was decoded from
        }
        return block;
    }

    /** The block cache's weight budget in bytes: decoded blocks worth keeping must fit in it. */
    long blockCacheBytes() {
        return blocks.maxBytes();
    }

    /** Keeps a block decoded by {@link #decodeBlock} without metadata for later {@link #cachedLinesBlock} calls. */
    void rememberLinesBlock(String objectKey, ColumnarBlockInfo info, ColumnarBlock block) {
        blocks.putBlock(linesBlockKey(objectKey, info), block);
    }

    private static String blockKey(String objectKey, ColumnarBlockInfo info) {
        return objectKey + "#" + info.offset();
    }

    private static String timestampsAndLinesKey(String objectKey, ColumnarBlockInfo info) {
        return objectKey + "#" + info.offset() + "#timestamps-and-lines";
    }

    private static String linesBlockKey(String objectKey, ColumnarBlockInfo info) {
        return objectKey + "#" + info.offset() + "#lines";
    }

    /** Logs and counts a damaged block left out of a query. */
    void damaged(String name, int block, String reason) {
        LOG.error("object {} block {} is damaged, left out: {}; the query answers from the intact blocks",
                name, block, reason);
        metrics.corruptObjects("chunk_block", 1);
    }

    /**
     * Starts the ranged read of one block of a stored object on the fetch pool (through the block cache). A block the
     * cache holds is answered on the calling thread, and so is a read of a local store the caller waits for at once
     * ({@code awaited}): a hand-off to the pool would cost more than the lookup or the read (on a busy box a wake-up
     * of a pool thread can wait a whole scheduling slice, per block of a needle).
     */
    CompletableFuture<byte[]> fetch(QueryContext ctx, String objectKey, ColumnarBlockInfo block, boolean awaited) {
        String cacheKey = blockKey(objectKey, block);
        byte[] cached = blocks.get(cacheKey);
        if (cached != null) {
            return CompletableFuture.completedFuture(fromCache(ctx, cached));
        }
        if (awaited && store.readsAreLocal()) {
            return SeriesReader.Fetch.now(() -> read(ctx, objectKey, block, cacheKey, block.length()),
                    "object " + objectKey);
        }
        return readOnPool(ctx, objectKey, block, cacheKey, block.length());
    }

    /**
     * Starts the ranged read of the timestamp and line columns of one block of a stored object, all a count needs
     * (about half a block whose rows carry an id each), on the fetch pool, through the block cache: the whole block
     * when a log query left it there, else those columns' bytes, kept apart from the whole block's (a log query needs
     * all of it).
     */
    CompletableFuture<byte[]> fetchTimestampsAndLines(QueryContext ctx, String objectKey, ColumnarBlockInfo block) {
        byte[] cached = blocks.get(blockKey(objectKey, block));
        String cacheKey = timestampsAndLinesKey(objectKey, block);
        if (cached == null) {
            cached = blocks.get(cacheKey);
        }
        if (cached != null) {
            return CompletableFuture.completedFuture(fromCache(ctx, cached));
        }
        return readOnPool(ctx, objectKey, block, cacheKey, block.timestampsAndLinesLength());
    }

    /** Counts a block's bytes found in the cache as fetched; returns them. */
    private static byte[] fromCache(QueryContext ctx, byte[] cached) {
        ctx.stats.chunksFromCache.increment();
        ctx.stats.chunksFetched.increment();
        ctx.stats.compressedBytes.add(cached.length);
        return cached;
    }

    /** {@link #read} on the fetch pool, tracked by the query. */
    private CompletableFuture<byte[]> readOnPool(QueryContext ctx, String objectKey, ColumnarBlockInfo block,
            String cacheKey, long length) {
        CompletableFuture<byte[]> future = CompletableFuture.supplyAsync(() -> {
            try {
                return read(ctx, objectKey, block, cacheKey, length);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read object " + objectKey + ": " + e.getMessage(), e);
            }
        }, fetchPool);
        ctx.track(future);
        return future;
    }

    /**
     * The first {@code length} bytes of {@code block} (all of it, or its timestamps and lines), from the cache under
     * {@code cacheKey} or read from the store and kept there.
     */
    private byte[] read(QueryContext ctx, String objectKey, ColumnarBlockInfo block, String cacheKey, long length)
            throws IOException {
        long start = System.nanoTime();
        byte[] bytes = blocks.get(cacheKey);
        if (bytes != null) {
            ctx.stats.chunksFromCache.increment();
        } else {
            bytes = store.getRange(objectKey, block.offset(), Math.toIntExact(length));
            if (bytes.length != length) {
                throw new ChunkFormatException("object " + objectKey + " truncated: block at " + block.offset()
                        + " has " + bytes.length + " of the " + length + " bytes asked for");
            }
            blocks.put(cacheKey, bytes);
        }
        ctx.stats.chunksDownloadTimeNanos.add(System.nanoTime() - start);
        ctx.stats.chunksFetched.increment();
        ctx.stats.compressedBytes.add(bytes.length);
        return bytes;
    }

    private List<LogEntry> decode(QueryContext ctx, String objectKey, ColumnarDirectory directory, int block,
            byte[] bytes, long fromNanos, long throughNanos, RowTest rows, boolean stored) throws IOException {
        ColumnarBlockInfo info = directory.blocks().get(block);
        RangeSource window = new BlockWindow(objectKey, info.offset(), bytes);
        // a row test keeps few rows (a needle: none in most blocks); without one every row in range is kept
        List<LogEntry> inRange = rows == null ? new ArrayList<>(info.rows()) : new ArrayList<>();
        ColumnarBlock decoded;
        try {
            decoded = new ColumnarObjectReader(window, directory, inflater).readBlockLazily(block);
        } catch (ChunkFormatException e) {
            // as Loki's chunk reader skips a block whose checksum does not match: the rest still answers
            LOG.error("object {} block {} is damaged, left out: {}; the query answers from the intact blocks",
                    objectKey, block, e.getMessage());
            metrics.corruptObjects("chunk_block", 1);
            return List.of();
        }
        long lines = 0;
        try {
            // the row test first, on the columns it needs; the lines and other columns only for the rows it keeps
            boolean[] kept = rows == null ? null : rows.mayMatch(decoded).clone(); // rows out of range cleared below
            // a block inside the range needs no timestamp test: its timestamps are decoded only for rows kept
            boolean inside = info.minTimeNanos() >= fromNanos && info.maxTimeNanos() < throughNanos;
            int rowCount = decoded.rows();
            int keptInRange = 0;
            if (inside && kept != null) {
                // the common case of a row test (a needle): one plain loop over the mask, which runs interpreted
                // while the query path is still cold, so it calls nothing per row
                lines = rowCount;
                for (boolean k : kept) {
                    if (k) {
                        keptInRange++;
                    }
                }
            } else {
                for (int row = 0; row < rowCount; row++) {
                    if (!inside) {
                        long ts = decoded.timestampNanos(row);
                        if (ts < fromNanos || ts >= throughNanos) {
                            if (kept != null) {
                                kept[row] = false;
                            }
                            continue;
                        }
                    }
                    lines++;
                    if (kept == null) {
                        inRange.add(decoded.entry(row)); // the line column is decoded on the first row
                    } else if (kept[row]) {
                        keptInRange++;
                    }
                }
            }
            if (keptInRange > 0) {
                // only the kept rows' lines are rebuilt (a needle's one row, not its block's column)
                String[] keptLines = decoded.lines(kept);
                for (int row = 0; row < rowCount; row++) {
                    if (kept[row]) {
                        inRange.add(new LogEntry(decoded.timestampNanos(row), keptLines[row], decoded.metadata(row)));
                    }
                }
            }
        } catch (java.io.UncheckedIOException e) {
            LOG.error("object {} block {} is damaged, left out: {}; the query answers from the intact blocks",
                    objectKey, block, e.getCause().getMessage());
            metrics.corruptObjects("chunk_block", 1);
            return List.of();
        }
        if (stored) {
            ctx.stats.decompressedLines.add(lines);
            // line and metadata bytes as the writer counted them, in proportion when the block is partly in range
            ctx.stats.decompressedBytes.add(decoded.rows() == 0 ? 0 : info.rawBytes() * lines / decoded.rows());
        }
        return inRange;
    }

    /**
     * The fetched bytes of one block (all of it, or its timestamp and line columns), served as the object's range they
     * came from. Thread-safe.
     */
    private record BlockWindow(String name, long start, byte[] bytes) implements RangeSource {
        @Override
        public long size() {
            return start + bytes.length;
        }

        @Override
        public byte[] read(long offset, int length) throws IOException {
            check(offset, length);
            if (offset == start && length == bytes.length) {
                return bytes;
            }
            byte[] out = new byte[length];
            System.arraycopy(bytes, (int) (offset - start), out, 0, length);
            return out;
        }

        @Override
        public Slice slice(long offset, int length) throws IOException {
            check(offset, length);
            return new Slice(bytes, (int) (offset - start));
        }

        private void check(long offset, int length) throws ChunkFormatException {
            if (offset < start || length < 0 || offset + length > start + bytes.length) {
                throw new ChunkFormatException("BUG: read [" + offset + ", +" + length + ") of " + name
                        + " outside the fetched block [" + start + ", +" + bytes.length + ")");
            }
        }
    }
}
