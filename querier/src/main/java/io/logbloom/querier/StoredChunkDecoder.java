package io.logbloom.querier;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The production {@link ChunkDecoder}: decodes the chunks module's format, decompressing only
 * the blocks that overlap the range. A damaged block is left out, as Loki's chunk reader skips a
 * block whose checksum does not match: the entries of the intact blocks come back inside a
 * {@link DamagedChunkException} so the caller can report the damage and still use them. A damaged
 * header leaves nothing readable ({@link ChunkFormatException}). Stateless and thread-safe.
 */
public final class StoredChunkDecoder implements ChunkDecoder {
    /** Creates the decoder. */
    public StoredChunkDecoder() {}

    @Override
    public List<LogEntry> decode(ChunkRef ref, byte[] encoded, long fromNanos, long throughNanos) throws IOException {
        Chunk chunk;
        try {
            chunk = Chunk.decode(encoded);
        } catch (ChunkFormatException e) {
            throw new ChunkFormatException("cannot decode chunk " + ref.objectKey() + ": " + e.getMessage(), e);
        }
        List<ChunkFormatException> damaged = new ArrayList<>();
        List<LogEntry> entries = chunk.intactEntries(fromNanos, throughNanos, damaged);
        if (!damaged.isEmpty()) {
            throw new DamagedChunkException(ref, entries, damaged);
        }
        return entries;
    }
}
