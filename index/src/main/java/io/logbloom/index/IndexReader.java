package io.logbloom.index;

import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.util.List;

/**
 * Read side of the label index: which series match a selector, and which of their chunks overlap a
 * time range. Times are nanoseconds, ranges [fromNanos, throughNanos). Implemented by the head
 * (in-memory) index, the persisted per-period index files, and a view spanning both.
 * An empty matcher list selects every series; a non-empty one must hold a matcher that does not
 * match "" (Loki's rule), else the lookup throws IllegalArgumentException, as it does for an invalid
 * tenant id or a range whose through is before its from. Implementations are thread-safe.
 */
public interface IndexReader {
    /** Series matching all {@code matchers} that have data in the range, with their chunk refs in it. */
    List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException;

    /** Label sets of series matching all {@code matchers} with data in the range, sorted. */
    List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException;

    /** Label names of matching series with data in the range, sorted, distinct. */
    List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException;

    /** Values of label {@code name} over matching series with data in the range, sorted, distinct. */
    List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException;
}
