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
    /**
     * Concatenated value bytes (raw: UTF-8; hex: decoded digits) from {@link #dataStart} on, or null: the column's
     * decoded payload itself, read in place rather than copied out of it.
     */
    private final byte[] data;
    /** Where the first value starts in {@link #data}. */
    private final int dataStart;
    /** End offsets of the values in {@link #data} (absolute, not from {@link #dataStart}), or null. */
    private final int[] ends;
    /** Digits for hex values, or null when the values are not hex-encoded. */
    private final char[] hexDigits;

    private ColumnarValues(int rows, int[] valueIndex, String[] distinct, byte[] data, int dataStart, int[] ends,
            char[] hexDigits) {
        this.rows = rows;
        this.valueIndex = valueIndex;
        this.distinct = distinct;
        this.data = data;
        this.dataStart = dataStart;
        this.ends = ends;
        this.hexDigits = hexDigits;
    }

    /** A column where no row has the key. */
    static ColumnarValues absent(int rows) {
        int[] index = new int[rows];
        java.util.Arrays.fill(index, -1);
        return new ColumnarValues(rows, index, new String[0], null, 0, null, null);
    }

    static ColumnarValues ofDistinct(int rows, int[] valueIndex, String[] distinct) {
        return new ColumnarValues(rows, valueIndex, distinct, null, 0, null, null);
    }

    /** UTF-8 values in {@code data} from {@code dataStart} on, ending at the absolute offsets {@code ends}. */
    static ColumnarValues ofBytes(int rows, int[] valueIndex, byte[] data, int dataStart, int[] ends) {
        return new ColumnarValues(rows, valueIndex, null, data, dataStart, ends, null);
    }

    /** Hex values as their decoded digit bytes, laid out as {@link #ofBytes}'s. */
    static ColumnarValues ofHex(int rows, int[] valueIndex, byte[] data, int dataStart, int[] ends,
            boolean upperCase) {
        return new ColumnarValues(rows, valueIndex, null, data, dataStart, ends, upperCase ? UPPER : LOWER);
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
        int start = index == 0 ? dataStart : ends[index - 1];
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

    /** Row {@code row}'s index into the stored values, or -1 when the row does not have the key. */
    int valueIndex(int row) {
        return valueIndex[checkRow(row)];
    }

    /** Whether the values are stored as their UTF-8 bytes ({@link #data}, {@link #valueStart}, {@link #valueEnd}). */
    boolean holdsUtf8() {
        return data != null && hexDigits == null;
    }

    /** The array holding the stored values' bytes (see {@link #holdsUtf8()}). */
    byte[] data() {
        return data;
    }

    /** Where the stored value {@code index} ({@link #valueIndex}) starts in {@link #data()}. */
    int valueStart(int index) {
        return index == 0 ? dataStart : ends[index - 1];
    }

    /** Where the stored value {@code index} ({@link #valueIndex}) ends in {@link #data()}. */
    int valueEnd(int index) {
        return ends[index];
    }

    /** Per row, whether it has the key (possibly with an empty value). */
    public boolean[] rowsPresent() {
        boolean[] out = new boolean[rows];
        for (int row = 0; row < rows; row++) {
            out[row] = valueIndex[row] >= 0;
        }
        return out;
    }

    /**
     * Per row, whether its value equals {@code value}: {@code value.equals(value(row))} for every row, decided on
     * the stored form (a dictionary id, UTF-8 bytes or hex digit bytes) without building a string per row, so a
     * needle tests a block's column at memory speed.
     */
    public boolean[] rowsEqualTo(String value) {
        boolean[] matchByIndex = distinct != null ? distinctEqualTo(value) : bytesEqualTo(value);
        boolean[] out = new boolean[rows];
        if (matchByIndex == null) {
            return out;
        }
        for (int row = 0; row < rows; row++) {
            int index = valueIndex[row];
            out[row] = index >= 0 && matchByIndex[index];
        }
        return out;
    }

    /** Per distinct value, whether it equals {@code value}; null when none does. */
    private boolean[] distinctEqualTo(String value) {
        for (int i = 0; i < distinct.length; i++) {
            if (distinct[i].equals(value)) {
                boolean[] match = new boolean[distinct.length];
                match[i] = true;
                return match;
            }
        }
        return null;
    }

    /** Per stored value, whether it equals {@code value}; null when none can. */
    private boolean[] bytesEqualTo(String value) {
        byte[] wanted = hexDigits == null ? value.getBytes(StandardCharsets.UTF_8) : hexBytes(value);
        if (wanted == null) {
            return null;
        }
        if (wanted.length == 0) {
            boolean[] match = new boolean[ends.length];
            boolean any = false;
            for (int i = 0; i < ends.length; i++) {
                match[i] = ends[i] == (i == 0 ? dataStart : ends[i - 1]);
                any |= match[i];
            }
            return any ? match : null;
        }
        boolean[] match = null;
        byte first = wanted[0];
        int start = dataStart;
        for (int i = 0; i < ends.length; i++) {
            int end = ends[i];
            // the first byte and the length rule out almost every value before a call: a block's rows are compared
            // on a needle's first queries, when this loop still runs in the interpreter
            if (end - start == wanted.length && data[start] == first
                    && java.util.Arrays.equals(data, start, end, wanted, 0, wanted.length)) {
                if (match == null) {
                    match = new boolean[ends.length];
                }
                match[i] = true;
            }
            start = end;
        }
        return match;
    }

    /**
     * The stored bytes of a hex value as {@link #value} would print it: even length, digits of this column's case
     * only; null when {@code value} is not such a string, so no row's value can equal it.
     */
    private byte[] hexBytes(String value) {
        if (value.length() % 2 != 0) {
            return null;
        }
        byte[] out = new byte[value.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int high = hexDigit(value.charAt(2 * i));
            int low = hexDigit(value.charAt(2 * i + 1));
            if (high < 0 || low < 0) {
                return null;
            }
            out[i] = (byte) (high << 4 | low);
        }
        return out;
    }

    private int hexDigit(char c) {
        for (int d = 0; d < 16; d++) {
            if (hexDigits[d] == c) {
                return d;
            }
        }
        return -1;
    }

    private int checkRow(int row) {
        if (row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + rows + ")");
        }
        return row;
    }
}
