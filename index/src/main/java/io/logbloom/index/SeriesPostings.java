package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * The lookup structure shared by the head index and opened index files: a series table (id →
 * labels + chunk refs sorted by time), postings (label name → value → ascending series ids), and in
 * the head a fingerprint map (fingerprint → series ids, so colliding label sets stay distinct) and a
 * label-ordered id map (so results come out sorted without a sort).
 *
 * <p>Selection follows Prometheus' {@code PostingsForMatchers} idea as Loki uses it: a matcher that
 * does not match "" intersects the candidates with the union of the postings of the values it
 * matches; a matcher that does match "" removes from the candidates the union of the postings of the
 * values it does not match, so series lacking the label survive ({@code !="v"} removes just the
 * postings of v; an anchored regex with a literal prefix visits only the values under that prefix). Sets are {@link BitSet}s over series
 * ids, which is compact and fast for the tens of thousands of series a tenant period holds.
 *
 * <p>Not thread-safe: {@link HeadIndex} guards each instance with a lock; index files never mutate
 * theirs after construction.
 */
final class SeriesPostings {
    /** Order of refs inside a series: by start, then end, then checksum, so output is deterministic. */
    static final Comparator<ChunkRef> REF_ORDER = Comparator.comparingLong(ChunkRef::fromNanos)
            .thenComparingLong(ChunkRef::throughNanos)
            .thenComparingInt(ChunkRef::checksum)
            .thenComparingLong(ChunkRef::fingerprint)
            .thenComparingInt(ChunkRef::sizeBytes)
            .thenComparingInt(ChunkRef::entries)
            .thenComparing(ChunkRef::objectKey);

    /** One series: its labels and its chunk refs sorted by {@link #REF_ORDER}, without duplicates. */
    static final class Series {
        final Labels labels;
        final ArrayList<ChunkRef> refs;

        Series(Labels labels, List<ChunkRef> sortedRefs) {
            this.labels = labels;
            this.refs = new ArrayList<>(sortedRefs);
        }

        /** Inserts {@code ref} at its sorted place; returns false when it is already present. */
        boolean addRef(ChunkRef ref) {
            int at = Collections.binarySearch(refs, ref, REF_ORDER);
            if (at >= 0) {
                return false;
            }
            refs.add(-at - 1, ref);
            return true;
        }

        /** Whether a ref overlaps [fromNanos, throughNanos); an empty range holds no data. */
        boolean hasDataIn(long fromNanos, long throughNanos) {
            if (fromNanos >= throughNanos) {
                return false;
            }
            for (ChunkRef ref : refs) {
                if (ref.fromNanos() >= throughNanos) {
                    return false;
                }
                if (ref.overlaps(fromNanos, throughNanos)) {
                    return true;
                }
            }
            return false;
        }

        List<ChunkRef> refsIn(long fromNanos, long throughNanos) {
            List<ChunkRef> out = new ArrayList<>();
            if (fromNanos >= throughNanos) {
                return out;
            }
            for (ChunkRef ref : refs) {
                if (ref.fromNanos() >= throughNanos) {
                    break;
                }
                if (ref.overlaps(fromNanos, throughNanos)) {
                    out.add(ref);
                }
            }
            return out;
        }
    }

    private final ArrayList<Series> series = new ArrayList<>();
    private final Map<String, TreeMap<String, IntList>> postings = new HashMap<>();
    /** Head mode: fingerprint → ids, for {@link #idOf}; null in file mode, where nothing is looked up by labels. */
    private final Map<Long, int[]> idsByFingerprint;
    private final ToLongFunction<Labels> fingerprints;
    /** Head mode: ids in label order, so results need no sort; null in file mode, where ids are in label order. */
    private final TreeMap<Labels, Integer> labelOrder;

    private SeriesPostings(ToLongFunction<Labels> fingerprints, boolean headMode) {
        this.fingerprints = fingerprints;
        this.idsByFingerprint = headMode ? new HashMap<>() : null;
        this.labelOrder = headMode ? new TreeMap<>() : null;
    }

