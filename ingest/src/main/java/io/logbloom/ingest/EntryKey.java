package io.logbloom.ingest;

import io.logbloom.chunks.LogEntry;
import net.openhft.hashing.LongHashFunction;

/**
 * Identity of an entry for duplicate detection: timestamp and XXH3 of the line. Hashing keeps the
 * line strings out of the key sets, so cut (compressed) blocks do not stay in memory as text; two
 * distinct lines of one stream with the same timestamp collide with probability 2^-64. Immutable.
 */
record EntryKey(long timestampNanos, long lineHash) {
    /** The line hash every dedupe set, WAL marker and replay uses; changing it breaks replay of old WALs. */
    static final LongHashFunction LINE_HASH = LongHashFunction.xx3();

    static EntryKey of(LogEntry entry) {
        return new EntryKey(entry.timestampNanos(), LINE_HASH.hashChars(entry.line()));
    }
}
