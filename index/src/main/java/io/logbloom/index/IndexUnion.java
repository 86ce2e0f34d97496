package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Unions the answers of several {@link IndexReader}s: series merged by label set, chunk refs
 * deduplicated (a ref present in the head and in a file, or in two period files, appears once) and
 * sorted by time, refs to objects an index file among the parts lists as superseded dropped (a compactor's
 * new file and the old file it replaces, both listed at once, count the replaced rows once); names and
 * values sorted and distinct. Stateless; thread-safe when the parts are.
 */
final class IndexUnion {
    private IndexUnion() {}

    static List<SeriesChunks> chunks(List<? extends IndexReader> parts, String tenant, List<LabelMatcher> matchers,
            long fromNanos, long throughNanos) throws IOException {
        if (parts.size() == 1) {
            // a file never refers to an object it supersedes (its reader checks), so one part needs no filtering
            return parts.get(0).chunks(tenant, matchers, fromNanos, throughNanos);
        }
        Set<String> superseded = superseded(parts);
        // grouped by hash (a series' hash is its fingerprint), in order of first appearance; each part answers in label
        // order and the parts mostly hold the same series, so the one sort below finds the keys nearly sorted: about
        // one comparison of label lists per series instead of a tree's log n per series and part
        Map<Labels, List<ChunkRef>> merged = new HashMap<>();
        List<Labels> order = new ArrayList<>();
        for (IndexReader part : parts) {
            for (SeriesChunks s : part.chunks(tenant, matchers, fromNanos, throughNanos)) {
                List<ChunkRef> refs = null;
                for (ChunkRef ref : s.chunks()) {
                    if (superseded.isEmpty() || !superseded.contains(ref.objectKey())) {
                        if (refs == null) {
                            refs = merged.get(s.labels());
                            if (refs == null) {
                                refs = new ArrayList<>();
                                merged.put(s.labels(), refs);
                                order.add(s.labels());
                            }
                        }
                        refs.add(ref);
                    }
                }
            }
        }
        order.sort(null);
        List<SeriesChunks> out = new ArrayList<>(order.size());
        for (Labels labels : order) {
            out.add(new SeriesChunks(labels, sortedDistinct(merged.get(labels))));
        }
        return List.copyOf(out);
    }

    /**
     * {@code refs} sorted by {@link SeriesPostings#REF_ORDER} with the later of two equal refs dropped (the first
     * kept, as a sorted set keeps the first it was given); a sort and no set, since a series has few refs.
     */
    static List<ChunkRef> sortedDistinct(List<ChunkRef> refs) {
        if (refs.size() < 2) {
            return refs;
        }
        refs.sort(SeriesPostings.REF_ORDER); // stable: equal refs keep their order
        List<ChunkRef> out = new ArrayList<>(refs.size());
        ChunkRef previous = null;
        for (ChunkRef ref : refs) {
            if (previous == null || SeriesPostings.REF_ORDER.compare(previous, ref) != 0) {
                out.add(ref);
                previous = ref;
            }
        }
        return out;
    }

    /** The object keys the index files among {@code parts} supersede. */
    static Set<String> superseded(List<? extends IndexReader> parts) {
        Set<String> keys = null;
        for (IndexReader part : parts) {
            if (part instanceof IndexFileReader file && !file.supersededObjectKeys().isEmpty()) {
                if (keys == null) {
                    keys = new HashSet<>();
                }
                keys.addAll(file.supersededObjectKeys());
            }
        }
        return keys == null ? Set.of() : keys;
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
