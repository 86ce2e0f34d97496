package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * One line of a log query result with the labels split by origin (Loki's categorize-labels encoding):
 * structured metadata and labels added by parsers. Immutable.
 */
public record ResultEntry(long timestampNanos, String line, Map<String, String> structuredMetadata,
        Map<String, String> parsedLabels) {

    /** Validates and copies. */
    public ResultEntry {
        requireNonNull(line, "line is null");
        structuredMetadata = Map.copyOf(structuredMetadata);
        parsedLabels = Map.copyOf(parsedLabels);
    }
}
