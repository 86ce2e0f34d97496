package io.logbloom.chunks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The in-memory chunk of one stream, after Loki's MemChunk: appends go to an uncompressed head
 * block; when the head reaches {@link ChunkConfig#blockSizeBytes()} of raw text it is sorted by time
 * and cut into a compressed block (with min/max time, entry count and CRC32C); the chunk reports
 * {@link #isFull()} once its cut blocks reach {@link ChunkConfig#targetSizeBytes()} compressed, and
 * {@link #encode()} produces the versioned chunk bytes that {@link Chunk#decode} reads.
 *
 * <p>Ordering, as Loki 2.4+ with unordered writes: entries may arrive in any order while they are in
 * the head block (the head is sorted, stably, when it is cut); an entry older than the newest entry
 * of the last cut block is rejected with {@link OutOfOrderEntryException}, because blocks must not
 * overlap. An exact duplicate (same timestamp, line and metadata) of an entry in the head block is
 * dropped and {@link #append} returns false, as Loki does for retried pushes.
 *
 * <p>Structured metadata names and values are interned in a per-chunk symbol table
 * ({@code SymbolTable}), so blocks store small ids instead of repeated text.
 *
 * <p>Not thread-safe: the owner (a stream) serializes calls. The iterator returned by
 * {@link #iterator} works on a snapshot taken when it is created, so it may be consumed after the
 * owner's lock is released, while appends continue.
 */
public final class MemChunk {
    private static final Comparator<LogEntry> BY_TIME = Comparator.comparingLong(LogEntry::timestampNanos);

    private final ChunkConfig config;
    private final SymbolTable symbols = new SymbolTable();
    private final List<ChunkLayout.StoredBlock> blocks = new ArrayList<>();
    private final ByteSink scratch;
    private List<LogEntry> head = new ArrayList<>();
    private boolean headSorted = true;
    private long headBytes;
    private long compressedBytes;
    private long uncompressedBytes;
    private int entryCount;
    private long minTimeNanos;
    private long maxTimeNanos;

    /** An empty chunk sized and compressed per {@code config}. */
    public MemChunk(ChunkConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.scratch = new ByteSink(config.blockSizeBytes() + config.blockSizeBytes() / 4);
    }

    /**
     * Adds an entry.
     *
     * @return true when stored; false when it duplicates an entry of the head block (dropped)
     * @throws OutOfOrderEntryException when it is older than the newest entry of the last cut block
     */
    public boolean append(LogEntry entry) {
        Objects.requireNonNull(entry, "entry is null");
        return append(entry, rawSize(entry));
    }

    /**
     * Adds an entry that the caller has already checked against duplicates (the ingester keeps a
     * key set per stream that covers every chunk, a superset of this chunk's head check), with its raw
     * size (UTF-8 bytes of line and metadata, as {@link #uncompressedBytes()} counts them) already
     * known, so neither the text is scanned again nor the head searched: the head search is linear per
     * entry once the head is out of order, which made concurrent pushes quadratic in the block size.
     *
     * @throws OutOfOrderEntryException when it is older than the newest entry of the last cut block
     * @throws IllegalArgumentException when {@code rawSizeBytes} is negative
     */
    public void appendDeduplicated(LogEntry entry, long rawSizeBytes) {
        Objects.requireNonNull(entry, "entry is null");
        if (rawSizeBytes < 0) {
            throw new IllegalArgumentException("raw size of an entry cannot be negative: " + rawSizeBytes);
        }
        long oldestAccepted = oldestAcceptedNanos();
        if (entry.timestampNanos() < oldestAccepted) {
            throw new OutOfOrderEntryException(entry.timestampNanos(), oldestAccepted);
        }
        add(entry, rawSizeBytes);
    }

    private boolean append(LogEntry entry, long rawSizeBytes) {
        long ts = entry.timestampNanos();
        long oldestAccepted = oldestAcceptedNanos();
        if (ts < oldestAccepted) {
            throw new OutOfOrderEntryException(ts, oldestAccepted);
        }
        if (isDuplicateInHead(entry)) {
            return false;
        }
        add(entry, rawSizeBytes);
        return true;
    }

    private void add(LogEntry entry, long rawSizeBytes) {
        long ts = entry.timestampNanos();
        if (!head.isEmpty() && ts < head.get(head.size() - 1).timestampNanos()) {
            headSorted = false;
        }
        head.add(entry);
        long size = rawSizeBytes;
        headBytes += size;
        uncompressedBytes += size;
        if (entryCount == 0) {
            minTimeNanos = ts;
            maxTimeNanos = ts;
        } else {
            minTimeNanos = Math.min(minTimeNanos, ts);
            maxTimeNanos = Math.max(maxTimeNanos, ts);
        }
        entryCount++;
        if (headBytes >= config.blockSizeBytes()) {
            cutBlock();
        }
    }

    private boolean isDuplicateInHead(LogEntry entry) {
        long ts = entry.timestampNanos();
        if (headSorted) {
            for (int i = head.size() - 1; i >= 0 && head.get(i).timestampNanos() >= ts; i--) {
                if (head.get(i).equals(entry)) {
                    return true;
                }
            }
            return false;
        }
        for (LogEntry candidate : head) {
            if (candidate.timestampNanos() == ts && candidate.equals(entry)) {
                return true;
            }
        }
        return false;
    }

    /** Raw size of an entry: UTF-8 bytes of the line and of the metadata names and values. */
    static long rawSize(LogEntry entry) {
        long size = Utf8.length(entry.line());
        for (Label label : entry.metadata()) {
            size += Utf8.length(label.name()) + Utf8.length(label.value());
        }
        return size;
    }

    /**
     * The oldest timestamp {@link #append} still accepts: the newest entry of the last cut block, or
     * {@link Long#MIN_VALUE} while no block is cut.
     */
    public long oldestAcceptedNanos() {
        return blocks.isEmpty() ? Long.MIN_VALUE : blocks.get(blocks.size() - 1).maxTimeNanos();
    }

    /** Whether the compressed blocks reached the target chunk size: time to flush. */
    public boolean isFull() {
        return compressedBytes >= config.targetSizeBytes();
    }

    /** Sorts the head block by time and compresses it into a new block; no-op when the head is empty. */
    public void cutBlock() {
        if (head.isEmpty()) {
            return;
        }
        if (!headSorted) {
            head.sort(BY_TIME);
        }
        scratch.reset();
        BlockCodec.write(head, symbols, scratch);
        byte[] stored = config.encoding().compress(scratch.array(), scratch.size());
        int crc = ChunkLayout.crc32c(stored, 0, stored.length);
        blocks.add(new ChunkLayout.StoredBlock(head.get(0).timestampNanos(), head.get(head.size() - 1).timestampNanos(),
                head.size(), stored, scratch.size(), crc));
        compressedBytes += stored.length;
        head = new ArrayList<>(Math.max(16, head.size()));
        headSorted = true;
        headBytes = 0;
    }

    /** Number of entries (cut blocks and head). */
    public int entryCount() {
        return entryCount;
    }

    /** Whether no entry was appended. */
    public boolean isEmpty() {
        return entryCount == 0;
    }

    /** Number of cut (compressed) blocks. */
    public int blockCount() {
        return blocks.size();
    }

    /** Oldest timestamp; throws IllegalStateException when empty. */
    public long minTimeNanos() {
        requireNotEmpty();
        return minTimeNanos;
    }

    /** Newest timestamp; throws IllegalStateException when empty. */
    public long maxTimeNanos() {
        requireNotEmpty();
        return maxTimeNanos;
    }

    private void requireNotEmpty() {
        if (entryCount == 0) {
            throw new IllegalStateException("chunk is empty");
        }
    }

    /** Raw text bytes appended: UTF-8 of lines plus metadata names and values. */
    public long uncompressedBytes() {
        return uncompressedBytes;
    }

    /** Raw text bytes in the head block (not yet compressed). */
    public long headBytes() {
        return headBytes;
    }

    /** Compressed bytes of the cut blocks. */
    public long compressedBytes() {
        return compressedBytes;
    }

    /** The configuration. */
    public ChunkConfig config() {
        return config;
    }

    /** Cuts the head block and returns the encoded chunk (see {@code ChunkLayout}); the chunk stays appendable. */
    public byte[] encode() {
        cutBlock();
        scratch.reset();
        symbols.writeTo(scratch);
        int symbolsUncompressed = scratch.size();
        byte[] symbolsStored = config.encoding().compress(scratch.array(), symbolsUncompressed);
        return ChunkLayout.write(config.encoding(), entryCount == 0 ? 0 : minTimeNanos,
                entryCount == 0 ? 0 : maxTimeNanos, entryCount, symbolsStored, symbolsUncompressed,
                List.copyOf(blocks));
    }

    /**
     * Entries in [fromNanos, throughNanos) in {@code direction} order, over the cut blocks (each
     * decompressed only when reached) and the head; a snapshot as of this call.
     */
    public Iterator<LogEntry> iterator(long fromNanos, long throughNanos, Direction direction) {
        List<BlockIterator.Loader> loaders = new ArrayList<>();
        String[] symbolSnapshot = null;
        for (int i = 0; i < blocks.size(); i++) {
            ChunkLayout.StoredBlock block = blocks.get(i);
            if (block.maxTimeNanos() < fromNanos || block.minTimeNanos() >= throughNanos) {
                continue;
            }
            if (symbolSnapshot == null) {
                symbolSnapshot = symbols.snapshot();
            }
            String[] table = symbolSnapshot;
            String name = "in-memory block " + i;
            loaders.add(() -> {
                byte[] data;
                try {
                    data = config.encoding().decompress(block.stored(), 0, block.stored().length,
                            block.uncompressedLength());
                } catch (IOException e) {
                    throw new ChunkFormatException("cannot decompress " + name + ": " + e.getMessage(), e);
                }
                ChunkBlock meta = new ChunkBlock(block.minTimeNanos(), block.maxTimeNanos(), block.entries(), 0,
                        block.stored().length, block.uncompressedLength(), block.crc32c());
                return BlockCodec.read(data, meta, table, fromNanos, throughNanos, name);
            });
        }
        List<LogEntry> headCopy = new ArrayList<>();
        for (LogEntry entry : head) {
            if (entry.timestampNanos() >= fromNanos && entry.timestampNanos() < throughNanos) {
                headCopy.add(entry);
            }
        }
        if (!headCopy.isEmpty()) {
            if (!headSorted) {
                headCopy.sort(BY_TIME);
            }
            loaders.add(() -> new ArrayList<>(headCopy));
        }
        return new BlockIterator(loaders, direction);
    }

    @Override
    public String toString() {
        return "MemChunk[" + entryCount + " entries, " + blocks.size() + " blocks, " + compressedBytes
                + " compressed bytes, head " + headBytes + " bytes]";
    }
}
