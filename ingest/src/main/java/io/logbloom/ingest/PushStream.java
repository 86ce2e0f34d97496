package io.logbloom.ingest;

import io.logbloom.chunks.LogEntry;
import java.util.List;
import java.util.Objects;

/**
 * One stream of a decoded push request: the labels exactly as the client sent them (selector
 * syntax, parsed and validated later so errors can quote them) and its entries. Immutable.
 */
public record PushStream(String labels, List<LogEntry> entries) {
    public PushStream {
        Objects.requireNonNull(labels, "labels is null");
        entries = List.copyOf(entries);
    }
}
