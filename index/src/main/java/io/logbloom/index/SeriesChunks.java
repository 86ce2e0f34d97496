package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.List;
import java.util.Objects;

/** A series and the refs of its chunks overlapping a queried range, sorted by time. Immutable. */
public record SeriesChunks(Labels labels, List<ChunkRef> chunks) {
    public SeriesChunks {
        Objects.requireNonNull(labels, "labels is null");
        chunks = List.copyOf(chunks);
    }
}
