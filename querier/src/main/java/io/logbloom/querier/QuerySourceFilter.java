package io.logbloom.querier;

import io.logbloom.logql.EntrySource;
import java.io.IOException;

/**
 * Wraps the entry source a query runner hands the LogQL engine for one tenant's query, e.g. to hide
 * lines that delete requests or retention remove. Implementations must be thread-safe; the wrapped
 * source belongs to one query.
 */
@FunctionalInterface
public interface QuerySourceFilter {
    /** {@code source} as {@code tenant}'s query should see it. */
    EntrySource wrap(String tenant, EntrySource source) throws IOException;

    /** The filter that hides nothing. */
    static QuerySourceFilter none() {
        return (tenant, source) -> source;
    }
}
