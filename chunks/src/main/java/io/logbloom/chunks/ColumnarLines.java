package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;

/**
 * A decoded line column: all lines' UTF-8 bytes in one array with row offsets, so a filter can scan
 * bytes without building a string per row; {@link #line(int)} builds one on demand. Immutable after
 * decoding and thread-safe (the arrays are never written after construction).
 */
public final class ColumnarLines {
    private final byte[] bytes;
    private final int[] offsets;
    private final int rows;

    ColumnarLines(byte[] bytes, int[] offsets, int rows) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.rows = rows;
    }

    /** The number of rows. */
    public int rows() {
        return rows;
    }

    /** The array holding every line's bytes; do not modify it. */
    public byte[] bytes() {
        return bytes;
    }

    /** Where row {@code row}'s line starts in {@link #bytes()}. */
    public int offset(int row) {
        return offsets[checkRow(row)];
    }

    /** Row {@code row}'s line length in bytes. */
    public int length(int row) {
        return offsets[checkRow(row) + 1] - offsets[row];
    }

    /** Row {@code row}'s line as a string. */
    public String line(int row) {
        return new String(bytes, offset(row), length(row), StandardCharsets.UTF_8);
    }

    private int checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + rows + ")");
        }
        return row;
    }
}
