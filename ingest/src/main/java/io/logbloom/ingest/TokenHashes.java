package io.logbloom.ingest;

import java.util.Arrays;

/**
 * The distinct token hashes of one series in one object, collected so its filter can be sized from the
 * exact count: an open-addressing set of longs (linear probing, at most three quarters full), so each of the
 * many repeats of a word token costs one probe and no sort. The hashes are already uniformly mixed
 * 64-bit values, so their low bits pick the slot directly. {@link #add} refuses once the distinct
 * hashes would exceed the bound.
 *
 * <p>Why not sort and deduplicate: word tokens repeat on nearly every line, but ids (trace ids) are
 * distinct per line, so a sorted array kept near the distinct count was re-sorted whole each time it
 * filled; in the 3 M-line profile that sort was 18 % of the ingester's CPU.
 *
 * <p>Not thread-safe: one writer thread fills it, then reads {@link #distinct} once.
 */
final class TokenHashes {
    /** First table length: a small series in a small object stays within it. */
    private static final int INITIAL_SLOTS = 1024;
    /** Marks an empty slot; the hash 0 itself is remembered apart in {@link #hasZero}. */
    private static final long EMPTY = 0L;

    private final int maxDistinct;
    private long[] slots = new long[INITIAL_SLOTS];
    private int size;
    private boolean hasZero;

    /** A collector refusing more than {@code maxDistinct} distinct hashes. */
    TokenHashes(int maxDistinct) {
        if (maxDistinct < 1) {
            throw new IllegalArgumentException("max distinct hashes must be at least 1, got " + maxDistinct);
        }
        this.maxDistinct = maxDistinct;
    }

    /** Adds a hash; false when the distinct hashes would exceed the bound (the collection is then incomplete). */
    boolean add(long hash) {
        if (hash == EMPTY) {
            if (!hasZero) {
                if (count() >= maxDistinct) {
                    return false;
                }
                hasZero = true;
            }
            return true;
        }
        int mask = slots.length - 1;
        for (int slot = (int) (hash ^ (hash >>> 32)) & mask;; slot = (slot + 1) & mask) {
            long present = slots[slot];
            if (present == hash) {
                return true;
            }
            if (present == EMPTY) {
                if (count() >= maxDistinct) {
                    return false;
                }
                slots[slot] = hash;
                size++;
                if (4L * size > 3L * slots.length) {
                    grow();
                }
                return true;
            }
        }
    }

    private int count() {
        return size + (hasZero ? 1 : 0);
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long hash : old) {
            if (hash != EMPTY) {
                int slot = (int) (hash ^ (hash >>> 32)) & mask;
                while (slots[slot] != EMPTY) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = hash;
            }
        }
    }

    /** The distinct hashes collected, sorted. */
    long[] distinct() {
        long[] out = new long[count()];
        int n = 0;
        if (hasZero) {
            out[n++] = 0L;
        }
        for (long hash : slots) {
            if (hash != EMPTY) {
                out[n++] = hash;
            }
        }
        Arrays.sort(out);
        return out;
    }
}
