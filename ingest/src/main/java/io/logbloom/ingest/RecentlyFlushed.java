package io.logbloom.ingest;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Identities of entries that recently left memory in a flushed chunk, so a client retrying a push
 * after its entries were flushed is still recognized as a duplicate. Bounded in age ({@link
 * #RETENTION_NANOS}: longer than Promtail's 5-minute maximum retry backoff) and in count ({@link
 * #MAX_KEYS}: about 100 bytes each, so at most ~50 MB), oldest first out. Not thread-safe: the
 * ingester's {@code lock} guards it.
 */
final class RecentlyFlushed {
    /** Ten minutes: covers the retry window of common clients (Promtail backs off up to 5 minutes). */
    static final long RETENTION_NANOS = 10L * 60 * 1_000_000_000L;
    /** Upper bound on remembered entries, to cap memory at high ingest rates. */
    static final int MAX_KEYS = 500_000;

    private final int maxKeys;
    private final LinkedHashMap<Key, Long> expiries = new LinkedHashMap<>();

    RecentlyFlushed() {
        this(MAX_KEYS);
    }

    RecentlyFlushed(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    private record Key(String tenant, long fingerprint, long timestampNanos, long lineHash) {}

    /** Remembers an entry flushed at {@code nowNanos}. */
    void add(String tenant, long fingerprint, long timestampNanos, long lineHash, long nowNanos) {
        expiries.put(new Key(tenant, fingerprint, timestampNanos, lineHash), nowNanos + RETENTION_NANOS);
        while (expiries.size() > maxKeys) {
            Iterator<Map.Entry<Key, Long>> it = expiries.entrySet().iterator();
            it.next();
            it.remove();
        }
    }

    /** Whether the entry was flushed within the retention window. */
    boolean contains(String tenant, long fingerprint, long timestampNanos, long lineHash, long nowNanos) {
        expire(nowNanos);
        return expiries.containsKey(new Key(tenant, fingerprint, timestampNanos, lineHash));
    }

    /** Number of remembered entries. */
    int size() {
        return expiries.size();
    }

    private void expire(long nowNanos) {
        Iterator<Map.Entry<Key, Long>> it = expiries.entrySet().iterator();
        while (it.hasNext() && it.next().getValue() <= nowNanos) {
            it.remove();
        }
    }
}
