package io.logbloom.ingest;

import io.logbloom.bloom.BloomStats;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ChunkRef;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The bloom of one series for one 24h UTC period: one filter per object whose tokens of the series were
 * all added (only those objects may ever be skipped), and the tokenizer settings the tokens were made
 * with (a querier must build query tokens the same way).
 *
 * <p><b>One filter per object, sized exactly.</b> The series' tokens of one object are known in full when
 * the object is written, so each object gets one partitioned filter sized for its distinct tokens at the
 * configured error rate, and a probe for a token scoped to a block of object O asks O's filter alone. A
 * growing scalable filter shared by every object of the day (the first layout) paid for its growth twice:
 * sub-filters half empty after each doubling, and tightening (each new sub-filter at half the error rate
 * of the one before) so the compound rate of all sub-filters stays under the target; both are gone when
 * the filter is sized from the count and probed alone. It also lets the compactor drop the filter of an
 * object it replaced ({@link #withoutObjects}). Blooms stored in the first layout load with every covered
 * key mapped to the one shared filter (the same object), which answers exactly as before.
 *
 * <p>Immutable (the map is copied) and thread-safe: filters are only read once a bloom holds them.
 *
 * @param filters the filter of each covered object key (several keys may share one filter: first layout)
 * @param ngramEnabled whether line n-grams were added
 * @param ngramLength n-gram length in code points
 * @param ngramSkip n-gram skip
 * @param wordTokens whether line word tokens were added (a bloom without them must not be probed for words)
 */
public record SeriesBloom(Map<String, ScalableBloomFilter> filters, boolean ngramEnabled, int ngramLength,
        int ngramSkip, boolean wordTokens) {
    public SeriesBloom {
        filters = immutableCopy(Objects.requireNonNull(filters, "filters is null"));
        if (ngramLength < 1 || ngramSkip < 0) {
            throw new IllegalArgumentException("invalid n-gram settings: length " + ngramLength + ", skip " + ngramSkip);
        }
    }

    /**
     * The filters copied into a map of one class whatever their count. {@code Map.copyOf} answers one entry with a
     * class of its own: every series' first object after a start took that branch, which a warm-up's series (several
     * objects each) never did, and the JIT threw the merge's bloom code away at the first real merge (C2 then spent
     * 0.45 s compiling it again during a push).
     */
    private static Map<String, ScalableBloomFilter> immutableCopy(Map<String, ScalableBloomFilter> filters) {
        Map<String, ScalableBloomFilter> copy = new HashMap<>(filters.size() * 2);
        for (Map.Entry<String, ScalableBloomFilter> e : filters.entrySet()) {
            copy.put(Objects.requireNonNull(e.getKey(), "an object key is null"),
                    Objects.requireNonNull(e.getValue(), "a filter is null"));
        }
        return Collections.unmodifiableMap(copy);
    }

    /** A bloom without objects for the given tokenizer settings. */
    public static SeriesBloom empty(boolean ngramEnabled, int ngramLength, int ngramSkip, boolean wordTokens) {
        return new SeriesBloom(Map.of(), ngramEnabled, ngramLength, ngramSkip, wordTokens);
    }

    /** A bloom in the first layout: one filter shared by every covered object key. */
    public static SeriesBloom shared(ScalableBloomFilter filter, Set<String> coveredChunkKeys, boolean ngramEnabled,
            int ngramLength, int ngramSkip, boolean wordTokens) {
        Objects.requireNonNull(filter, "filter is null");
        Map<String, ScalableBloomFilter> filters = new HashMap<>();
        for (String key : coveredChunkKeys) {
            filters.put(key, filter);
        }
        return new SeriesBloom(filters, ngramEnabled, ngramLength, ngramSkip, wordTokens);
    }

    /** Object keys of the chunks fully represented in this bloom. */
    public Set<String> coveredChunkKeys() {
        return filters.keySet();
    }

    /** Whether every token of the chunk is in the filter, so a negative test may skip it. */
    public boolean covers(ChunkRef ref) {
        return covers(ref.objectKey());
    }

    /** Whether every token of the series in object {@code objectKey} is in this bloom. */
    public boolean covers(String objectKey) {
        return filters.containsKey(objectKey);
    }

    /**
     * False only when {@code hash} (a token scoped to object {@code objectKey} or one of its blocks) was
     * definitely never added; true for an object this bloom does not cover.
     */
    public boolean mightContain(String objectKey, long hash) {
        ScalableBloomFilter filter = filters.get(objectKey);
        return filter == null || filter.mightContain(hash);
    }

    /** A copy that covers {@code objectKey} with {@code filter} (replacing a filter the key had). */
    public SeriesBloom withObject(String objectKey, ScalableBloomFilter filter) {
        Map<String, ScalableBloomFilter> next = new HashMap<>(filters);
        next.put(Objects.requireNonNull(objectKey, "objectKey is null"), Objects.requireNonNull(filter, "filter is null"));
        return new SeriesBloom(next, ngramEnabled, ngramLength, ngramSkip, wordTokens);
    }

    /** A copy that no longer covers {@code objectKeys} (objects replaced or deleted: they are never read again). */
    public SeriesBloom withoutObjects(Collection<String> objectKeys) {
        Map<String, ScalableBloomFilter> next = new HashMap<>(filters);
        next.keySet().removeAll(objectKeys);
        return new SeriesBloom(next, ngramEnabled, ngramLength, ngramSkip, wordTokens);
    }

    /** The distinct filters (a filter shared by several keys once). */
    public Collection<ScalableBloomFilter> distinctFilters() {
        Set<ScalableBloomFilter> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        distinct.addAll(filters.values());
        return distinct;
    }

    /** Bytes of bit storage of the distinct filters. */
    public long sizeBytes() {
        long total = 0;
        for (ScalableBloomFilter filter : distinctFilters()) {
            total += filter.stats().sizeBytes();
        }
        return total;
    }

    /** Totals over the distinct filters as Valkey's INFO BF: bytes, filters, sub-filters, items, capacity. */
    public double[] totals() {
        double[] totals = new double[5];
        for (ScalableBloomFilter filter : distinctFilters()) {
            BloomStats s = filter.stats();
            totals[0] += s.sizeBytes();
            totals[1] += 1;
            totals[2] += s.subFilters();
            totals[3] += s.itemsInserted();
            totals[4] += s.capacity();
        }
        return totals;
    }

    /** The period number (days since the epoch, UTC) of a timestamp: {@code floor(nanos / 86_400e9)}. */
    public static long periodNumber(long timestampNanos) {
        return Math.floorDiv(timestampNanos, SeriesBloomStore.PERIOD_NANOS);
    }
}
