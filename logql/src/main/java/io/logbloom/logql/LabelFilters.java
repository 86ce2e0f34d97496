package io.logbloom.logql;

/** Facts about a {@link LabelFilter} tree. Stateless. */
final class LabelFilters {
    private LabelFilters() {
    }

    /** The label a leaf filter reads. */
    static String name(LabelFilter f) {
        if (f instanceof LabelFilter.StringFilter s) {
            return s.matcher().name();
        }
        if (f instanceof LabelFilter.NumberFilter n) {
            return n.name();
        }
        if (f instanceof LabelFilter.DurationFilter d) {
            return d.name();
        }
        if (f instanceof LabelFilter.BytesFilter b) {
            return b.name();
        }
        if (f instanceof LabelFilter.IpFilter ip) {
            return ip.name();
        }
        throw new IllegalArgumentException("BUG: not a leaf filter: " + f);
    }

    /** Adds every label the tree reads to {@code names}. */
    static void names(LabelFilter f, java.util.Set<String> names) {
        if (f instanceof LabelFilter.And a) {
            names(a.left(), names);
            names(a.right(), names);
        } else if (f instanceof LabelFilter.Or o) {
            names(o.left(), names);
            names(o.right(), names);
        } else {
            names.add(name(f));
        }
    }
}
