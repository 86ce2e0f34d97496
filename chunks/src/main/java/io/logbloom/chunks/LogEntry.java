package io.logbloom.chunks;

import java.util.List;
import java.util.Objects;

/**
 * One log line of a stream: timestamp in nanoseconds since the epoch, the line, and its structured
 * metadata (ordered name/value pairs, as Loki's push API delivers them). Immutable.
 */
public record LogEntry(long timestampNanos, String line, List<Label> metadata) {
    public LogEntry {
        Objects.requireNonNull(line, "line is null");
        metadata = List.copyOf(metadata);
    }

    /** An entry without structured metadata. */
    public static LogEntry of(long timestampNanos, String line) {
        return new LogEntry(timestampNanos, line, List.of());
    }

    /** The value of the structured-metadata field {@code name}, or null when absent. */
    public String metadataValue(String name) {
        for (Label label : metadata) {
            if (label.name().equals(name)) {
                return label.value();
            }
        }
        return null;
    }
}
