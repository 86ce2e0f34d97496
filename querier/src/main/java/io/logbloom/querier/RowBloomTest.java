package io.logbloom.querier;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.Labels;

/**
 * A {@link BloomQuery} evaluated exactly against one row of a decoded columnar block instead of a
 * bloom: every leaf of a bloom query is a condition that must hold for any entry the query returns or
 * counts, so a row failing it can be dropped as soon as its block is decoded, before an entry is
 * built or the LogQL pipeline sees it. A needle that reaches a block through a bloom false positive
 * then costs the block's metadata columns only (the line column is decoded for a line test or a kept
 * row). Results are those of the pipeline alone (it would drop the same rows). Stateless.
 */
final class RowBloomTest {
    private RowBloomTest() {}

    /** Whether row {@code row} of {@code block}, a block of {@code series}, may be returned by the query. */
    static boolean mayMatch(BloomQuery query, Labels series, ColumnarBlock block, int row) {
        return query.mayHold(leaf -> {
            if (leaf instanceof BloomQuery.MetadataEquals eq) {
                return series.get(eq.key()) != null || eq.value().equals(block.metadata(eq.key()).value(row));
            }
            if (leaf instanceof BloomQuery.MetadataExists exists) {
                return series.get(exists.key()) != null || block.metadata(exists.key()).isPresent(row);
            }
            if (leaf instanceof BloomQuery.LineContains contains) {
                return block.lines().line(row).contains(contains.literal());
            }
            throw new IllegalStateException("BUG: unknown bloom query node " + leaf);
        });
    }
}
