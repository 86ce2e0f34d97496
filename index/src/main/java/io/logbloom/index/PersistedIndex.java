package io.logbloom.index;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * The index files in the object store, read as one index: a lookup lists the files of every period
 * overlapping [from, through) under {@code index/<tenant>/<period>/}, opens them through the
 * {@link IndexFileCache}, and unions their answers (a chunk ref indexed in several periods or files
 * appears once). A corrupted file fails the lookup with {@link IndexFormatException}: a partial
 * answer would silently drop logs. Listing is not cached, so files written by other processes are
 * seen at once. Over a remote store the periods' listings, and the files not yet in the cache, are read
 * side by side ({@link IndexConfig#parallelReads()} at a time): a lookup over a month of daily periods waits a
 * few round trips, not sixty. Thread-safe.
 */
public final class PersistedIndex implements IndexReader, AutoCloseable {
    /**
     * Above this many periods a lookup lists the tenant's whole prefix once instead of once per period
     * (a 0..max range would otherwise mean billions of list calls); 64 days of daily periods still
     * list per period, which keeps each listing small.
     */
    static final int MAX_PERIOD_LISTINGS = 64;

    private final ObjectStore store;
    private final IndexConfig config;
    private final IndexFileCache cache;
    /** Null when reads run one after another: a local store, or a width of one. */
    private final ParallelReads parallel;

    /**
     * Reads index files from {@code store}, laid out per {@code config}, opened through {@code cache}; at most
     * {@link IndexConfig#parallelReads()} reads of a remote store at a time (1: one after another; a store whose reads
     * are local is always read so).
     */
    public PersistedIndex(ObjectStore store, IndexConfig config, IndexFileCache cache) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.config = Objects.requireNonNull(config, "config is null");
        this.cache = Objects.requireNonNull(cache, "cache is null");
        this.parallel = config.parallelReads() > 1 && !store.readsAreLocal() ? new ParallelReads(config.parallelReads())
                : null;
    }

    /** The keys of {@code tenant}'s index files whose periods overlap [fromNanos, throughNanos), sorted. */
    public List<String> fileKeys(String tenant, long fromNanos, long throughNanos) throws IOException {
        Selectors.validateLookup(tenant, List.of(), fromNanos, throughNanos);
        if (throughNanos == fromNanos) {
            return List.of();
        }
        long first = config.periodNumber(fromNanos);
        long last = config.periodNumber(throughNanos - 1);
        List<String> keys = new ArrayList<>();
        String tenantPrefix = IndexKeys.tenantPrefix(tenant);
        if (last - first >= MAX_PERIOD_LISTINGS || last - first < 0) {
            for (String key : store.list(tenantPrefix)) {
                Long period = IndexKeys.periodOf(key, tenantPrefix);
                if (period != null && period >= first && period <= last) {
                    keys.add(key);
                }
            }
        } else {
            for (List<String> listing : periodListings(tenant, first, last)) {
                for (String key : listing) {
                    if (IndexKeys.periodOf(key, tenantPrefix) != null) {
                        keys.add(key);
                    }
                }
            }
        }
        keys.sort(null);
        return keys;
    }

    private List<List<String>> periodListings(String tenant, long first, long last) throws IOException {
        List<String> prefixes = new ArrayList<>();
        for (long p = first; p <= last; p++) {
            prefixes.add(IndexKeys.periodPrefix(tenant, p));
        }
        if (parallel != null && prefixes.size() > 1) {
            List<Callable<List<String>>> reads = new ArrayList<>(prefixes.size());
            for (String prefix : prefixes) {
                reads.add(() -> store.list(prefix));
            }
            return parallel.all(reads);
        }
        List<List<String>> listings = new ArrayList<>(prefixes.size());
        for (String prefix : prefixes) {
            listings.add(store.list(prefix));
        }
        return listings;
    }

    /**
     * Opens the files of the range. A listed file can vanish before it is opened when a compactor merged
     * it; the merged file was put before the inputs were deleted, so listing again once finds it.
     */
    private List<IndexFileReader> files(String tenant, long fromNanos, long throughNanos) throws IOException {
        try {
            return openListed(tenant, fromNanos, throughNanos);
        } catch (ObjectNotFoundException e) {
            return openListed(tenant, fromNanos, throughNanos);
        }
    }

    private List<IndexFileReader> openListed(String tenant, long fromNanos, long throughNanos) throws IOException {
        String tenantPrefix = IndexKeys.tenantPrefix(tenant);
        List<String> keys = fileKeys(tenant, fromNanos, throughNanos);
        List<IndexFileReader> opened = open(keys);
        List<IndexFileReader> files = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            IndexFileReader file = opened.get(i);
            long period = IndexKeys.periodOf(key, tenantPrefix);
            if (!file.tenant().equals(tenant) || file.periodNumber() != period) {
                throw new IndexFormatException("index file " + key + " holds tenant '" + file.tenant() + "' period "
                        + file.periodNumber() + ", not tenant '" + tenant + "' period " + period);
            }
            files.add(file);
        }
        return files;
    }

    /** The files under {@code keys}, in order; over a remote store two or more not cached yet are read side by side. */
    private List<IndexFileReader> open(List<String> keys) throws IOException {
        IndexFileReader[] files = new IndexFileReader[keys.size()];
        if (parallel != null) {
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < files.length; i++) {
                if (!cache.isCached(keys.get(i))) {
                    missing.add(i);
                }
            }
            if (missing.size() > 1) {
                List<Callable<IndexFileReader>> reads = new ArrayList<>(missing.size());
                for (int i : missing) {
                    reads.add(() -> cache.open(keys.get(i)));
                }
                List<IndexFileReader> read = parallel.all(reads);
                for (int j = 0; j < read.size(); j++) {
                    files[missing.get(j)] = read.get(j);
                }
            }
        }
        for (int i = 0; i < files.length; i++) {
            if (files[i] == null) {
                files[i] = cache.open(keys.get(i));
            }
        }
        return List.of(files);
    }

    /**
     * Whether an index file of {@code tenant} whose period overlaps [fromNanos, throughNanos) lists {@code objectKey}
     * as superseded: a compactor replaced the object by another holding its rows (see {@link IndexCompactor}). The
     * mark lasts while some file still refers to the object, so false does not prove it was never replaced.
     */
    public boolean supersedes(String tenant, String objectKey, long fromNanos, long throughNanos) throws IOException {
        Objects.requireNonNull(objectKey, "objectKey is null");
        Selectors.validateLookup(tenant, List.of(), fromNanos, throughNanos);
        for (IndexFileReader file : files(tenant, fromNanos, throughNanos)) {
            if (file.supersededObjectKeys().contains(objectKey)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.chunks(files(tenant, fromNanos, throughNanos), tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.series(files(tenant, fromNanos, throughNanos), tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.labelNames(files(tenant, fromNanos, throughNanos), tenant, matchers, fromNanos,
                throughNanos);
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        Objects.requireNonNull(name, "name is null");
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return IndexUnion.labelValues(files(tenant, fromNanos, throughNanos), tenant, name, matchers, fromNanos,
                throughNanos);
    }

    /** Stops the threads that read a remote store side by side; lookups afterwards fail. */
    @Override
    public void close() {
        if (parallel != null) {
            parallel.close();
        }
    }
}