    /** A mutable structure for the head, finding series by {@code fingerprints} (normally {@link Labels#fingerprint}). */
    static SeriesPostings forHead(ToLongFunction<Labels> fingerprints) {
        return new SeriesPostings(fingerprints, true);
    }

    /** A structure for an index file: series are added in ascending label order, postings read separately. */
    static SeriesPostings forFile() {
        return new SeriesPostings(Labels::fingerprint, false);
    }

    /** Number of series (ids are 0 .. size-1). */
    int size() {
        return series.size();
    }

    Series series(int id) {
        return series.get(id);
    }

    /** Head mode: the id of {@code labels}, or -1 when absent; distinct label sets with equal fingerprints differ. */
    int idOf(Labels labels) {
        if (idsByFingerprint == null) {
            throw new IllegalStateException("BUG: series lookup by labels in an index file");
        }
        int[] ids = idsByFingerprint.get(fingerprints.applyAsLong(labels));
        if (ids != null) {
            for (int id : ids) {
                if (series.get(id).labels.equals(labels)) {
                    return id;
                }
            }
        }
        return -1;
    }

    /** Adds a new series (caller checked it is absent) and indexes its labels; returns its id. */
    int addSeries(Labels labels, List<ChunkRef> sortedRefs) {
        int id = addSeriesWithoutPostings(labels, sortedRefs);
        for (var label : labels.list()) {
            postings.computeIfAbsent(label.name(), n -> new TreeMap<>())
                    .computeIfAbsent(label.value(), v -> new IntList())
                    .add(id);
        }
        return id;
    }

    /** Indexes the series ids of one postings list read from a file (ids ascending, already validated). */
    void putPostings(String name, String value, IntList ids) {
        postings.computeIfAbsent(name, n -> new TreeMap<>()).put(value, ids);
    }

    /** Adds a series without touching postings (index files read their postings separately). */
    int addSeriesWithoutPostings(Labels labels, List<ChunkRef> sortedRefs) {
        int id = series.size();
        if (labelOrder != null) {
            labelOrder.put(labels, id);
            idsByFingerprint.merge(fingerprints.applyAsLong(labels), new int[] {id}, (old, added) -> {
                int[] merged = Arrays.copyOf(old, old.length + 1);
                merged[old.length] = id;
                return merged;
            });
        } else if (id > 0 && series.get(id - 1).labels.compareTo(labels) >= 0) {
            throw new IllegalStateException("BUG: series " + labels + " added after " + series.get(id - 1).labels);
        }
        series.add(new Series(labels, sortedRefs));
        return id;
    }

    /** Ids of series satisfying all matchers (all series for an empty list). */
    BitSet select(List<LabelMatcher> matchers) {
        BitSet candidates = new BitSet(series.size());
        candidates.set(0, series.size());
        for (LabelMatcher matcher : matchers) {
            if (candidates.isEmpty()) {
                break;
            }
            NavigableMap<String, IntList> values = postings.get(matcher.name());
            if (values == null) {
                values = Collections.emptyNavigableMap();
            }
            if (matcher.type() == LabelMatcher.MatchType.NOT_EQUAL && !matcher.value().isEmpty()) {
                candidates.andNot(postingsOf(values, matcher.value()));
            } else if (matcher.matchesEmpty()) {
                candidates.andNot(union(values, matcher, false));
            } else if (matcher.type() == LabelMatcher.MatchType.EQUAL) {
                candidates.and(postingsOf(values, matcher.value()));
            } else {
                candidates.and(union(values, matcher, true));
            }
        }
        return candidates;
    }

    private static BitSet postingsOf(NavigableMap<String, IntList> values, String value) {
        BitSet out = new BitSet();
        IntList ids = values.get(value);
        if (ids != null) {
            ids.setAll(out);
        }
        return out;
    }

