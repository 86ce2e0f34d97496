package io.logbloom.ingest;

import io.logbloom.chunks.LogEntry;
import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;

/**
 * Identity of an entry for duplicate detection: timestamp and XXH3 of the line's UTF-8 bytes. Hashing
 * keeps the line strings out of the key sets, so cut (compressed) blocks do not stay in memory as
 * text; two distinct lines of one stream with the same timestamp collide with probability 2^-64.
 * The hash is of the bytes, not the chars, because the push path holds the line's UTF-8 bytes
 * already (it writes them to the WAL and the buffers), where XXH3 reads 8 bytes a step instead of
 * widening each char. Line hashes live in memory only (the WAL's flush markers of the row-chunk
 * engine are ignored on replay), so their definition may change between versions. Immutable.
 */
record EntryKey(long timestampNanos, long lineHash) {
    /** The hash function of {@link #lineHash(byte[], int, int)}, also used for the ingester's id. */
    static final LongHashFunction LINE_HASH = LongHashFunction.xx3();

    static EntryKey of(LogEntry entry) {
        return new EntryKey(entry.timestampNanos(), lineHash(entry.line()));
    }

    /** The identity hash of a line given as its UTF-8 bytes {@code utf8[offset, offset + length)}. */
    static long lineHash(byte[] utf8, int offset, int length) {
        return LINE_HASH.hashBytes(utf8, offset, length);
    }

    /** The identity hash of {@code line}: {@link #lineHash(byte[], int, int)} of its UTF-8 bytes. */
    static long lineHash(String line) {
        byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        return lineHash(utf8, 0, utf8.length);
    }
}
