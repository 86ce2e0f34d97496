package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.Grouping;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * A chain of {@code by (...)}/{@code without (...)} groupings applied one after the other, compiled into one
 * step. Applying {@code by (l...)} keeps the listed labels the series has (even with an empty value, as Loki), {@code without (l...)}
 * drops the listed labels (PromQL). Once a {@code by} occurs the surviving names are a fixed list known before
 * any sample is seen, so a key is built by a few lookups instead of copying and filtering the whole label set.
 * Immutable and thread-safe.
 */
final class LabelGrouping {

    /** Names kept when the chain holds a {@code by}: sorted, fixed; null when there is no {@code by}. */
    private final String[] kept;
    /** Names dropped when there is no {@code by}. */
    private final Set<String> dropped;

    private LabelGrouping(String[] kept, Set<String> dropped) {
        this.kept = kept;
        this.dropped = dropped;
    }

    /** Compiles the groupings applied in list order; a null grouping means {@code by ()} (everything collapses). */
    static LabelGrouping of(List<Grouping> chain) {
        Set<String> dropped = new HashSet<>();
        TreeSet<String> kept = null;
        for (Grouping g : chain) {
            if (g == null) {
                g = new Grouping(false, List.of());
            }
            if (kept == null) {
                if (g.without()) {
                    dropped.addAll(g.labels());
                } else {
                    kept = new TreeSet<>(g.labels());
                    kept.removeAll(dropped);
                }
            } else if (g.without()) {
                g.labels().forEach(kept::remove);
            } else {
                kept.retainAll(new HashSet<>(g.labels()));
            }
        }
        return new LabelGrouping(kept == null ? null : kept.toArray(new String[0]), Set.copyOf(dropped));
    }

    /** True when the chain holds a {@code by}: only the listed labels survive. */
    boolean keepsOnly() {
        return kept != null;
    }

    /** The names a {@code by} keeps, or null when the chain holds no {@code by}. */
    Set<String> keptNames() {
        return kept == null ? null : Set.of(kept);
    }

    /** The group key of a line's labels, reading only the kept labels when the names are fixed. */
    LabelSet key(LineLabels labels) {
        return kept != null ? kept(labels::get) : key(labels.view());
    }

    /** The group key of a label set. */
    LabelSet key(Map<String, String> labels) {
        return kept != null ? kept(labels::get) : unkept(labels);
    }

    private LabelSet kept(UnaryOperator<String> labels) {
        String[] n = new String[kept.length];
        String[] v = new String[kept.length];
        int size = 0;
        for (String name : kept) {
            String value = labels.apply(name);
            if (value != null) { // a label parsed as "" is kept, as Loki's labels.Builder.Keep does
                n[size] = name;
                v[size] = value;
                size++;
            }
        }
        return size == n.length ? LabelSet.ofSorted(n, v) : LabelSet.ofSorted(Arrays.copyOf(n, size), Arrays.copyOf(v, size));
    }

    private LabelSet unkept(Map<String, String> labels) {
        if (dropped.isEmpty()) {
            return LabelSet.of(labels);
        }
        List<String> names = new ArrayList<>(labels.size());
        for (String name : labels.keySet()) {
            if (!dropped.contains(name)) {
                names.add(name);
            }
        }
        String[] n = names.toArray(new String[0]);
        Arrays.sort(n);
        String[] v = new String[n.length];
        for (int i = 0; i < n.length; i++) {
            v[i] = labels.get(n[i]);
        }
        return LabelSet.ofSorted(n, v);
    }
}
