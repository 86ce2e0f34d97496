package io.logbloom.logql;

import java.io.IOException;
import java.util.List;

/**
 * Storage-agnostic input of the engine; the querier implements it over chunks and unflushed data.
 * Implementations must be safe to call from the thread running the query.
 */
public interface EntrySource {

    /**
     * Streams matching the selector that have entries in [fromNanos, throughNanos), each stream's entries
     * sorted by timestamp in {@code direction}. Iterators should be lazy so a limit can stop early.
     */
    List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction)
            throws IOException;

    /**
     * Per stream, the samples of a line-counting range aggregation answered from the source's columns (see
     * {@link LineCountQuery}), or empty when this source cannot answer it exactly; the engine then reads the
     * entries through {@link #select}. Empty by default.
     */
    default java.util.Optional<List<StreamSamples>> countLines(LineCountQuery query) throws IOException {
        return java.util.Optional.empty();
    }

    /** Told once per log expression whose pipeline looked up a structured metadata label; counts nothing by default. */
    default void structuredMetadataReferenced() {
    }
}
