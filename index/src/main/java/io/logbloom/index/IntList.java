package io.logbloom.index;

import java.util.Arrays;
import java.util.BitSet;

/** A growable list of primitive ints (series ids), avoiding boxing in postings. Not thread-safe. */
final class IntList {
    private int[] values;
    private int size;

    IntList() {
        this(4);
    }

    IntList(int capacity) {
        values = new int[Math.max(1, capacity)];
    }

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    int get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " >= size " + size);
        }
        return values[i];
    }

    /** Sets the bit of every value in {@code bits}. */
    void setAll(BitSet bits) {
        for (int i = 0; i < size; i++) {
            bits.set(values[i]);
        }
    }
}
