package io.logbloom.logql;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable label set sorted by name, with its hash computed once: the key type of the engine's per-series
 * and per-group hash maps. The engine used to key its maps by {@code unmodifiableMap(TreeMap)}, whose
 * {@code hashCode} walks every entry on each lookup; with structured metadata in every sample's label set that
 * walk dominated metric queries. It is a {@link Map} (hash and equality follow the {@code Map} contract), so it
 * mixes freely with other maps. Immutable and thread-safe.
 */
final class LabelSet extends AbstractMap<String, String> {

    static final LabelSet EMPTY = new LabelSet(new String[0], new String[0]);

    private final String[] names;
    private final String[] values;
    private final int hash;
    private Set<Map.Entry<String, String>> entries;

    private LabelSet(String[] names, String[] values) {
        this.names = names;
        this.values = values;
        int h = 0;
        for (int i = 0; i < names.length; i++) {
            h += names[i].hashCode() ^ values[i].hashCode();
        }
        this.hash = h;
    }

    /** A label set holding a copy of {@code labels}; a label set is returned as is. */
    static LabelSet of(Map<String, String> labels) {
        if (labels instanceof LabelSet s) {
            return s;
        }
        if (labels.isEmpty()) {
            return EMPTY;
        }
        String[] n = labels.keySet().toArray(new String[0]);
        if (!(labels instanceof java.util.SortedMap<?, ?> sorted && sorted.comparator() == null)) {
            Arrays.sort(n);
        }
        String[] v = new String[n.length];
        for (int i = 0; i < n.length; i++) {
            v[i] = java.util.Objects.requireNonNull(labels.get(n[i]), "label value is null");
        }
        return new LabelSet(n, v);
    }

    /** A label set from parallel arrays already sorted by name without duplicates; takes ownership of them. */
    static LabelSet ofSorted(String[] names, String[] values) {
        return names.length == 0 ? EMPTY : new LabelSet(names, values);
    }

    @Override
    public String get(Object name) {
        if (!(name instanceof String s)) {
            return null;
        }
        int i = Arrays.binarySearch(names, s);
        return i >= 0 ? values[i] : null;
    }

    @Override
    public boolean containsKey(Object name) {
        return get(name) != null;
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean isEmpty() {
        return names.length == 0;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof LabelSet other) {
            return hash == other.hash && Arrays.equals(names, other.names) && Arrays.equals(values, other.values);
        }
        return super.equals(o);
    }

    @Override
    public Set<Map.Entry<String, String>> entrySet() {
        Set<Map.Entry<String, String>> e = entries;
        if (e == null) {
            e = new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, String>> iterator() {
                    return new Iterator<>() {
                        private int i;

                        @Override
                        public boolean hasNext() {
                            return i < names.length;
                        }

                        @Override
                        public Map.Entry<String, String> next() {
                            if (i >= names.length) {
                                throw new NoSuchElementException();
                            }
                            Map.Entry<String, String> x = new SimpleImmutableEntry<>(names[i], values[i]);
                            i++;
                            return x;
                        }
                    };
                }

                @Override
                public int size() {
                    return names.length;
                }
            };
            entries = e;
        }
        return e;
    }
}
