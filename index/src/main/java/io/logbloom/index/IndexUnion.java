package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Unions the answers of several {@link IndexReader}s: series merged by label set, chunk refs
 * deduplicated (a ref present in the head and in a file, or in two period files, appears once) and
 * sorted by time; names and values sorted and distinct. Stateless; thread-safe when the parts are.
 */
final class IndexUnion {
    private IndexUnion() {}

    static List<SeriesChunks> chunks(List<? extends IndexReader> parts, String tenant, List<LabelMatcher> matchers,
            long fromNanos, long throughNanos) throws IOException {
        if (parts.size() == 1) {
            return parts.get(0).chunks(tenant, matchers, fromNanos, throughNanos);
        }
        TreeMap<Labels, TreeSet<ChunkRef>> merged = new TreeMap<>();
        for (IndexReader part : parts) {
            for (SeriesChunks s : part.chunks(tenant, matchers, fromNanos, throughNanos)) {
                merged.computeIfAbsent(s.labels(), l -> new TreeSet<>(SeriesPostings.REF_ORDER)).addAll(s.chunks());
            }
        }
        List<SeriesChunks> out = new ArrayList<>(merged.size());
        for (Map.Entry<Labels, TreeSet<ChunkRef>> e : merged.entrySet()) {
            out.add(new SeriesChunks(e.getKey(), new ArrayList<>(e.getValue())));
        }
        return List.copyOf(out);
    }

    static List<Labels> series(List<? extends IndexReader> parts, String tenant, List<LabelMatcher> matchers,
            long fromNanos, long throughNanos) throws IOException {
        TreeSet<Labels> out = new TreeSet<>();
        for (IndexReader part : parts) {
            out.addAll(part.series(tenant, matchers, fromNanos, throughNanos));
        }
        return List.copyOf(out);
    }

    static List<String> labelNames(List<? extends IndexReader> parts, String tenant, List<LabelMatcher> matchers,
            long fromNanos, long throughNanos) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (IndexReader part : parts) {
            out.addAll(part.labelNames(tenant, matchers, fromNanos, throughNanos));
        }
        return List.copyOf(out);
    }

    static List<String> labelValues(List<? extends IndexReader> parts, String tenant, String name,
            List<LabelMatcher> matchers, long fromNanos, long throughNanos) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (IndexReader part : parts) {
            out.addAll(part.labelValues(tenant, name, matchers, fromNanos, throughNanos));
        }
        return List.copyOf(out);
    }
}
