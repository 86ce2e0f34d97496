package io.logbloom.querier;

import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.util.List;

/**
 * Some blocks of a chunk are damaged: carries the entries of its intact blocks (so a query still
 * answers them) and how many blocks were left out. Immutable.
 */
public final class DamagedChunkException extends IOException {
    private final transient List<LogEntry> intactEntries;
    private final int damagedBlocks;

    /** {@code damaged} blocks of {@code ref} were left out; {@code intactEntries} are the rest. */
    public DamagedChunkException(ChunkRef ref, List<LogEntry> intactEntries, List<ChunkFormatException> damaged) {
        super("chunk " + ref.objectKey() + " has " + damaged.size() + " damaged block(s), left out: "
                + damaged.get(0).getMessage(), damaged.get(0));
        this.intactEntries = List.copyOf(intactEntries);
        this.damagedBlocks = damaged.size();
    }

    /** The entries of the chunk's intact blocks in the requested range, oldest first. */
    public List<LogEntry> intactEntries() {
        return intactEntries;
    }

    /** How many blocks were damaged and left out. */
    public int damagedBlocks() {
        return damagedBlocks;
    }
}
