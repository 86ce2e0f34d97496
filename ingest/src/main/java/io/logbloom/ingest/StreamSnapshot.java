package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.List;
import java.util.Objects;

/** A stream's in-memory entries in a queried range, sorted by time. Immutable. */
public record StreamSnapshot(Labels labels, List<LogEntry> entries) {
    public StreamSnapshot {
        Objects.requireNonNull(labels, "labels is null");
        entries = List.copyOf(entries);
    }
}
