package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.TenantIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The in-memory index of recently flushed chunks: per tenant, series labels ↔ fingerprint (colliding
 * fingerprints keep distinct series), postings label name → value → ascending series ids, and each
 * series' chunk refs sorted by time. Lookups follow Loki's matcher semantics (see {@link LabelMatcher}).
 *
 * <p>Thread-safe: each tenant's structure is guarded by its own read-write lock (readers share it,
 * {@link #add} and {@link #removeChunksEndingBefore} take it exclusively); the tenant map is concurrent.
 * Results are fresh immutable lists, never views.
 */
public final class HeadIndex implements IndexReader {
    private final ConcurrentHashMap<String, TenantHead> tenants = new ConcurrentHashMap<>();

    private final ToLongFunction<Labels> fingerprints;

    /** A tenant's postings and the lock guarding them. */
    private static final class TenantHead {
        final ReadWriteLock lock = new ReentrantReadWriteLock();
        SeriesPostings postings;

        TenantHead(SeriesPostings postings) {
            this.postings = postings;
        }
    }

    /** Creates an empty head index. */
    public HeadIndex() {
        this(Labels::fingerprint);
    }

    /** Creates an empty head index keying series by {@code fingerprints}; tests pass a colliding function. */
    HeadIndex(ToLongFunction<Labels> fingerprints) {
        this.fingerprints = Objects.requireNonNull(fingerprints, "fingerprints is null");
    }

    /** Records that {@code ref} holds data of series {@code labels} of {@code tenant}; adding a ref twice is a no-op. */
    public void add(String tenant, Labels labels, ChunkRef ref) {
        Objects.requireNonNull(tenant, "tenant is null");
        Objects.requireNonNull(labels, "labels is null");
        Objects.requireNonNull(ref, "ref is null");
        TenantIds.validate(tenant);
        if (!ref.tenant().equals(tenant)) {
            throw new IllegalArgumentException("chunk ref " + ref.objectKey() + " belongs to tenant '" + ref.tenant()
                    + "', not '" + tenant + "'");
        }
        TenantHead head = tenants.computeIfAbsent(tenant, t -> new TenantHead(SeriesPostings.forHead(fingerprints)));
        head.lock.writeLock().lock();
        try {
            int id = head.postings.idOf(labels);
            if (id < 0) {
                head.postings.addSeries(labels, List.of(ref));
            } else {
                head.postings.series(id).addRef(ref);
            }
        } finally {
            head.lock.writeLock().unlock();
        }
    }

    /** Number of series {@code tenant} has in the head. */
    public int seriesCount(String tenant) {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantHead head = tenants.get(tenant);
        return head == null ? 0 : read(head, SeriesPostings::size);
    }

    /** Tenants that have at least one series, sorted. */
    public List<String> tenants() {
        List<String> out = new ArrayList<>();
        tenants.forEach((tenant, head) -> {
            if (read(head, p -> p.size() > 0)) {
                out.add(tenant);
            }
        });
        out.sort(null);
        return out;
    }

    /**
     * Drops every chunk ref whose data ends before {@code nanos} (typically once those refs are in a
     * persisted index file) and the series left without refs; returns how many refs were dropped.
     */
    public int removeChunksEndingBefore(long nanos) {
        int removed = 0;
        for (TenantHead head : tenants.values()) {
            head.lock.writeLock().lock();
            try {
                SeriesPostings old = head.postings;
                SeriesPostings kept = SeriesPostings.forHead(fingerprints);
                for (int id = 0; id < old.size(); id++) {
                    SeriesPostings.Series s = old.series(id);
                    List<ChunkRef> refs = new ArrayList<>(s.refs.size());
                    for (ChunkRef ref : s.refs) {
                        if (ref.throughNanos() >= nanos) {
                            refs.add(ref);
                        }
                    }
                    removed += s.refs.size() - refs.size();
                    if (!refs.isEmpty()) {
                        kept.addSeries(s.labels, refs);
                    }
                }
                head.postings = kept;
            } finally {
                head.lock.writeLock().unlock();
            }
        }
        return removed;
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return lookup(tenant, p -> p.chunks(matchers, fromNanos, throughNanos));
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return lookup(tenant, p -> p.series(matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return lookup(tenant, p -> p.labelNames(matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) {
        Objects.requireNonNull(name, "name is null");
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return lookup(tenant, p -> p.labelValues(name, matchers, fromNanos, throughNanos));
    }

    private <T> List<T> lookup(String tenant, Function<SeriesPostings, List<T>> query) {
        TenantHead head = tenants.get(tenant);
        if (head == null) {
            return List.of();
        }
        return List.copyOf(read(head, query));
    }

    private static <T> T read(TenantHead head, Function<SeriesPostings, T> query) {
        head.lock.readLock().lock();
        try {
            return query.apply(head.postings);
        } finally {
            head.lock.readLock().unlock();
        }
    }
}
