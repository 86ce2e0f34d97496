package io.logbloom.querier;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;

/**
 * A {@link BloomQuery} evaluated exactly against one entry instead of a bloom: every leaf of a bloom
 * query is a condition that must hold for any entry the query returns or counts, so an entry failing
 * it can be dropped as soon as its block is decoded, before the LogQL pipeline sees it. A needle that
 * reaches a block through a bloom false positive then costs the block's decoding only. Results are
 * those of the pipeline alone (it would drop the same entries). Stateless.
 */
final class RowBloomTest {
    private RowBloomTest() {}

    /**
     * Whether row {@code row} of a decoded columnar block of {@code series} may be returned, read from
     * the block's columns without building the entry (a line becomes a string only for a line test).
     */
    static boolean mayMatch(BloomQuery query, Labels series, ColumnarBlock block, int row) {
        if (query instanceof BloomQuery.MatchAll) {
            return true;
        }
        if (query instanceof BloomQuery.MetadataEquals eq) {
            return series.get(eq.key()) != null || eq.value().equals(block.metadata(eq.key()).value(row));
        }
        if (query instanceof BloomQuery.MetadataExists exists) {
            return series.get(exists.key()) != null || block.metadata(exists.key()).isPresent(row);
        }
        if (query instanceof BloomQuery.LineContains contains) {
            return block.lines().line(row).contains(contains.literal());
        }
        if (query instanceof BloomQuery.And and) {
            for (BloomQuery part : and.parts()) {
                if (!mayMatch(part, series, block, row)) {
                    return false;
                }
            }
            return true;
        }
        if (query instanceof BloomQuery.Or or) {
            if (or.parts().isEmpty()) {
                return true;
            }
            for (BloomQuery part : or.parts()) {
                if (mayMatch(part, series, block, row)) {
                    return true;
                }
            }
            return false;
        }
        throw new IllegalStateException("BUG: unknown bloom query node " + query);
    }

    /** Whether {@code entry} of {@code series} may be returned by a query with bloom query {@code query}. */
    static boolean mayMatch(BloomQuery query, Labels series, LogEntry entry) {
        if (query instanceof BloomQuery.MatchAll) {
            return true;
        }
        if (query instanceof BloomQuery.MetadataEquals eq) {
            if (series.get(eq.key()) != null) {
                return true;
            }
            for (Label l : entry.metadata()) {
                if (l.name().equals(eq.key()) && l.value().equals(eq.value())) {
                    return true;
                }
            }
            return false;
        }
        if (query instanceof BloomQuery.MetadataExists exists) {
            if (series.get(exists.key()) != null) {
                return true;
            }
            for (Label l : entry.metadata()) {
                if (l.name().equals(exists.key())) {
                    return true;
                }
            }
            return false;
        }
        if (query instanceof BloomQuery.LineContains contains) {
            return entry.line().contains(contains.literal());
        }
        if (query instanceof BloomQuery.And and) {
            for (BloomQuery part : and.parts()) {
                if (!mayMatch(part, series, entry)) {
                    return false;
                }
            }
            return true;
        }
        if (query instanceof BloomQuery.Or or) {
            if (or.parts().isEmpty()) {
                return true;
            }
            for (BloomQuery part : or.parts()) {
                if (mayMatch(part, series, entry)) {
                    return true;
                }
            }
            return false;
        }
        throw new IllegalStateException("BUG: unknown bloom query node " + query);
    }
}
