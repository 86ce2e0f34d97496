package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What the engine asks a source that can count lines from its columns (see
 * {@link EntrySource#countLines(LineCountQuery)}): per stream, the rows of {@code selector} with
 * {@code fromNanos < ts < throughNanos} that pass {@code filter}, each weighing 1 or, when {@code lineBytes},
 * its line's UTF-8 length. Rows whose timestamps fall into the same region between consecutive
 * {@code boundaries} lie in exactly the same evaluation windows, so the source may return them summed into one
 * sample (at any timestamp of the region): a block wholly inside one region is answered from its row count.
 *
 * @param selector the stream selector
 * @param filter the line filters on bytes
 * @param lineBytes whether a row weighs its line's byte length (else 1)
 * @param fromNanos exclusive lower time bound
 * @param throughNanos exclusive upper time bound
 * @param boundaries sorted window bounds: windows are (b, b'] for bounds b, b' of this array
 * @param groupedLabels the label names the result is grouped by, or null when every label counts (then a row
 *     with structured metadata makes its own series and the source must decline)
 * @param pipeline what runs on a row after {@code filter} (parsers, label filters, unwrap), or null when
 *     {@code filter} is the whole pipeline; when it is {@link ColumnarPipeline#perRow()}, every row passing is
 *     its own sample (never summed) and the weight is the pipeline's value
 * @param maxSamples how much the source may hold while it counts, in samples of the engine's budget (a series
 *     produced holds its samples and the labels of a group, see {@link #GROUP_SAMPLES}); over it the source declines,
 *     and the engine reads entries within the query's budget (a count grouped by a label with a value per row holds
 *     a series per row and block before the groups of blocks are merged)
 */
public record LineCountQuery(List<Matcher> selector, LineFilterBytes filter, boolean lineBytes, long fromNanos,
        long throughNanos, long[] boundaries, Set<String> groupedLabels, ColumnarPipeline pipeline, long maxSamples) {
    /** What a group of parsed labels holds beside its samples (its label map and sums), in samples. */
    public static final int GROUP_SAMPLES = 12;

    /** Copies and validates. */
    public LineCountQuery {
        selector = List.copyOf(selector);
        requireNonNull(filter, "filter is null");
        boundaries = boundaries.clone();
        for (int i = 1; i < boundaries.length; i++) {
            if (boundaries[i - 1] > boundaries[i]) {
                throw new IllegalArgumentException("boundaries must be sorted");
            }
        }
        groupedLabels = groupedLabels == null ? null : Set.copyOf(groupedLabels);
    }

    /** The region of {@code ts}: how many boundaries lie strictly below it. Equal regions, equal windows. */
    public int region(long ts) {
        int i = Arrays.binarySearch(boundaries, ts);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && boundaries[i - 1] == ts) {
            i--;
        }
        return i;
    }

    /**
     * Whether structured metadata named {@code key} would change the result's series (so rows must not be summed)
     * or what the pipeline reads.
     */
    public boolean labelMatters(String key) {
        return groupedLabels == null || groupedLabels.contains(key) || pipeline != null && pipeline.reads(key);
    }
}
