package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns of one block: timestamps, lines and each metadata column present in it, all checked
 * against their checksums when read. The line column, the costliest to decode, is decoded on first
 * use, so a reader that rules out every row on timestamps or metadata never pays for it; a tokenized line
 * column's sections are inflated on the first {@link #rowsContaining} and kept, so a block held in a cache is
 * inflated once however many queries search it.
 * Thread-safe: the lazy decodes are synchronized and their results immutable.
 */
public final class ColumnarBlock {
    /** Decodes a verified line column. */
    @FunctionalInterface
    interface LineDecoder {
        ColumnarLines decode() throws ChunkFormatException;
    }

    /** Finds the rows of a verified line column containing a literal. */
    @FunctionalInterface
    interface LineSearch {
        boolean[] rowsContaining(byte[] literal) throws ChunkFormatException;

        /** The column's inflated token sections, or null when it is not tokenized. */
        default ColumnarLineTokenView tokens() throws ChunkFormatException {
            return null;
        }
    }

    private final ColumnarBlockInfo info;
    private final LineSearch search;
    private final long[] timestamps;
    private final LineDecoder lineDecoder;
    private ColumnarLines lines;
    private final List<String> keys;
    private final List<ColumnarValues> values;

    ColumnarBlock(ColumnarBlockInfo info, long[] timestamps, LineDecoder lines, LineSearch search, List<String> keys,
            List<ColumnarValues> values) {
        this.info = info;
        this.search = search;
        this.timestamps = timestamps;
        this.lineDecoder = lines;
        this.keys = List.copyOf(keys);
        this.values = List.copyOf(values);
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

    /** Row {@code row}'s timestamp. */
    public long timestampNanos(int row) {
        return timestamps[row];
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
        ColumnarLines decoded;
        synchronized (this) {
            decoded = lines;
        }
        // a tokenized column is searched on its tokens even once its lines are decoded: the walk reads one code
        // per line run, a substring search every line byte
        if (decoded == null || info.lines().encoding() == ColumnarEncoding.LINES_TOKENIZED) {
            try {
                return search.rowsContaining(literal);
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
     * The line column's inflated token sections when it is tokenized (inflated once and kept, as for
     * {@link #rowsContaining}), else null: a reader that needs a few fields of each line can read them there
     * without rebuilding the lines.
     *
     * @throws java.io.UncheckedIOException with a {@link ChunkFormatException} when a section does not inflate
     */
    public ColumnarLineTokenView tokens() {
        try {
            return search.tokens();
        } catch (ChunkFormatException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The metadata keys with a column in this block, sorted. */
    public List<String> keys() {
        return keys;
    }

    /** The column of {@code key}, or an all-absent column when the block has none. */
    public ColumnarValues metadata(String key) {
        int index = keys.indexOf(key);
        return index < 0 ? ColumnarValues.absent(rows()) : values.get(index);
    }

    /** Row {@code row}'s metadata, sorted by key. */
    public List<Label> metadata(int row) {
        List<Label> labels = null;
        for (int k = 0; k < keys.size(); k++) {
            String value = values.get(k).value(row);
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
        return new LogEntry(timestamps[row], lines().line(row), metadata(row));
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
