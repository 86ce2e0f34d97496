package io.logbloom.index;

import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * One view over several indexes, typically the {@link HeadIndex} and the {@link PersistedIndex}, so
 * a query spans unflushed-to-file and persisted periods seamlessly; a chunk ref present in more than
 * one part is returned once. Thread-safe when its parts are (all of ours are).
 */
public final class CombinedIndex implements IndexReader {
    private final List<IndexReader> parts;

    /** Combines {@code parts}, queried in order. */
    public CombinedIndex(List<? extends IndexReader> parts) {
        Objects.requireNonNull(parts, "parts is null");
        this.parts = List.copyOf(parts);
    }

    /** Combines the head and the persisted index. */
    public CombinedIndex(HeadIndex head, PersistedIndex persisted) {
        this(List.of(Objects.requireNonNull(head, "head is null"), Objects.requireNonNull(persisted, "persisted is null")));
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.chunks(parts, tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.series(parts, tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.labelNames(parts, tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        Objects.requireNonNull(name, "name is null");
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.labelValues(parts, tenant, name, matchers, fromNanos, throughNanos);
    }
}
