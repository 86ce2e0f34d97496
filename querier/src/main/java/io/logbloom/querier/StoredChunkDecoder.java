package io.logbloom.querier;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.LogEntry;
import java.util.List;

/**
 * The production {@link ChunkDecoder}: decodes the chunks module's format, decompressing only
 * the blocks that overlap the range. Stateless and thread-safe.
 */
public final class StoredChunkDecoder implements ChunkDecoder {
    /** Creates the decoder. */
    public StoredChunkDecoder() {}

    @Override
    public List<LogEntry> decode(ChunkRef ref, byte[] encoded, long fromNanos, long throughNanos)
            throws ChunkFormatException {
        try {
            return Chunk.decode(encoded).entries(fromNanos, throughNanos, Direction.FORWARD);
        } catch (ChunkFormatException e) {
            throw new ChunkFormatException("cannot decode chunk " + ref.objectKey() + ": " + e.getMessage(), e);
        }
    }
}
