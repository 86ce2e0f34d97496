package io.logbloom.querier;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.util.List;
import java.util.Objects;

/** Entries the ingester holds in memory that the index does not show yet, so a push is queryable at once. */
@FunctionalInterface
public interface UnflushedSource {
    /** Matching streams with their in-memory entries in [fromNanos, throughNanos), entries sorted by time. */
    List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos);

    /** One in-memory stream. */
    record Stream(Labels labels, List<LogEntry> entries) {
        public Stream {
            Objects.requireNonNull(labels, "labels is null");
            entries = List.copyOf(entries);
        }
    }

    /** A source without in-memory data (for read-only processes): reading it reaches no ingester. */
    UnflushedSource NONE = (tenant, matchers, from, through) -> List.of();

    /** A source without in-memory data (for read-only processes). */
    static UnflushedSource none() {
        return NONE;
    }
}
