package io.logbloom.querier;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.Iterator;
import java.util.Objects;

/** One series and a lazy iterator over its entries in the requested direction. Single consumer. */
public record SeriesEntries(Labels labels, Iterator<LogEntry> entries) {
    public SeriesEntries {
        Objects.requireNonNull(labels, "labels is null");
        Objects.requireNonNull(entries, "entries is null");
    }
}
