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
 * <p>Newest-timestamp run: an identity whose timestamp is above every timestamp ever added cannot be
 * present, and appending it to a time-sorted run (three parallel arrays, a deleted flag per slot)
 * needs no probe at all. In-order ingestion — nearly all of it — thus never touches the hash table,
 * whose random slots were a cache miss per insert (a fifth of the push CPU with 100 streams of 30k
 * entries each); lookups of older timestamps (retries) binary-search the run by timestamp, which is
 * strictly increasing in it. Removal marks the slot deleted and drops the deleted prefix, which is
 * where a flushed chunk's keys sit; the live window is moved to the front when the arrays are full.
 *
 * <p>Not thread-safe: the owner serializes calls.
 */
final class EntryKeySet {
    /** Smallest table: a stream with a few entries should not cost more than a few hundred bytes. */
    static final int MIN_CAPACITY = 16;

    /** Slot i is {@code table[4i..4i+3]} = stream, timestamp, line hash, used (0/1): one cache line per probe. */
    /** Smallest run: grows by doubling like the table. */
    private static final int MIN_RUN = 16;

    private long[] table;
    private int mask;
    private int tableSize;
    /** Highest timestamp ever added (table or run), so anything newer is known absent. */
    private long maxTimestampNanos = Long.MIN_VALUE;
    private long[] runStreams = new long[MIN_RUN];
    private long[] runTimestamps = new long[MIN_RUN];
    private long[] runHashes = new long[MIN_RUN];
    private boolean[] runDeleted = new boolean[MIN_RUN];
    /** Run slots [runStart, runEnd) are in use, runLive of them not deleted; runStart is never a deleted slot. */
    private int runStart;
    private int runEnd;
    private int runLive;

    EntryKeySet() {
        allocate(MIN_CAPACITY);
    }

    int size() {
        return tableSize + runLive;
    }

    /** Whether the identity is present. */
    boolean contains(long stream, long timestampNanos, long lineHash) {
        if (timestampNanos > maxTimestampNanos) {
            return false;
        }
        return find(stream, timestampNanos, lineHash) >= 0 || findInRun(stream, timestampNanos, lineHash) >= 0;
    }

    /** Adds the identity; false when it was already present. */
    boolean add(long stream, long timestampNanos, long lineHash) {
        if (timestampNanos > maxTimestampNanos) {
            appendToRun(stream, timestampNanos, lineHash);
            maxTimestampNanos = timestampNanos;
            return true;
        }
        if (find(stream, timestampNanos, lineHash) >= 0 || findInRun(stream, timestampNanos, lineHash) >= 0) {
            return false;
        }
        if (tableSize + 1 > (mask + 1) / 2) {
            rehash((mask + 1) * 2);
        }
        insert(stream, timestampNanos, lineHash);
        tableSize++;
        return true;
    }

    /** Removes the identity; false when it was absent. */
    boolean remove(long stream, long timestampNanos, long lineHash) {
        int i = find(stream, timestampNanos, lineHash);
        if (i < 0) {
            return removeFromRun(stream, timestampNanos, lineHash);
        }
        long[] t = table;
        t[4 * i + 3] = 0;
        tableSize--;
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
        if (mask + 1 > MIN_CAPACITY && tableSize < (mask + 1) / 8) {
            rehash((mask + 1) / 2);
        }
        return true;
    }

    private void appendToRun(long stream, long timestampNanos, long lineHash) {
        if (runEnd == runTimestamps.length) {
            int live = runEnd - runStart;
            int capacity = Math.max(MIN_RUN, live * 2 <= runTimestamps.length ? runTimestamps.length : live * 2);
            runStreams = moveToFront(runStreams, capacity);
            runTimestamps = moveToFront(runTimestamps, capacity);
            runHashes = moveToFront(runHashes, capacity);
            boolean[] deleted = new boolean[capacity];
            System.arraycopy(runDeleted, runStart, deleted, 0, live);
            runDeleted = deleted;
            runStart = 0;
            runEnd = live;
        }
        runStreams[runEnd] = stream;
        runTimestamps[runEnd] = timestampNanos;
        runHashes[runEnd] = lineHash;
        runDeleted[runEnd] = false;
        runEnd++;
        runLive++;
    }

    private long[] moveToFront(long[] array, int capacity) {
        long[] moved = capacity == array.length ? array : new long[capacity];
        System.arraycopy(array, runStart, moved, 0, runEnd - runStart);
        return moved;
    }

    /** The run slot holding the identity, or -1; timestamps are strictly increasing over the run. */
    private int findInRun(long stream, long timestampNanos, long lineHash) {
        int i = java.util.Arrays.binarySearch(runTimestamps, runStart, runEnd, timestampNanos);
        if (i < 0 || runDeleted[i] || runHashes[i] != lineHash || runStreams[i] != stream) {
            return -1;
        }
        return i;
    }

    private boolean removeFromRun(long stream, long timestampNanos, long lineHash) {
        int i = findInRun(stream, timestampNanos, lineHash);
        if (i < 0) {
            return false;
        }
        runDeleted[i] = true;
        runLive--;
        while (runStart < runEnd && runDeleted[runStart]) {
            runStart++;
        }
        if (runStart == runEnd) {
            runStart = 0;
            runEnd = 0;
            if (runTimestamps.length > MIN_RUN) {
                runStreams = new long[MIN_RUN];
                runTimestamps = new long[MIN_RUN];
                runHashes = new long[MIN_RUN];
                runDeleted = new boolean[MIN_RUN];
            }
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
        return "EntryKeySet[" + tableSize + " of " + (mask + 1) + " slots, " + runLive + " in the newest-timestamp run]";
    }
}
