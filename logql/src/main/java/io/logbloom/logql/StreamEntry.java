package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** One log line of a stream as the source delivers it. Immutable; the metadata map is copied. */
public record StreamEntry(long timestampNanos, String line, Map<String, String> structuredMetadata) {

    /** Validates and copies. */
    public StreamEntry {
        requireNonNull(line, "line is null");
        structuredMetadata = Map.copyOf(requireNonNull(structuredMetadata, "structuredMetadata is null"));
    }

    /** An entry without structured metadata. */
    public StreamEntry(long timestampNanos, String line) {
        this(timestampNanos, line, Map.of());
    }
}
