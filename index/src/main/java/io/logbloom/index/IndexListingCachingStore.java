package io.logbloom.index;

import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.ObjectTail;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * An object store that keeps its listings of a tenant's index files ({@code index/<tenant>/…}) for up to
 * {@code ttl}, so a query does not pay a LIST request per index period (one round trip on S3, billed per thousand).
 * Every other call goes to the wrapped store.
 *
 * <p>Writes made through this store are seen at once: a put or delete of an index key updates every kept listing
 * whose prefix it falls under, after the wrapped store finished it. A listing that ran while such a write was
 * being finished is returned but not kept (it may predate the write). Writes made by other processes are seen once
 * the listing is older than {@code ttl}, or at once when they deleted a listed file: reading an index key the
 * wrapped store no longer has drops the listings it falls under, so the reader's retry lists again (see
 * {@link PersistedIndex}) and finds what replaced it; and when told that one rewrote a tenant's data
 * ({@link #forgetTenant}). So wrap the store of a process that writes its own index files (target {@code all}), or
 * one told of every other writer's new files before each lookup: a cluster querier hears from the ingesters, with
 * their unflushed rows, which index files they wrote lately ({@link #reported}: listings show those keys too until
 * no report named them for {@code ttl}) and drops everything ({@link #forgetAll}) when it cannot vouch that those
 * reports name every new file (an ingester that did not answer, a rebalance).
 *
 * <p>At most {@link #MAX_CACHED_KEYS} keys are kept over all listings, the least recently used listing going first.
 * Thread-safe.
 */
public final class IndexListingCachingStore implements ObjectStore {
    /** Keys kept over all listings: a few MB of strings, hundreds of periods of a busy tenant before compaction. */
    static final int MAX_CACHED_KEYS = 65_536;

    private final ObjectStore delegate;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final long maxCachedKeys;
    /** Prefix → kept listing, least recently used first. Guarded by {@code this}. */
    private final LinkedHashMap<String, Listing> listings = new LinkedHashMap<>(16, 0.75f, true);
    /** Index keys written or found missing through this store; a listing spanning a change is not kept. */
    private long changes;
    /**
     * Index keys other processes reported writing ({@link #reported}) → when last reported; shown in the listings they
     * fall under until no report named them for {@code ttl}. Guarded by {@code this}.
     */
    private final TreeMap<String, Long> reported = new TreeMap<>();
    private long cachedKeys;
    private long hits;
    private long misses;

    /** A listing and when the LIST that produced it was sent. */
    private record Listing(List<String> keys, long listedAtNanos) {}

    /**
     * Wraps {@code delegate}, keeping index listings for {@code ttl} (positive) as measured by {@code nanoTime}
     * ({@code System::nanoTime} outside tests).
     */
    public IndexListingCachingStore(ObjectStore delegate, Duration ttl, LongSupplier nanoTime) {
        this(delegate, ttl, nanoTime, MAX_CACHED_KEYS);
    }

    /** As the public constructor, keeping at most {@code maxCachedKeys} keys (tests use a small bound). */
    IndexListingCachingStore(ObjectStore delegate, Duration ttl, LongSupplier nanoTime, long maxCachedKeys) {
        if (maxCachedKeys < 0) {
            throw new IllegalArgumentException("maxCachedKeys must not be negative: " + maxCachedKeys);
        }
        this.maxCachedKeys = maxCachedKeys;
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
        Objects.requireNonNull(ttl, "ttl is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("index listing ttl must be positive: " + ttl);
        }
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime is null");
    }

    /** How long a listing is kept. */
    public Duration ttl() {
        return Duration.ofNanos(ttlNanos);
    }

    /**
     * Index files another process says it wrote (they exist, or a put of them failed): from now on every listing they
     * fall under shows them, kept or not, until no report named them for {@code ttl}. By then every kept listing was
     * taken after they were written.
     */
    public synchronized void reported(Collection<String> keys) {
        long now = nanoTime.getAsLong();
        for (String key : keys) {
            if (key.startsWith(IndexKeys.ROOT)) {
                reported.put(key, now);
            }
        }
        if (reported.size() > maxCachedKeys) {
            forgetAll(); // more than the bound: list every lookup until reports are few again
        }
    }

    /**
     * Drops every kept listing and every reported key: some process may have written index files no report named
     * (a cluster querier could not hear from every ingester), so the next lookups list again.
     */
    public synchronized void forgetAll() {
        changes++;
        reported.clear();
        dropListings(prefix -> true);
    }

    /** Listings answered from memory since start. */
    public synchronized long hits() {
        return hits;
    }

    /** Listings of index prefixes sent to the wrapped store since start. */
    public synchronized long misses() {
        return misses;
    }

    /**
     * Drops the kept listings of {@code tenant}'s index files: another process rewrote some of its data (a delete
     * request it processed), so the next query lists again.
     */
    public synchronized void forgetTenant(String tenant) {
        String tenantPrefix = IndexKeys.tenantPrefix(tenant);
        changes++;
        dropListings(prefix -> prefix.startsWith(tenantPrefix));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        if (!prefix.startsWith(IndexKeys.ROOT) || prefix.indexOf('/', IndexKeys.ROOT.length()) < 0) {
            return delegate.list(prefix); // not a tenant's or period's files: a compactor's rare walk of the root
        }
        long startedAt = nanoTime.getAsLong();
        long changesBefore;
        synchronized (this) {
            Listing kept = listings.get(prefix);
            if (kept != null && startedAt - kept.listedAtNanos() < ttlNanos) {
                hits++;
                return withReported(prefix, kept.keys(), startedAt);
            }
            misses++;
            changesBefore = changes;
        }
        List<String> keys = List.copyOf(delegate.list(prefix));
        synchronized (this) {
            if (changes == changesBefore) {
                keep(prefix, new Listing(keys, startedAt));
            }
            return withReported(prefix, keys, startedAt);
        }
    }

    /** {@code keys} (sorted) with the reported keys under {@code prefix} still shown at {@code now}, sorted. */
    private List<String> withReported(String prefix, List<String> keys, long now) {
        if (reported.isEmpty()) {
            return keys;
        }
        List<String> shown = null;
        Iterator<Map.Entry<String, Long>> it = reported.tailMap(prefix, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Long> e = it.next();
            if (!e.getKey().startsWith(prefix)) {
                break;
            }
            if (now - e.getValue() >= ttlNanos) {
                it.remove(); // every listing kept now was taken after it was written
                continue;
            }
            if (Collections.binarySearch(keys, e.getKey()) < 0) {
                if (shown == null) {
                    shown = new ArrayList<>(keys);
                }
                shown.add(e.getKey());
            }
        }
        if (shown == null) {
            return keys;
        }
        shown.sort(null);
        return List.copyOf(shown);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        try {
            delegate.put(key, data);
        } finally {
            added(key);
        }
    }

    @Override
    public void putFile(String key, Path file) throws IOException {
        try {
            delegate.putFile(key, file);
        } finally {
            added(key);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            delegate.delete(key);
        } finally {
            removed(key);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        return read(key, () -> delegate.get(key));
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        return read(key, () -> delegate.getRange(key, offset, length));
    }

    @Override
    public ObjectTail getTail(String key, int maxLength) throws IOException {
        return read(key, () -> delegate.getTail(key, maxLength));
    }

    @Override
    public long size(String key) throws IOException {
        return read(key, () -> delegate.size(key));
    }

    /** A read of one key from the wrapped store. */
    @FunctionalInterface
    private interface Read<T> {
        T run() throws IOException;
    }

    /** Runs {@code read} of {@code key}; when the key is missing, the listings holding it go ({@link #forget}). */
    private <T> T read(String key, Read<T> read) throws IOException {
        try {
            return read.run();
        } catch (ObjectNotFoundException e) {
            forget(key);
            throw e;
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        return delegate.exists(key);
    }

    @Override
    public boolean readsAreLocal() {
        return delegate.readsAreLocal();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    /**
     * After a put of {@code key} (finished or failed: a failed put may still have landed), adds it to the kept
     * listings it falls under.
     */
    private synchronized void added(String key) {
        update(key, true);
        evictOverBound();
    }

    /** After a delete of {@code key} through this store, drops it from the kept listings. */
    private synchronized void removed(String key) {
        update(key, false);
    }

    /** Puts {@code key} into ({@code present}) or takes it out of every kept listing it falls under, kept sorted. */
    private void update(String key, boolean present) {
        if (!key.startsWith(IndexKeys.ROOT)) {
            return;
        }
        changes++;
        for (Map.Entry<String, Listing> e : listings.entrySet()) {
            if (!key.startsWith(e.getKey())) {
                continue;
            }
            List<String> keys = e.getValue().keys();
            int at = Collections.binarySearch(keys, key);
            if ((at >= 0) == present) {
                continue; // already so
            }
            List<String> changed = new ArrayList<>(keys);
            if (present) {
                changed.add(-at - 1, key);
                cachedKeys++;
            } else {
                changed.remove(at);
                cachedKeys--;
            }
            e.setValue(new Listing(List.copyOf(changed), e.getValue().listedAtNanos()));
        }
    }

    /**
     * After a read found {@code key} missing, drops the kept listings it falls under: another process deleted it,
     * and may have written what replaces it (a compactor's merged file), which only a new listing shows.
     */
    private synchronized void forget(String key) {
        if (!key.startsWith(IndexKeys.ROOT)) {
            return;
        }
        changes++;
        reported.remove(key);
        dropListings(key::startsWith);
    }

    private void dropListings(Predicate<String> prefixes) {
        Iterator<Map.Entry<String, Listing>> it = listings.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Listing> e = it.next();
            if (prefixes.test(e.getKey())) {
                cachedKeys -= e.getValue().keys().size();
                it.remove();
            }
        }
    }

    private void keep(String prefix, Listing listing) {
        Listing old = listings.put(prefix, listing);
        cachedKeys += listing.keys().size() - (old == null ? 0 : old.keys().size());
        evictOverBound();
    }

    private void evictOverBound() {
        Iterator<Listing> eldestFirst = listings.values().iterator();
        while (cachedKeys > maxCachedKeys && eldestFirst.hasNext()) {
            cachedKeys -= eldestFirst.next().keys().size();
            eldestFirst.remove();
        }
    }
}
