package io.logbloom.chunks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a columnar object (layout in {@code ColumnarLayout}) through a {@link RangeSource}: the
 * directory with one read of the object's tail (a second only when the directory is larger than
 * 64 KiB), then only the columns asked for, each a ranged read of its own bytes, or a whole block's
 * columns with one read ({@link #readBlock}). Every column's CRC32C is checked before it is decoded.
 *
 * <p>Thread-safe: the directory is loaded once and published through a volatile field (two threads
 * may both load it; both get equal directories); everything else is per call. Instances are cheap;
 * pass a cached {@link ColumnarDirectory} to skip the tail read, and a component's shared {@link ZstdInflater} to reuse
 * its decompression contexts (without one every column inflated creates and frees a context).
 */
public final class ColumnarObjectReader {
    private final RangeSource source;
    private final ZstdInflater inflater;
    private volatile ColumnarDirectory directory;

    /** A reader that loads the directory on first use. */
    public ColumnarObjectReader(RangeSource source) {
        this(source, null, ZstdInflater.perCall());
    }

    /** A reader over an object whose directory the caller already has (for example cached). */
    public ColumnarObjectReader(RangeSource source, ColumnarDirectory directory) {
        this(source, directory, ZstdInflater.perCall());
    }

    /**
     * A reader over an object whose directory the caller already has, or null to load it on first use, inflating
     * with {@code inflater} (also when a block it returned decodes a column later, on any thread).
     */
    public ColumnarObjectReader(RangeSource source, ColumnarDirectory directory, ZstdInflater inflater) {
        this.source = source;
        this.directory = directory;
        this.inflater = java.util.Objects.requireNonNull(inflater, "inflater is null");
    }

    /** The object's name, as its source gives it. */
    public String name() {
        return source.name();
    }

    /**
     * The directory; the first call reads and checks the footer and directory.
     *
     * @throws ChunkFormatException on a wrong magic, unknown version, bad checksum or truncation
     */
    public ColumnarDirectory directory() throws IOException {
        ColumnarDirectory loaded = directory;
        if (loaded == null) {
            loaded = loadDirectory();
            directory = loaded;
        }
        return loaded;
    }

    private ColumnarDirectory loadDirectory() throws IOException {
        // one read for the size and the tail (a suffix-ranged GET on S3): the footer and usually the directory
        ObjectTail read = source.tail(ColumnarLayout.TAIL_READ_BYTES);
        long size = read.objectSize();
        byte[] tail = read.bytes();
        long tailOffset = read.offset();
        if (size < ColumnarLayout.HEAD_BYTES + ColumnarLayout.FOOTER_BYTES) {
            byte[] head = Arrays.copyOf(tail, (int) Math.min(size, ColumnarLayout.HEAD_BYTES));
            throw new ChunkFormatException("object " + source.name() + " truncated: " + size + " bytes, shorter than "
                    + "a columnar head and footer (" + (ColumnarLayout.HEAD_BYTES + ColumnarLayout.FOOTER_BYTES)
                    + "); " + ColumnarLayout.describeHead(head));
        }
        ColumnarLayout.Footer footer;
        try {
            footer = ColumnarLayout.readFooter(source.name(), tail, size);
        } catch (ChunkFormatException e) {
            byte[] head = tailOffset == 0 ? tail : source.read(0, ColumnarLayout.HEAD_BYTES);
            throw new ChunkFormatException(e.getMessage() + "; " + ColumnarLayout.describeHead(head), e);
        }
        if (tailOffset == 0) {
            checkHead(tail, footer.version());
        }
        if (footer.directoryOffset() >= tailOffset) {
            return ColumnarLayout.readDirectory(source.name(), tail, (int) (footer.directoryOffset() - tailOffset),
                    footer);
        }
        byte[] bytes = source.read(footer.directoryOffset(), footer.directoryLength());
        return ColumnarLayout.readDirectory(source.name(), bytes, 0, footer);
    }

    /** The head must repeat the footer's magic and version. */
    private void checkHead(byte[] head, int version) throws ChunkFormatException {
        boolean ours = (head[4] & 0xFF) == version;
        for (int i = 0; i < ColumnarLayout.MAGIC.length; i++) {
            ours &= head[i] == ColumnarLayout.MAGIC[i];
        }
        if (!ours) {
            throw new ChunkFormatException("object " + source.name() + ": head is not 'LBCO' version " + version
                    + " as its footer says; " + ColumnarLayout.describeHead(head));
        }
    }

    /** The timestamps of block {@code block}, in time order. */
    public long[] readTimestamps(int block) throws IOException {
        ColumnarBlockInfo info = block(block);
        ColumnarColumnInfo column = info.timestamps();
        return ColumnarColumnDecoder.timestamps(payload(block, column), column, info.rows(), where(block, column));
    }

    /** The lines of block {@code block}. */
    public ColumnarLines readLines(int block) throws IOException {
        ColumnarBlockInfo info = block(block);
        ColumnarColumnInfo column = info.lines();
        return ColumnarColumnDecoder.lines(payload(block, column), column, info.rows(), where(block, column));
    }

    /** The values of metadata key {@code key} in block {@code block}; all absent when no row has it. */
    public ColumnarValues readMetadata(int block, String key) throws IOException {
        ColumnarBlockInfo info = block(block);
        ColumnarColumnInfo column = info.metadata(key);
        if (column == null) {
            return ColumnarValues.absent(info.rows());
        }
        return ColumnarColumnDecoder.metadata(payload(block, column), column, info.rows(), where(block, column));
    }

    /** Fetches one column's stored bytes with one ranged read, checks and inflates them. */
    private byte[] payload(int block, ColumnarColumnInfo column) throws IOException {
        byte[] stored = source.read(column.offset(), column.length());
        return ColumnarColumnDecoder.payload(stored, 0, column, where(block, column), inflater);
    }

    /** Every column of block {@code block}, fetched with one ranged read and decoded. */
    public ColumnarBlock readBlock(int block) throws IOException {
        return read(block, true, false);
    }

    /**
     * As {@link #readBlock}, but the timestamps and each metadata column, though their checksums are verified now,
     * are inflated and decoded only when first used: a reader that tests one column (a needle's {@code trace_id})
     * pays for that column only. A verified column that does not decode then surfaces as an
     * {@link java.io.UncheckedIOException} from {@link ColumnarBlock#metadata} or {@link ColumnarBlock#timestampNanos},
     * as the lines do from {@link ColumnarBlock#lines}.
     */
    public ColumnarBlock readBlockLazily(int block) throws IOException {
        return read(block, true, true);
    }

    /**
     * Block {@code block} with only its timestamp and line columns, for readers that need nothing of the structured
     * metadata (counting lines): one read of those two columns, the block's first {@link
     * ColumnarBlockInfo#timestampsAndLinesLength} bytes (the source needs to hold no more), their checksums verified;
     * the metadata columns are neither read nor verified (a damaged one does not stop a count of intact lines; a
     * reader of them refuses the block), and the returned block's metadata accessors see no keys. The timestamps are
     * decoded on first use, as by {@link #readBlockLazily}: a count that needs none (every row of the block in range)
     * never inflates them.
     */
    public ColumnarBlock readTimestampsAndLines(int block) throws IOException {
        return read(block, false, true);
    }

    private ColumnarBlock read(int block, boolean withMetadata, boolean lazily) throws IOException {
        ColumnarBlockInfo info = block(block);
        long start = info.offset();
        // the block's bytes, or its first two columns' for a reader of no metadata, where the source holds them
        RangeSource.Slice slice = source.slice(start,
                Math.toIntExact(withMetadata ? info.length() : info.timestampsAndLinesLength()));
        byte[] stored = slice.array();
        int base = slice.from();
        ColumnarBlock.TimestampDecoder timestamps = null;
        ColumnarBlock.LineDecoder lines = null;
        ColumnarBlock.SomeLines someLines = null;
        ColumnarBlock.LineSearch search = null;
        ColumnarBlock.TokenSections tokenSections = null;
        ColumnarBlock.NumberFilters numberFilters = null;
        List<String> keys = new ArrayList<>();
        List<ColumnarBlock.ValuesDecoder> values = new ArrayList<>();
        for (ColumnarColumnInfo column : info.columns()) {
            String where = where(block, column);
            if (!withMetadata && column.kind() == ColumnarColumnInfo.Kind.METADATA) {
                continue; // not read
            }
            if (column.kind() == ColumnarColumnInfo.Kind.METADATA) {
                // checked now; decoded now, or lazily when the block is first asked for the key
                int at = base + (int) (column.offset() - start);
                ColumnarColumnDecoder.verify(stored, at, column, where);
                keys.add(column.key());
                ColumnarBlock.ValuesDecoder decoder = () -> ColumnarColumnDecoder.metadata(
                        ColumnarColumnDecoder.inflateVerified(stored, at, column, where, inflater), column, info.rows(),
                        where);
                if (lazily) {
                    values.add(decoder);
                } else {
                    ColumnarValues decoded = decoder.decode();
                    values.add(() -> decoded);
                }
                continue;
            }
            int at = base + (int) (column.offset() - start);
            ColumnarColumnDecoder.verify(stored, at, column, where);
            switch (column.kind()) {
                case TIMESTAMPS -> {
                    ColumnarBlock.TimestampDecoder decoder = () -> ColumnarColumnDecoder.timestamps(
                            ColumnarColumnDecoder.inflateVerified(stored, at, column, where, inflater), column,
                            info.rows(), where);
                    if (lazily) {
                        timestamps = decoder;
                    } else {
                        long[] decoded = decoder.decode();
                        timestamps = () -> decoded;
                    }
                }
                case LINES -> {
                    // inflated on the first decode or search, once: a block whose rows a metadata test rules out
                    // never copies or inflates its line column
                    LinePayload payload = new LinePayload(stored, at, column, where, inflater);
                    if (column.encoding().tokenized()) {
                        // one instance per block: its sections are inflated once, however often it is searched
                        lines = () -> payload.sections(info.rows()).decode();
                        someLines = wanted -> payload.sections(info.rows()).lines(wanted);
                        search = (literal, scratch) -> payload.sections(info.rows()).rowsContaining(literal, scratch);
                        tokenSections = () -> payload.sections(info.rows()).tokens();
                        numberFilters = scratch -> payload.sections(info.rows()).numberFilter(scratch);
                    } else {
                        lines = () -> ColumnarColumnDecoder.lines(payload.bytes(), column, info.rows(), where);
                        search = (literal, scratch) -> ColumnarColumnDecoder.rowsContaining(payload.bytes(), column, info.rows(),
                                where, literal);
                    }
                }
                case METADATA -> throw new IllegalStateException("BUG: metadata column " + where + " not handled above");
            }
        }
        return new ColumnarBlock(info, timestamps, lines, someLines, search, tokenSections, numberFilters, keys,
                values);
    }

    /**
     * A verified line column's payload, inflated on first use, and for a tokenized column its one
     * {@link ColumnarLineTokenSections}. Thread-safe: both are set once under this object's lock.
     */
    private static final class LinePayload {
        private final byte[] stored;
        private final int offset;
        private final ColumnarColumnInfo column;
        private final String where;
        private final ZstdInflater inflater;
        private byte[] bytes;
        private ColumnarLineTokenSections sections;

        LinePayload(byte[] stored, int offset, ColumnarColumnInfo column, String where, ZstdInflater inflater) {
            this.stored = stored;
            this.offset = offset;
            this.column = column;
            this.where = where;
            this.inflater = inflater;
        }

        synchronized byte[] bytes() throws ChunkFormatException {
            if (bytes == null) {
                bytes = ColumnarColumnDecoder.inflateVerified(stored, offset, column, where, inflater);
            }
            return bytes;
        }

        synchronized ColumnarLineTokenSections sections(int rows) throws ChunkFormatException {
            if (sections == null) {
                boolean ranges = column.encoding() == ColumnarEncoding.LINES_TOKENIZED_RANGES;
                if (column.zstd()) {
                    sections = new ColumnarLineTokenSections(bytes(), rows, ranges, where, inflater);
                } else {
                    // stored plain (its sections are compressed each on their own): read where it lies in the block's
                    // bytes, which the block holds anyway; the copy was a query's largest allocation (a count with a
                    // line filter over 3 M lines copied 40 MB of line columns)
                    ColumnarColumnDecoder.checkPlain(column, where);
                    sections = new ColumnarLineTokenSections(stored, offset, column.length(), rows, ranges, where,
                            inflater);
                }
            }
            return sections;
        }
    }

    /** The rows of block {@code block} as log entries, in time order. */
    public List<LogEntry> entries(int block) throws IOException {
        return readBlock(block).entries();
    }

    /** The rows of stream {@code streamIndex} with timestamps in [fromNanos, throughNanos], in time order. */
    public List<LogEntry> entries(int streamIndex, long fromNanos, long throughNanos) throws IOException {
        ColumnarDirectory dir = directory();
        ColumnarStreamInfo stream = dir.streams().get(streamIndex);
        List<LogEntry> entries = new ArrayList<>();
        for (int b = stream.firstBlock(); b < stream.firstBlock() + stream.blockCount(); b++) {
            if (!dir.blocks().get(b).overlaps(fromNanos, throughNanos)) {
                continue;
            }
            for (LogEntry entry : entries(b)) {
                if (entry.timestampNanos() >= fromNanos && entry.timestampNanos() <= throughNanos) {
                    entries.add(entry);
                }
            }
        }
        return entries;
    }

    private ColumnarBlockInfo block(int block) throws IOException {
        List<ColumnarBlockInfo> blocks = directory().blocks();
        if (block < 0 || block >= blocks.size()) {
            throw new IndexOutOfBoundsException("block " + block + " outside [0, " + blocks.size() + ") of object "
                    + source.name());
        }
        return blocks.get(block);
    }

    private String where(int block, ColumnarColumnInfo column) {
        return "object " + source.name() + " block " + block + " column " + column.displayName();
    }
}
