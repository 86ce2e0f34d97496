package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.util.List;

/** Decodes the entries of one encoded chunk that fall in [fromNanos, throughNanos), oldest first. */
@FunctionalInterface
public interface ChunkDecoder {
    /** The chunk's entries in range, sorted by timestamp ascending; only overlapping blocks are decoded. */
    List<LogEntry> decode(ChunkRef ref, byte[] encoded, long fromNanos, long throughNanos) throws IOException;
}
