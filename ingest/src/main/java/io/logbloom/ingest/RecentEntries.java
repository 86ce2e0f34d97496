package io.logbloom.ingest;

import net.openhft.hashing.LongHashFunction;

/**
 * Identities of recently accepted entries, so a client retrying a push (also after its rows were
 * sealed or flushed) is recognized as a duplicate. Bounded in age ({@link
 * #RETENTION_NANOS}: longer than Promtail's 5-minute maximum retry backoff) and in count ({@link
 * #MAX_KEYS}: 56 bytes each in flat arrays, so at most ~30 MB), oldest first out: a FIFO ring of
 * (stream id, timestamp, line hash, expiry) plus an {@link EntryKeySet} index, so millions of
 * remembered entries are a handful of arrays to the garbage collector. The stream id mixes the
 * tenant's XXH3 into the series fingerprint; two streams could share an id only by a 64-bit
 * collision, and a false duplicate would further need the same timestamp and line hash. Not
 * thread-safe: the ingester's {@code lock} guards it.
 */
final class RecentEntries {
    /** Ten minutes: covers the retry window of common clients (Promtail backs off up to 5 minutes). */
    static final long RETENTION_NANOS = 10L * 60 * 1_000_000_000L;
    /** Upper bound on remembered entries, to cap memory at high ingest rates. */
    static final int MAX_KEYS = 500_000;
    private static final LongHashFunction TENANT_HASH = LongHashFunction.xx3();
    private static final int INITIAL_RING = 1024;

    private final int maxKeys;
    private final EntryKeySet index = new EntryKeySet();
    private long[] streams = new long[0];
    private long[] timestamps = new long[0];
    private long[] hashes = new long[0];
    private long[] expiries = new long[0];
    private int head; // oldest element
    private int count;
    /** The tenant whose hash {@link #lastTenantHash} is: pushes come one tenant at a time, entry after entry. */
    private String lastTenant;
    private long lastTenantHash;

    RecentEntries() {
        this(MAX_KEYS);
    }

    RecentEntries(int maxKeys) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be positive: " + maxKeys);
        }
        this.maxKeys = maxKeys;
    }

    /** Remembers an entry accepted at {@code nowNanos}. */
    void add(String tenant, long fingerprint, long timestampNanos, long lineHash, long nowNanos) {
        long stream = streamId(tenant, fingerprint);
        if (!index.add(stream, timestampNanos, lineHash)) {
            return;
        }
        if (count == maxKeys) {
            removeOldest();
        }
        if (count == streams.length) {
            grow();
        }
        int at = (head + count) % streams.length;
        streams[at] = stream;
        timestamps[at] = timestampNanos;
        hashes[at] = lineHash;
        expiries[at] = nowNanos + RETENTION_NANOS;
        count++;
    }

    /** Whether the entry was accepted within the retention window. */
    boolean contains(String tenant, long fingerprint, long timestampNanos, long lineHash, long nowNanos) {
        while (count > 0 && expiries[head] <= nowNanos) {
            removeOldest();
        }
        return count > 0 && index.contains(streamId(tenant, fingerprint), timestampNanos, lineHash);
    }

    /** Number of remembered entries. */
    int size() {
        return count;
    }

    private long streamId(String tenant, long fingerprint) {
        if (!tenant.equals(lastTenant)) {
            lastTenantHash = TENANT_HASH.hashChars(tenant);
            lastTenant = tenant;
        }
        return fingerprint ^ lastTenantHash;
    }

    private void removeOldest() {
        index.remove(streams[head], timestamps[head], hashes[head]);
        head = (head + 1) % streams.length;
        count--;
        if (count == 0) {
            head = 0;
        }
    }

    private void grow() {
        int capacity = (int) Math.min(maxKeys, Math.max(INITIAL_RING, 2L * streams.length));
        long[][] next = {new long[capacity], new long[capacity], new long[capacity], new long[capacity]};
        long[][] old = {streams, timestamps, hashes, expiries};
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < count; i++) {
                next[k][i] = old[k][(head + i) % old[k].length];
            }
        }
        streams = next[0];
        timestamps = next[1];
        hashes = next[2];
        expiries = next[3];
        head = 0;
    }
}
