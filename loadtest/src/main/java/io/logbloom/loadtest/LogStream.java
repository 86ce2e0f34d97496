package io.logbloom.loadtest;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A label set and its entries in increasing timestamp order (Loki's {@code StreamAdapter}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param labels stream labels, sorted by name
 * @param entries entries, oldest first
 */
public record LogStream(Map<String, String> labels, List<LogEntry> entries) {
    /** Validates, sorts the labels and copies the entries. */
    public LogStream {
        Objects.requireNonNull(labels, "labels is null");
        if (labels.isEmpty()) {
            throw new IllegalArgumentException("a stream needs at least one label");
        }
        labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(labels));
        entries = List.copyOf(entries);
    }

    /** Renders the labels as a LogQL/Prometheus selector, for example {@code {job="a", run="r1"}}. */
    public String selector() {
        return selector(labels);
    }

    /** Renders a label map as a LogQL/Prometheus selector with escaped values. */
    public static String selector(Map<String, String> labels) {
        return new TreeMap<>(labels).entrySet().stream()
                .map(e -> e.getKey() + "=\"" + escape(e.getValue()) + "\"")
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** Escapes a label value for a double-quoted LogQL string. */
    public static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
