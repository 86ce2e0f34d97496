package io.logbloom.ingest;

/**
 * A hash set of entry identities — (stream id, timestamp, line hash), three {@code long}s — in
 * flat arrays with open addressing and linear probing, deleting by backward shift (Knuth, TAOCP vol.
 * 3, 6.4, Algorithm R) so no tombstones accumulate.
 *
 * <p>Why not {@code HashSet<record>}: the ingester keeps one identity per entry in memory plus the
 * recently flushed ones, millions of them at tens of MB/s; as boxed keys in hash-map nodes they were
 * ~80 bytes and three objects each, and the garbage collector's tracing of them cost more CPU than
 * the push path itself. Here an identity is 32 bytes of one primitive array (interleaved, so a probe
 * touches one cache line) and the GC sees one object. The table doubles at load 1/2 and halves below 1/8 (not below {@link #MIN_CAPACITY}).
 *
 * <p>Not thread-safe: the owner serializes calls.
 */
final class EntryKeySet {
    /** Smallest table: a stream with a few entries should not cost more than a few hundred bytes. */
    static final int MIN_CAPACITY = 16;

    /** Slot i is {@code table[4i..4i+3]} = stream, timestamp, line hash, used (0/1): one cache line per probe. */
    private long[] table;
    private int mask;
    private int size;

    EntryKeySet() {
        allocate(MIN_CAPACITY);
    }

    int size() {
        return size;
    }

    /** Whether the identity is present. */
    boolean contains(long stream, long timestampNanos, long lineHash) {
        return find(stream, timestampNanos, lineHash) >= 0;
    }

    /** Adds the identity; false when it was already present. */
    boolean add(long stream, long timestampNanos, long lineHash) {
        if (find(stream, timestampNanos, lineHash) >= 0) {
            return false;
        }
        if (size + 1 > (mask + 1) / 2) {
            rehash((mask + 1) * 2);
        }
        insert(stream, timestampNanos, lineHash);
        size++;
        return true;
    }

    /**
     * Adds an identity the caller knows to be absent (e.g. its timestamp is newer than every stored
     * one), saving the membership probe of {@link #add}: on large sets that probe is a cache miss.
     */
    void addAbsent(long stream, long timestampNanos, long lineHash) {
        if (size + 1 > (mask + 1) / 2) {
            rehash((mask + 1) * 2);
        }
        insert(stream, timestampNanos, lineHash);
        size++;
    }

    /** Removes the identity; false when it was absent. */
    boolean remove(long stream, long timestampNanos, long lineHash) {
        int i = find(stream, timestampNanos, lineHash);
        if (i < 0) {
            return false;
        }
        long[] t = table;
        t[4 * i + 3] = 0;
        size--;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (t[4 * j + 3] == 0) {
                break;
            }
            int home = slot(t[4 * j], t[4 * j + 1], t[4 * j + 2]);
            // move j back to the hole at i unless j's home lies cyclically in (i, j]
            boolean homeBetween = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!homeBetween) {
                System.arraycopy(t, 4 * j, t, 4 * i, 4);
                t[4 * j + 3] = 0;
                i = j;
            }
        }
        if (mask + 1 > MIN_CAPACITY && size < (mask + 1) / 8) {
            rehash((mask + 1) / 2);
        }
        return true;
    }

    private int find(long stream, long timestampNanos, long lineHash) {
        long[] t = table;
        int i = slot(stream, timestampNanos, lineHash);
        while (t[4 * i + 3] != 0) {
            if (t[4 * i + 2] == lineHash && t[4 * i + 1] == timestampNanos && t[4 * i] == stream) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    private void insert(long stream, long timestampNanos, long lineHash) {
        long[] t = table;
        int i = slot(stream, timestampNanos, lineHash);
        while (t[4 * i + 3] != 0) {
            i = (i + 1) & mask;
        }
        t[4 * i] = stream;
        t[4 * i + 1] = timestampNanos;
        t[4 * i + 2] = lineHash;
        t[4 * i + 3] = 1;
    }

    private int slot(long stream, long timestampNanos, long lineHash) {
        long h = lineHash ^ (timestampNanos * 0x9E3779B97F4A7C15L) ^ (stream * 0xC2B2AE3D27D4EB4FL);
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    private void rehash(int capacity) {
        long[] old = table;
        allocate(capacity);
        for (int i = 0; i < old.length; i += 4) {
            if (old[i + 3] != 0) {
                insert(old[i], old[i + 1], old[i + 2]);
            }
        }
    }

    private void allocate(int capacity) {
        table = new long[4 * capacity];
        mask = capacity - 1;
    }

    @Override
    public String toString() {
        return "EntryKeySet[" + size + " of " + (mask + 1) + " slots]";
    }
}
