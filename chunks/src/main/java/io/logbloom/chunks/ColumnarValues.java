package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;

/**
 * A decoded structured-metadata column of one block: per row, absent or a value. Constant and
 * dictionary columns keep their distinct values as strings and an id per row; raw and hex columns
 * keep bytes and build a string on demand. Immutable after decoding and thread-safe.
 */
public final class ColumnarValues {
    private static final char[] LOWER = "0123456789abcdef".toCharArray();
    private static final char[] UPPER = "0123456789ABCDEF".toCharArray();

    private final int rows;
    /** Per row, the index of its value (into {@link #distinct} or {@link #ends}), or -1 when absent. */
    private final int[] valueIndex;
    /** Distinct values (constant/dictionary), or null. */
    private final String[] distinct;
    /** Concatenated value bytes (raw: UTF-8; hex: decoded digits), or null. */
    private final byte[] data;
    /** End offsets of the values in {@link #data}, or null. */
    private final int[] ends;
    /** Digits for hex values, or null when the values are not hex-encoded. */
    private final char[] hexDigits;

    private ColumnarValues(int rows, int[] valueIndex, String[] distinct, byte[] data, int[] ends, char[] hexDigits) {
        this.rows = rows;
        this.valueIndex = valueIndex;
        this.distinct = distinct;
        this.data = data;
        this.ends = ends;
        this.hexDigits = hexDigits;
    }

    /** A column where no row has the key. */
    static ColumnarValues absent(int rows) {
        int[] index = new int[rows];
        java.util.Arrays.fill(index, -1);
        return new ColumnarValues(rows, index, new String[0], null, null, null);
    }

    static ColumnarValues ofDistinct(int rows, int[] valueIndex, String[] distinct) {
        return new ColumnarValues(rows, valueIndex, distinct, null, null, null);
    }

    static ColumnarValues ofBytes(int rows, int[] valueIndex, byte[] data, int[] ends) {
        return new ColumnarValues(rows, valueIndex, null, data, ends, null);
    }

    static ColumnarValues ofHex(int rows, int[] valueIndex, byte[] data, int[] ends, boolean upperCase) {
        return new ColumnarValues(rows, valueIndex, null, data, ends, upperCase ? UPPER : LOWER);
    }

    /** The number of rows. */
    public int rows() {
        return rows;
    }

    /** Whether row {@code row} has the key (possibly with an empty value). */
    public boolean isPresent(int row) {
        return valueIndex[checkRow(row)] >= 0;
    }

    /** Row {@code row}'s value, or null when the row does not have the key. */
    public String value(int row) {
        int index = valueIndex[checkRow(row)];
        if (index < 0) {
            return null;
        }
        if (distinct != null) {
            return distinct[index];
        }
        int start = index == 0 ? 0 : ends[index - 1];
        int end = ends[index];
        if (hexDigits == null) {
            return new String(data, start, end - start, StandardCharsets.UTF_8);
        }
        char[] chars = new char[2 * (end - start)];
        for (int i = start; i < end; i++) {
            chars[2 * (i - start)] = hexDigits[(data[i] >> 4) & 0xF];
            chars[2 * (i - start) + 1] = hexDigits[data[i] & 0xF];
        }
        return new String(chars);
    }

    private int checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + rows + ")");
        }
        return row;
    }
}
