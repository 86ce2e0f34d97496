package io.logbloom.chunks;

/**
 * How one column of one block is laid out before optional zstd compression. The {@link #id()} is
 * written into the object directory (low 7 bits; the high bit flags zstd), so ids are part of the
 * format and must never be renumbered. Thread-safe (stateless).
 */
public enum ColumnarEncoding {
    /** Timestamps (sorted): the first as a zigzag varint, then unsigned varint deltas. */
    TIMESTAMP_DELTA(1),
    /** Timestamps: first and first delta as zigzag varints, then zigzag varint deltas of deltas. */
    TIMESTAMP_DELTA_OF_DELTA(2),
    /** Lines: uvarint byte lengths of all rows, then the concatenated UTF-8 bytes. */
    LINES(3),
    /**
     * Lines: split into word, number and other runs; a per-block token dictionary, token ids and
     * varint numbers, each section zstd'd on its own (layout in {@code ColumnarLineTokens}).
     */
    LINES_TOKENIZED(8),
    /**
     * Lines: {@link #LINES_TOKENIZED}'s sections and a fourth, the range of the numbers after each pair of runs
     * ({@code ColumnarNumberRanges}), so a literal filter can rule a block out before inflating its codes. Written
     * since columnar version 4.
     */
    LINES_TOKENIZED_RANGES(9),
    /** Metadata: presence, then one value shared by every present row. */
    METADATA_CONSTANT(4),
    /** Metadata: presence, the distinct values, then one uvarint id per present row. */
    METADATA_DICTIONARY(5),
    /** Metadata: presence, a case flag, then each value's hex digits as raw bytes (half the size). */
    METADATA_HEX(6),
    /** Metadata: presence, uvarint byte lengths of present values, then their UTF-8 bytes. */
    METADATA_RAW(7);

    private final int id;

    ColumnarEncoding(int id) {
        this.id = id;
    }

    /** The identifier written into the directory. */
    public int id() {
        return id;
    }

    /** Whether this is a tokenized line layout ({@link #LINES_TOKENIZED} with or without the ranges section). */
    public boolean tokenized() {
        return this == LINES_TOKENIZED || this == LINES_TOKENIZED_RANGES;
    }

    /** The encoding with identifier {@code id}, or null when unknown. */
    static ColumnarEncoding fromId(int id) {
        for (ColumnarEncoding encoding : values()) {
            if (encoding.id == id) {
                return encoding;
            }
        }
        return null;
    }
}
