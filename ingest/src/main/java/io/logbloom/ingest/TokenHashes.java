package io.logbloom.ingest;

import java.util.Arrays;

/**
 * The distinct token hashes of one series in one object, collected so its filter can be sized from the
 * exact count. Hashes are appended to a growing array; when it is full it is sorted and deduplicated in
 * place before it grows (word tokens repeat on nearly every line of a block, so this keeps the array near
 * the distinct count), and {@link #add} refuses once the distinct hashes exceed the bound.
 *
 * <p>Not thread-safe: one writer thread fills it, then reads {@link #distinct} once.
 */
final class TokenHashes {
    /** First array length: a small series in a small object stays within it. */
    private static final int INITIAL_LENGTH = 1024;

    private final int maxDistinct;
    private long[] hashes = new long[INITIAL_LENGTH];
    private int size;
    /** Hashes at the front already sorted and distinct. */
    private int sortedPrefix;

    /** A collector refusing more than {@code maxDistinct} distinct hashes. */
    TokenHashes(int maxDistinct) {
        if (maxDistinct < 1) {
            throw new IllegalArgumentException("max distinct hashes must be at least 1, got " + maxDistinct);
        }
        this.maxDistinct = maxDistinct;
    }

    /** Adds a hash; false when the distinct hashes would exceed the bound (the collection is then incomplete). */
    boolean add(long hash) {
        if (size == hashes.length) {
            compact();
            if (size > maxDistinct) {
                return false;
            }
            if (size > hashes.length / 2) {
                hashes = Arrays.copyOf(hashes, (int) Math.min(2L * hashes.length, (long) maxDistinct + 1));
            }
        }
        hashes[size++] = hash;
        return true;
    }

    /** The distinct hashes collected, sorted. */
    long[] distinct() {
        compact();
        return Arrays.copyOf(hashes, size);
    }

    private void compact() {
        if (sortedPrefix == size) {
            return;
        }
        Arrays.sort(hashes, 0, size);
        int out = 0;
        for (int i = 0; i < size; i++) {
            if (out == 0 || hashes[i] != hashes[out - 1]) {
                hashes[out++] = hashes[i];
            }
        }
        size = out;
        sortedPrefix = out;
    }
}
