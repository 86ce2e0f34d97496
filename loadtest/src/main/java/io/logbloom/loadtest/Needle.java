package io.logbloom.loadtest;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A pushed line the query phase looks up by its unique {@code trace_id}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param labels the stream labels of the line
 * @param traceId the line's unique trace id (structured metadata)
 * @param line the exact line text the query must return
 * @param timestampNanos the line's timestamp in Unix epoch nanoseconds
 */
public record Needle(Map<String, String> labels, String traceId, String line, long timestampNanos) {
    /** Validates and copies. */
    public Needle {
        labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(labels, "labels is null")));
        Objects.requireNonNull(traceId, "traceId is null");
        Objects.requireNonNull(line, "line is null");
    }

    /** Returns the LogQL query that must find exactly this line. */
    public String query() {
        return LogStream.selector(labels) + " | trace_id=\"" + LogStream.escape(traceId) + "\"";
    }
}
