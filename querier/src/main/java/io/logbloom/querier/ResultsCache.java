package io.logbloom.querier;

import io.logbloom.logql.MetricResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Results of metric range query splits, least recently used first out, bounded by an estimate of their heap bytes.
 *
 * <p>An entry remembers the reads its evaluation made ({@link SplitRead}: selector and time range) and the
 * {@link Querier#readVersion version} of the data each read saw (the sorted chunk and object refs the index lists
 * for it). A lookup hands back the entry with those reads; the caller re-derives their versions and uses the entry
 * only if all are unchanged, so late rows flushed into an old window, objects merged or rewritten by the compactor,
 * and retention all make the entry miss. Plain LRU (not Caffeine's W-TinyLFU) because a dashboard's refresh reuses
 * exactly the splits it used last time, and the brief asks for LRU.
 *
 * <p>Thread-safe: every method holds the monitor of this cache, which guards {@code entries} and {@code bytes}.
 */
final class ResultsCache {
    /** Map entry, key and list overhead of one cached split, so empty results still weigh something. */
    private static final long ENTRY_OVERHEAD_BYTES = 256;
    /** A point: object header, long and double. */
    private static final long POINT_BYTES = 32;

    private final long maxBytes;
    private final QuerierMetrics metrics;
    private final LinkedHashMap<SplitKey, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    ResultsCache(long maxBytes, QuerierMetrics metrics) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
    }

    /** One split of one query: the tenant, the normalized query text, the step and the split's first and last step. */
    record SplitKey(String tenant, String query, long stepNanos, long firstStepNanos, long lastStepNanos) {
        SplitKey {
            Objects.requireNonNull(tenant, "tenant is null");
            Objects.requireNonNull(query, "query is null");
        }
    }

    /** A read of a split's evaluation: a selector (as label matchers) over [fromNanos, throughNanos). */
    record SplitRead(List<io.logbloom.index.LabelMatcher> matchers, long fromNanos, long throughNanos) {
        SplitRead {
            matchers = List.copyOf(matchers);
        }
    }

    /**
     * A cached split result for the split's steps up to {@code lastStepNanos} (its last step, or an earlier one for
     * an extent of the newest split that stops at the freshness limit), with the reads it made and the versions of
     * the data they saw, in the same order.
     */
    record Entry(MetricResult.Matrix result, List<SplitRead> reads, List<List<String>> versions, long lastStepNanos) {
        Entry {
            Objects.requireNonNull(result, "result is null");
            reads = List.copyOf(reads);
            versions = List.copyOf(versions);
            if (reads.size() != versions.size()) {
                throw new IllegalArgumentException("one version per read: " + reads.size() + " != " + versions.size());
            }
        }

        long weightBytes() {
            long w = ENTRY_OVERHEAD_BYTES;
            for (MetricResult.Series s : result.series()) {
                w += 64 + POINT_BYTES * s.points().size();
                for (Map.Entry<String, String> l : s.metric().entrySet()) {
                    w += 48 + 2L * (l.getKey().length() + l.getValue().length());
                }
            }
            for (List<String> version : versions) {
                w += 32;
                for (String ref : version) {
                    w += 48 + 2L * ref.length();
                }
            }
            return w;
        }
    }

    /** The entry stored under {@code key} or null; counts nothing (the caller counts a hit once it validated it). */
    synchronized Entry get(SplitKey key) {
        return entries.get(key);
    }

    /** Stores {@code entry}, evicting least recently used entries beyond the budget; one larger than it is dropped. */
    synchronized void put(SplitKey key, Entry entry) {
        long weight = weight(key, entry);
        Entry old = entries.remove(key);
        if (old != null) {
            bytes -= weight(key, old);
        }
        if (weight > maxBytes) {
            metrics.resultsCacheBytes(bytes);
            return;
        }
        entries.put(key, entry);
        bytes += weight;
        Iterator<Map.Entry<SplitKey, Entry>> it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<SplitKey, Entry> eldest = it.next();
            bytes -= weight(eldest.getKey(), eldest.getValue());
            it.remove();
            metrics.resultsCacheEviction();
        }
        metrics.resultsCacheBytes(bytes);
    }

    /** Forgets {@code key} (its data changed since it was stored). */
    synchronized void remove(SplitKey key) {
        Entry old = entries.remove(key);
        if (old != null) {
            bytes -= weight(key, old);
            metrics.resultsCacheBytes(bytes);
        }
    }

    /** Estimated heap bytes held. */
    synchronized long bytes() {
        return bytes;
    }

    /** Number of cached splits. */
    synchronized int size() {
        return entries.size();
    }

    private static long weight(SplitKey key, Entry entry) {
        return entry.weightBytes() + 2L * (key.tenant().length() + key.query().length());
    }
}