    private static BitSet union(NavigableMap<String, IntList> values, LabelMatcher matcher, boolean matching) {
        BitSet out = new BitSet();
        boolean regexMatches = (matcher.type() == LabelMatcher.MatchType.REGEX && matching)
                || (matcher.type() == LabelMatcher.MatchType.NOT_REGEX && !matching);
        String prefix = regexMatches ? literalPrefix(matcher.value()) : "";
        for (Map.Entry<String, IntList> e : values.tailMap(prefix, true).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                break;
            }
            if (matcher.matches(e.getKey()) == matching) {
                e.getValue().setAll(out);
            }
        }
        return out;
    }

    /**
     * A literal every string matched by {@code regex} starts with ("" when unsure), so that a regex
     * like {@code pod-12.*} tests only the sorted values under its prefix instead of every value of a
     * high-cardinality label, as Prometheus' {@code FastRegexMatcher} does. Deliberately conservative:
     * any alternation disables it, the scan stops at the first character that is not a plain letter,
     * digit or one of {@code _-/:=@,; }, and the last literal is dropped when a quantifier that allows
     * zero repetitions follows it.
     */
    static String literalPrefix(String regex) {
        if (regex.indexOf('|') >= 0) {
            return "";
        }
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (!Character.isLetterOrDigit(c) && "_-/:=@,; ".indexOf(c) < 0) {
                break;
            }
            i++;
        }
        if (i < regex.length() && "?*{".indexOf(regex.charAt(i)) >= 0) {
            i--;
        }
        return regex.substring(0, Math.max(0, i));
    }

    /**
     * The selected ids in label order: id order for index files; for the head, a walk of the label-ordered
     * map when many series are selected, else a sort of the few selected.
     */
    private int[] inLabelOrder(BitSet ids) {
        if (labelOrder == null) {
            int[] out = new int[ids.cardinality()];
            int n = 0;
            for (int id = ids.nextSetBit(0); id >= 0; id = ids.nextSetBit(id + 1)) {
                out[n++] = id; // a loop, not a stream: a needle's first queries run this interpreted
            }
            return out;
        }
        int count = ids.cardinality();
        int[] out = new int[count];
        if (count > series.size() / 16) {
            int n = 0;
            for (int id : labelOrder.values()) {
                if (ids.get(id)) {
                    out[n++] = id;
                }
            }
            return out;
        }
        Integer[] boxed = ids.stream().boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, Comparator.comparing((Integer id) -> series.get(id).labels));
        for (int i = 0; i < count; i++) {
            out[i] = boxed[i];
        }
        return out;
    }

    List<SeriesChunks> chunks(List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        List<SeriesChunks> out = new ArrayList<>();
        for (int id : inLabelOrder(select(matchers))) {
            Series s = series.get(id);
            List<ChunkRef> refs = s.refsIn(fromNanos, throughNanos);
            if (!refs.isEmpty()) {
                out.add(new SeriesChunks(s.labels, refs));
            }
        }
        return List.copyOf(out);
    }

    List<Labels> series(List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        List<Labels> out = new ArrayList<>();
        for (int id : inLabelOrder(select(matchers))) {
            Series s = series.get(id);
            if (s.hasDataIn(fromNanos, throughNanos)) {
                out.add(s.labels);
            }
        }
        return List.copyOf(out);
    }

    List<String> labelNames(List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        BitSet ids = select(matchers);
        TreeSet<String> names = new TreeSet<>();
        for (int id = ids.nextSetBit(0); id >= 0; id = ids.nextSetBit(id + 1)) {
            Series s = series.get(id);
            if (s.hasDataIn(fromNanos, throughNanos)) {
                names.addAll(s.labels.names());
            }
        }
        return List.copyOf(names);
    }

    /** Walks the postings of {@code name}: a value qualifies at its first selected series with data in range. */
    List<String> labelValues(String name, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        TreeMap<String, IntList> values = postings.get(name);
        if (values == null) {
            return List.of();
        }
        BitSet selected = select(matchers);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, IntList> e : values.entrySet()) {
            IntList ids = e.getValue();
            for (int i = 0; i < ids.size(); i++) {
                int id = ids.get(i);
                if (selected.get(id) && series.get(id).hasDataIn(fromNanos, throughNanos)) {
                    out.add(e.getKey());
                    break;
                }
            }
        }
        return List.copyOf(out);
    }
}
