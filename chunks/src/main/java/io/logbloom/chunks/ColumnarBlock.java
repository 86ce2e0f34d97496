package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns of one block: timestamps, lines and each metadata column present in it, all checked
 * against their checksums when read. The line column, the costliest to decode, is decoded on first use, and so
 * are the timestamps and each metadata column of a block read lazily ({@link ColumnarObjectReader#readBlockLazily}),
 * so a reader that rules out every row on one metadata column (a needle) never pays for the others; a tokenized line
 * column's sections are inflated on the first {@link #rowsContaining} and kept, so a block held in a cache is
 * inflated once however many queries search it.
 * Thread-safe: the lazy decodes are synchronized (this object's lock guards {@code lines}, {@code values} and the
 * writing of the volatile {@code timestamps}) and their results immutable.
 */
public final class ColumnarBlock {
    /** Decodes a verified line column. */
    @FunctionalInterface
    interface LineDecoder {
        ColumnarLines decode() throws ChunkFormatException;
    }

    /** Decodes a verified timestamp column. */
    @FunctionalInterface
    interface TimestampDecoder {
        long[] decode() throws ChunkFormatException;
    }

    /** Decodes a verified metadata column. */
    @FunctionalInterface
    interface ValuesDecoder {
        ColumnarValues decode() throws ChunkFormatException;
    }

    /** Rebuilds the lines of some rows of a verified line column (null for the others). */
    @FunctionalInterface
    interface SomeLines {
        String[] lines(boolean[] wanted) throws ChunkFormatException;
    }

    /**
     * Finds the rows of a verified line column containing a literal, inflating into {@code scratch} (kept by
     * nobody) or, when it is null, into arrays the column keeps.
     */
    @FunctionalInterface
    interface LineSearch {
        boolean[] rowsContaining(byte[] literal, ColumnarScanBuffers scratch) throws ChunkFormatException;
    }

    /** The inflated token sections of a verified tokenized line column (kept by the column). */
    @FunctionalInterface
    interface TokenSections {
        ColumnarLineTokenView tokens() throws ChunkFormatException;
    }

    /** Builds the filter of a verified tokenized line column's whole digit runs. */
    @FunctionalInterface
    interface NumberFilters {
        ColumnarNumberFilter numberFilter(ColumnarScanBuffers scratch) throws ChunkFormatException;
    }

    private final ColumnarBlockInfo info;
    private final LineSearch search;
    /** Null when the line column is not tokenized. */
    private final NumberFilters numberFilters;
    /** Null when the line column is not tokenized. */
    private final TokenSections tokenSections;
    private final TimestampDecoder timestampDecoder;
    /** Decoded once, on first use (double-checked: a row loop reads it without taking the lock). */
    private volatile long[] timestamps;
    private final LineDecoder lineDecoder;
    /** Null when the column has no cheaper way than decoding it whole. */
    private final SomeLines someLines;
    private ColumnarLines lines;
    private final List<String> keys;
    private final ValuesDecoder[] valueDecoders;
    /** Per key, its decoded column once asked for; guarded by this. */
    private final ColumnarValues[] values;

    ColumnarBlock(ColumnarBlockInfo info, TimestampDecoder timestamps, LineDecoder lines, SomeLines someLines,
            LineSearch search, TokenSections tokenSections, NumberFilters numberFilters, List<String> keys,
            List<ValuesDecoder> values) {
        this.info = info;
        this.numberFilters = numberFilters;
        this.someLines = someLines;
        this.search = search;
        this.tokenSections = tokenSections;
        this.timestampDecoder = timestamps;
        this.lineDecoder = lines;
        this.keys = List.copyOf(keys);
        this.valueDecoders = values.toArray(new ValuesDecoder[0]);
        this.values = new ColumnarValues[valueDecoders.length];
    }

    /** The block's directory entry. */
    public ColumnarBlockInfo info() {
        return info;
    }

    /**
     * An upper bound of the heap this block can come to hold, for weighing it in a cache: its stored bytes, its
     * timestamps, and twice its raw bytes (the inflated line sections a search keeps, plus the lines once decoded).
     */
    public long retainedBytesBound() {
        return info.length() + 8L * info.rows() + 2 * info.rawBytes();
    }

    /** The number of rows. */
    public int rows() {
        return info.rows();
    }

    /**
     * Row {@code row}'s timestamp (the column decoded on first use).
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public long timestampNanos(int row) {
        long[] decoded = timestamps;
        if (decoded == null) {
            decoded = decodeTimestamps();
        }
        return decoded[row];
    }

    private synchronized long[] decodeTimestamps() {
        if (timestamps == null) {
            try {
                timestamps = timestampDecoder.decode();
            } catch (ChunkFormatException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return timestamps;
    }

    /**
     * The line column, decoded on first use.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public synchronized ColumnarLines lines() {
        if (lines == null) {
            try {
                lines = lineDecoder.decode();
            } catch (ChunkFormatException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return lines;
    }

    /**
     * Which rows' lines contain {@code literal} (UTF-8 bytes): a tokenized line column is searched on its tokens
     * without decoding it (see {@code ColumnarLineTokenSections}), which is several times cheaper than
     * {@link #lines()} for a filter that needs nothing else of the line; a plain one in its decoded lines.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public boolean[] rowsContaining(byte[] literal) {
        return rowsContaining(literal, null);
    }

    /**
     * As {@link #rowsContaining(byte[])}, but a tokenized column's sections not yet kept by this block are inflated
     * into {@code scratch} and not kept (null: inflated and kept): for a scan over more blocks than a cache holds,
     * where keeping them would only add garbage.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public boolean[] rowsContaining(byte[] literal, ColumnarScanBuffers scratch) {
        ColumnarLines decoded;
        synchronized (this) {
            decoded = lines;
        }
        // a tokenized column is searched on its tokens even once its lines are decoded: the walk reads one code
        // per line run, a substring search every line byte
        if (decoded == null || info.lines().encoding().tokenized()) {
            try {
                return search.rowsContaining(literal, scratch);
            } catch (ChunkFormatException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        boolean[] out = new boolean[rows()];
        for (int row = 0; row < out.length; row++) {
            out[row] = ColumnarLineTokens.indexOf(decoded.bytes(), decoded.offset(row), decoded.length(row), literal)
                    >= 0;
        }
        return out;
    }

    /**
     * The lines of the rows {@code wanted} marks, null for the others: from the decoded column when it is, else a
     * tokenized column rebuilds only those rows (a needle's kept row costs a walk of the codes, not the column).
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public String[] lines(boolean[] wanted) {
        ColumnarLines decoded;
        synchronized (this) {
            decoded = lines;
        }
        if (decoded == null && someLines != null) {
            try {
                return someLines.lines(wanted);
            } catch (ChunkFormatException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        decoded = lines();
        String[] out = new String[rows()];
        for (int row = 0; row < out.length; row++) {
            if (wanted[row]) {
                out[row] = decoded.line(row);
            }
        }
        return out;
    }

    /**
     * The line column's inflated token sections when it is tokenized (inflated once and kept, as for
     * {@link #rowsContaining}), else null: a reader that needs a few fields of each line can read them there
     * without rebuilding the lines.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when a section does not inflate
     */
    public ColumnarLineTokenView tokens() {
        try {
            return tokenSections == null ? null : tokenSections.tokens();
        } catch (ChunkFormatException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The filter of the whole digit runs of a tokenized line column ({@link ColumnarNumberFilter}), built now from
     * its numbers and dictionary (inflated into {@code scratch}, or kept by the block when it is null, as by
     * {@link #rowsContaining(byte[], ColumnarScanBuffers)}), or null when the column is not tokenized. The caller
     * keeps it: it is small, and rules the block out for a literal without fetching it.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when a section is malformed
     */
    public ColumnarNumberFilter numberFilter(ColumnarScanBuffers scratch) {
        try {
            return numberFilters == null ? null : numberFilters.numberFilter(scratch);
        } catch (ChunkFormatException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The metadata keys with a column in this block, sorted. */
    public List<String> keys() {
        return keys;
    }

    /**
     * The column of {@code key}, decoded on first use, or an all-absent column when the block has none.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when the verified column does not decode
     */
    public ColumnarValues metadata(String key) {
        int index = keys.indexOf(key);
        return index < 0 ? ColumnarValues.absent(rows()) : values(index);
    }

    private synchronized ColumnarValues values(int index) {
        if (values[index] == null) {
            try {
                values[index] = valueDecoders[index].decode();
            } catch (ChunkFormatException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return values[index];
    }

    /**
     * Every metadata column of the block, decoded, for copying rows' metadata out as bytes
     * ({@link ColumnarObjectWriter.StreamAppender#append(long, byte[], int, int, ColumnarMetadata, int)}).
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when a verified column does not decode
     */
    public ColumnarMetadata metadataColumns() {
        ColumnarValues[] columns = new ColumnarValues[keys.size()];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = values(k);
        }
        return new ColumnarMetadata(keys, columns);
    }

    /** Row {@code row}'s metadata, sorted by key. */
    public List<Label> metadata(int row) {
        List<Label> labels = null;
        for (int k = 0; k < keys.size(); k++) {
            String value = values(k).value(row);
            if (value != null) {
                if (labels == null) {
                    labels = new ArrayList<>(keys.size() - k);
                }
                labels.add(new Label(keys.get(k), value));
            }
        }
        return labels == null ? List.of() : labels;
    }

    /** Row {@code row} as a log entry (metadata sorted by key). */
    public LogEntry entry(int row) {
        return new LogEntry(timestampNanos(row), lines().line(row), metadata(row));
    }

    /** All rows as log entries, in time order. */
    public List<LogEntry> entries() {
        List<LogEntry> entries = new ArrayList<>(rows());
        for (int row = 0; row < rows(); row++) {
            entries.add(entry(row));
        }
        return entries;
    }
}
