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

    /**
     * Whether {@link #wrap} may hide entries of {@code tenant} in [fromNanos, throughNanos): label,
     * series and index-stats answers read the entries themselves only when it may. A filter that
     * cannot tell answers true (the default).
     */
    default boolean mayHide(String tenant, long fromNanos, long throughNanos) throws IOException {
        return true;
    }

    /** The filter that hides nothing. */
    static QuerySourceFilter none() {
        return new QuerySourceFilter() {
            @Override
            public EntrySource wrap(String tenant, EntrySource source) {
                return source;
            }

            @Override
            public boolean mayHide(String tenant, long fromNanos, long throughNanos) {
                return false;
            }
        };
    }
}
