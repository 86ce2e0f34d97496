package io.logbloom.logql;

import java.util.List;

/** Result of a log query: streams, ordered by label set, each holding its entries in query direction. Immutable. */
public record LogQueryResult(List<ResultStream> streams) {

    /** Copies the list. */
    public LogQueryResult {
        streams = List.copyOf(streams);
    }

    /** Number of entries over all streams. */
    public int entryCount() {
        return streams.stream().mapToInt(s -> s.entries().size()).sum();
    }
}
