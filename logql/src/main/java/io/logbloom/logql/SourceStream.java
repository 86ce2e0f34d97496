package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.Collections;

/**
 * A stream returned by an {@link EntrySource}: its labels (sorted) and a lazy iterator over its entries in the
 * requested direction. The iterator is consumed once; not thread-safe.
 */
public record SourceStream(Map<String, String> labels, Iterator<StreamEntry> entries) {

    /** Copies the labels into a sorted immutable map. */
    public SourceStream {
        labels = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(labels, "labels is null")));
        requireNonNull(entries, "entries is null");
    }
}
