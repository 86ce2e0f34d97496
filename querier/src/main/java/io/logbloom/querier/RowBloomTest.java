package io.logbloom.querier;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.Labels;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A {@link BloomQuery} evaluated exactly against the rows of one decoded columnar block instead of a
 * bloom: every leaf of a bloom query is a condition that must hold for any entry the query returns or
 * counts, so a row failing it can be dropped as soon as its block is decoded, before an entry is
 * built or the LogQL pipeline sees it. Each leaf is judged for all rows at once on the column's stored
 * form (a dictionary id or the value's bytes, see {@code ColumnarValues.rowsEqualTo}; a line literal by the
 * block's byte search), so a needle that reaches a block through a bloom false positive costs one metadata
 * column and no string per row; the line column is decoded only for a line test or a kept row. A line literal is
 * searched as its UTF-8 bytes, which every line containing the literal contains, so no row the pipeline could
 * keep is dropped. Results are those of the pipeline alone (it would drop the same rows). Stateless.
 */
final class RowBloomTest {
    private RowBloomTest() {}

    /** Per row of {@code block}, a block of {@code series}, whether the query may return it. */
    static boolean[] rows(BloomQuery query, Labels series, ColumnarBlock block) {
        if (query instanceof BloomQuery.MatchAll) {
            return all(block, true);
        }
        if (query instanceof BloomQuery.And and) {
            boolean[] out = all(block, true);
            for (BloomQuery part : and.parts()) {
                boolean[] rows = rows(part, series, block);
                boolean any = false;
                for (int row = 0; row < out.length; row++) {
                    out[row] &= rows[row];
                    any |= out[row];
                }
                if (!any) {
                    break;
                }
            }
            return out;
        }
        if (query instanceof BloomQuery.Or or) {
            if (or.parts().isEmpty()) {
                return all(block, true);
            }
            boolean[] out = all(block, false);
            for (BloomQuery part : or.parts()) {
                boolean[] rows = rows(part, series, block);
                for (int row = 0; row < out.length; row++) {
                    out[row] |= rows[row];
                }
            }
            return out;
        }
        if (query instanceof BloomQuery.MetadataEquals eq) {
            return series.get(eq.key()) != null ? all(block, true) : block.metadata(eq.key()).rowsEqualTo(eq.value());
        }
        if (query instanceof BloomQuery.MetadataExists exists) {
            return series.get(exists.key()) != null ? all(block, true) : block.metadata(exists.key()).rowsPresent();
        }
        if (query instanceof BloomQuery.LineContains contains) {
            return contains.literal().isEmpty()
                    ? all(block, true)
                    : block.rowsContaining(contains.literal().getBytes(StandardCharsets.UTF_8));
        }
        throw new IllegalStateException("BUG: unknown bloom query node " + query);
    }

    private static boolean[] all(ColumnarBlock block, boolean value) {
        boolean[] out = new boolean[block.rows()];
        if (value) {
            Arrays.fill(out, true);
        }
        return out;
    }
}
