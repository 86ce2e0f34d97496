package io.logbloom.ingest;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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
 * <p>Newest-timestamp runs, one per stream: an identity whose timestamp is above every timestamp
 * ever added for its stream cannot be present, and appending it to that stream's time-sorted run
 * (two parallel arrays and a deleted flag per slot) needs no probe at all. In-order ingestion —
 * nearly all of it — thus never touches the hash table, whose random slots were a cache miss per
 * insert, even when a push interleaves many streams over the same time range (one run for all
 * streams missed on every stream but the newest: a tenth of the push CPU with 100 streams). Lookups
 * of older timestamps (retries) binary-search the stream's run, strictly increasing in time.
 * Removal marks the slot deleted and drops the deleted prefix, which is where the oldest keys sit;
 * the live window is moved to the front when the arrays are full. A stream's run object is dropped
 * once neither its run nor the table holds a key of the stream (it counts its table keys), so its
 * newest timestamp is never forgotten while a key of the stream may still be in the table.
 *
 * <p>Not thread-safe: the owner serializes calls.
 */
final class EntryKeySet {
    /** Smallest table: a stream with a few entries should not cost more than a few hundred bytes. */
    static final int MIN_CAPACITY = 16;
    /** Smallest run: grows by doubling like the table; small, as there is one per stream with recent keys. */
    private static final int MIN_RUN = 4;

    /** Slot i is {@code table[4i..4i+3]} = stream, timestamp, line hash, used (0/1): one cache line per probe. */
    private long[] table;
    private int mask;
    private int tableSize;
    /** The run of every stream with a key in the set. */
    private final Map<Long, Run> runs = new HashMap<>();
    /** The run added to or looked up last: consecutive calls nearly always concern one stream, so most skip the map. */
    private Run lastRun;
    /**
     * The run removed from last, apart from {@link #lastRun}: the oldest keys go out in the order they came in, a
     * stream's keys together, while adds interleave with them for another stream.
     */
    private Run lastRemovedRun;
    /** Live keys over all runs. */
    private int runsLive;

    /** One stream's newest-timestamp run and how many of its keys are in the table. */
    private static final class Run {
        final long stream;
        /** Highest timestamp ever added for the stream (run or table), so anything newer is known absent. */
        long maxTimestampNanos = Long.MIN_VALUE;
        long[] timestamps = new long[MIN_RUN];
        long[] hashes = new long[MIN_RUN];
        boolean[] deleted = new boolean[MIN_RUN];
        /** Slots [start, end) are in use, live of them not deleted; start is never a deleted slot. */
        int start;
        int end;
        int live;
        /** Keys of this stream in the hash table. */
        int inTable;

        Run(long stream) {
            this.stream = stream;
        }

        void append(long timestampNanos, long lineHash) {
            if (end == timestamps.length) {
                int used = end - start;
                // as used * 2 <= length ? length : used * 2, without a branch whose profile the warm-up decides
                int capacity = Math.max(MIN_RUN, Math.max(timestamps.length, used * 2));
                timestamps = moveToFront(timestamps, capacity);
                hashes = moveToFront(hashes, capacity);
                boolean[] moved = new boolean[capacity];
                System.arraycopy(deleted, start, moved, 0, used);
                deleted = moved;
                start = 0;
                end = used;
            }
            timestamps[end] = timestampNanos;
            hashes[end] = lineHash;
            deleted[end] = false;
            end++;
            live++;
            maxTimestampNanos = timestampNanos;
        }

        private long[] moveToFront(long[] array, int capacity) {
            long[] moved = capacity == array.length ? array : new long[capacity];
            System.arraycopy(array, start, moved, 0, end - start);
            return moved;
        }

        /** The slot holding the identity, or -1; timestamps are strictly increasing over the run. */
        int find(long timestampNanos, long lineHash) {
            int i = Arrays.binarySearch(timestamps, start, end, timestampNanos);
            if (i < 0 || deleted[i] || hashes[i] != lineHash) {
                return -1;
            }
            return i;
        }

        boolean remove(long timestampNanos, long lineHash) {
            // the oldest key of the run is nearly always the one removed (keys leave oldest first)
            int i = start < end && timestamps[start] == timestampNanos && hashes[start] == lineHash ? start
                    : find(timestampNanos, lineHash);
            if (i < 0) {
                return false;
            }
            deleted[i] = true;
            live--;
            while (start < end && deleted[start]) {
                start++;
            }
            if (start == end) {
                start = 0;
                end = 0;
                if (timestamps.length > MIN_RUN) {
                    timestamps = new long[MIN_RUN];
                    hashes = new long[MIN_RUN];
                    deleted = new boolean[MIN_RUN];
                }
            }
            return true;
        }

        boolean isEmpty() {
            return live == 0 && inTable == 0;
        }
    }

    EntryKeySet() {
        allocate(MIN_CAPACITY);
    }

    int size() {
        return tableSize + runsLive;
    }

    /** Whether the identity is present. */
    boolean contains(long stream, long timestampNanos, long lineHash) {
        Run run = run(stream);
        if (run == null || timestampNanos > run.maxTimestampNanos) {
            return false;
        }
        return find(stream, timestampNanos, lineHash) >= 0 || run.find(timestampNanos, lineHash) >= 0;
    }

    /** Adds the identity; false when it was already present. */
    boolean add(long stream, long timestampNanos, long lineHash) {
        Run run = run(stream);
        if (run == null) {
            run = new Run(stream);
            runs.put(stream, run);
            lastRun = run;
        }
        if (timestampNanos > run.maxTimestampNanos) {
            run.append(timestampNanos, lineHash);
            runsLive++;
            return true;
        }
        if (find(stream, timestampNanos, lineHash) >= 0 || run.find(timestampNanos, lineHash) >= 0) {
            return false;
        }
        if (tableSize + 1 > (mask + 1) / 2) {
            rehash((mask + 1) * 2);
        }
        insert(stream, timestampNanos, lineHash);
        tableSize++;
        run.inTable++;
        return true;
    }

    /** Removes the identity; false when it was absent. */
    boolean remove(long stream, long timestampNanos, long lineHash) {
        Run run = lastRemovedRun;
        if (run == null || run.stream != stream) {
            // removals follow arrivals stream by stream, so this lookup runs once per stream change; a second
            // shortcut through lastRun here had one outcome in the start-up warm-up and the other in real pushes,
            // and its uncommon trap threw the compiled push path away mid-push
            run = runs.get(stream);
            if (run == null) {
                return false;
            }
            lastRemovedRun = run;
        }
        boolean removed;
        if (run.inTable > 0 && removeFromTable(stream, timestampNanos, lineHash)) {
            run.inTable--;
            removed = true;
        } else {
            removed = run.remove(timestampNanos, lineHash);
            if (removed) {
                runsLive--;
            }
        }
        if (run.isEmpty()) {
            runs.remove(stream);
            if (lastRun == run) {
                lastRun = null;
            }
            lastRemovedRun = null;
        }
        return removed;
    }

    /** The run of {@code stream}, or null when the set holds no key of it. */
    private Run run(long stream) {
        Run run = lastRun;
        if (run != null && run.stream == stream) {
            return run;
        }
        run = runs.get(stream);
        if (run != null) {
            lastRun = run;
        }
        return run;
    }

    private boolean removeFromTable(long stream, long timestampNanos, long lineHash) {
        int i = find(stream, timestampNanos, lineHash);
        if (i < 0) {
            return false;
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
        return "EntryKeySet[" + tableSize + " of " + (mask + 1) + " slots, " + runsLive + " in the newest-timestamp runs of "
                + runs.size() + " streams]";
    }
}
