package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stream of a log query result: the final label set (stream labels + structured metadata + parsed labels after
 * the pipeline), the stream labels alone (the stream-origin labels left after the pipeline, for Loki's
 * categorize-labels encoding) and the entries in query direction. Immutable.
 */
public record ResultStream(Map<String, String> labels, Map<String, String> streamLabels, List<ResultEntry> entries) {

    /** Copies into sorted immutable maps and an immutable list. */
    public ResultStream {
        labels = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(labels, "labels is null")));
        streamLabels = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(streamLabels, "streamLabels is null")));
        entries = List.copyOf(entries);
    }
}
