package io.logbloom.loadtest;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One generated log line with its timestamp and structured metadata (Loki's {@code EntryAdapter}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param timestampNanos Unix epoch nanoseconds
 * @param line the log line
 * @param structuredMetadata name/value pairs pushed beside the line (for example {@code trace_id}), sorted by name
 */
public record LogEntry(long timestampNanos, String line, Map<String, String> structuredMetadata) {
    /** Validates and copies the metadata into a sorted immutable map. */
    public LogEntry {
        Objects.requireNonNull(line, "line is null");
        Objects.requireNonNull(structuredMetadata, "structuredMetadata is null");
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("timestampNanos must be >= 0, got " + timestampNanos);
        }
        structuredMetadata = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(structuredMetadata));
    }

    /** Returns the line's {@code trace_id} metadata value. */
    public String traceId() {
        String traceId = structuredMetadata.get(LogGenerator.TRACE_ID);
        if (traceId == null) {
            throw new IllegalStateException("BUG: generated entry without trace_id: " + line);
        }
        return traceId;
    }
}
