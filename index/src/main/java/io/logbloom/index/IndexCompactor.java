package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Merges the many small files of a tenant-period (one per flush cycle and writer) into one, so a
 * lookup opens one file per period, as Loki's compactor does for TSDB tables. Order keeps every
 * moment consistent for readers: the merged file is put first (readers may briefly see both, and
 * the union deduplicates), then the inputs are deleted (a reader that listed an input just before
 * lists again, see {@link PersistedIndex}). A rewrite that replaces objects lists them as superseded in
 * its new file, so a reader seeing both files drops the old refs rather than reading the rows twice; the
 * mark is carried into later merges while an input still refers to a superseded object or the store still
 * holds it. A corrupted input aborts the merge and deletes nothing. Thread-safe, but run one compactor per
 * tenant at a time: two compacting the same period would each delete the other's inputs after writing
 * equivalent merged files, which is safe but wasteful.
 */
public final class IndexCompactor {
    private final ObjectStore store;
    private final IndexWriter writer;

    /** A compactor reading from {@code store} and writing merged files with {@code writer} (same store). */
    public IndexCompactor(ObjectStore store, IndexWriter writer) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.writer = Objects.requireNonNull(writer, "writer is null");
    }

    /** Merges the files of {@code tenant}'s period when there are at least two; returns the merged file's key. */
    public Optional<String> compact(String tenant, long periodNumber) throws IOException {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        String tenantPrefix = IndexKeys.tenantPrefix(tenant);
        List<String> keys = new ArrayList<>();
        for (String key : store.list(IndexKeys.periodPrefix(tenant, periodNumber))) {
            if (IndexKeys.periodOf(key, tenantPrefix) != null) {
                keys.add(key);
            }
        }
        return merge(tenant, periodNumber, keys);
    }

    /** Compacts every period of {@code tenant} holding at least two files; returns the merged keys. */
    public List<String> compactTenant(String tenant) throws IOException {
        List<String> merged = new ArrayList<>();
        for (var e : filesByPeriod(tenant).entrySet()) {
            merge(tenant, e.getKey(), e.getValue()).ifPresent(merged::add);
        }
        return merged;
    }

    private Optional<String> merge(String tenant, long periodNumber, List<String> keys) throws IOException {
        if (keys.size() < 2) {
            return Optional.empty();
        }
        PeriodContent content = read(tenant, periodNumber, keys);
        return rewrite(content, content.series());
    }

    /** Tenants holding at least one index file, sorted. */
    public List<String> tenants() throws IOException {
        TreeSet<String> tenants = new TreeSet<>();
        for (String key : store.list(IndexKeys.ROOT)) {
            int slash = key.indexOf('/', IndexKeys.ROOT.length());
            if (slash > IndexKeys.ROOT.length()) {
                String tenant = key.substring(IndexKeys.ROOT.length(), slash);
                if (IndexKeys.periodOf(key, IndexKeys.tenantPrefix(tenant)) != null) {
                    tenants.add(tenant);
                }
            }
        }
        return List.copyOf(tenants);
    }

    /** The index file keys of {@code tenant} by period number, each list sorted. */
    public SortedMap<Long, List<String>> filesByPeriod(String tenant) throws IOException {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        String tenantPrefix = IndexKeys.tenantPrefix(tenant);
        TreeMap<Long, List<String>> byPeriod = new TreeMap<>();
        for (String key : store.list(tenantPrefix)) {
            Long period = IndexKeys.periodOf(key, tenantPrefix);
            if (period != null) {
                byPeriod.computeIfAbsent(period, p -> new ArrayList<>()).add(key);
            }
        }
        return byPeriod;
    }

    /**
     * Reads the files {@code keys} of {@code tenant}'s period as one: every series with its refs
     * deduplicated. A file holding another tenant or period is refused as corrupt.
     */
    public PeriodContent read(String tenant, long periodNumber, List<String> keys) throws IOException {
        List<IndexFileReader> files = new ArrayList<>(keys.size());
        for (String key : keys) {
            IndexFileReader file = IndexFileReader.open(key, store.get(key));
            if (!file.tenant().equals(tenant) || file.periodNumber() != periodNumber) {
                throw new IndexFormatException("index file " + key + " holds tenant '" + file.tenant() + "' period "
                        + file.periodNumber() + ", not tenant '" + tenant + "' period " + periodNumber);
            }
            files.add(file);
        }
        List<SeriesChunks> all = files.isEmpty() ? List.of()
                : IndexUnion.chunks(files, tenant, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        // a superseded key stays listed while some input still refers to it (that input may outlive the rewrite's
        // new file for a moment: it is deleted after the new file is put) or while the replaced object is still in
        // the store (an ingester that crashed before committing its merge of it learns from the mark, on restart,
        // that a compactor took its rows over)
        Set<String> superseded = IndexUnion.superseded(files);
        Set<String> kept = new TreeSet<>();
        if (!superseded.isEmpty()) {
            for (IndexFileReader file : files) {
                for (SeriesChunks s : file.chunks(tenant, List.of(), Long.MIN_VALUE, Long.MAX_VALUE)) {
                    for (ChunkRef ref : s.chunks()) {
                        if (superseded.contains(ref.objectKey())) {
                            kept.add(ref.objectKey());
                        }
                    }
                }
            }
            for (String key : superseded) {
                if (!kept.contains(key) && store.exists(key)) {
                    kept.add(key);
                }
            }
        }
        return new PeriodContent(tenant, periodNumber, keys, all, kept);
    }

    /**
     * Replaces the files of {@code content} by one file holding {@code kept} (none when {@code kept} has no
     * refs): the new file is put first, then the inputs are deleted, so a reader listing at any moment sees
     * every kept ref at least once. Returns the new file's key, empty when nothing was kept.
     */
    public Optional<String> rewrite(PeriodContent content, List<SeriesChunks> kept) throws IOException {
        return rewrite(content, kept, Set.of());
    }

    /**
     * Replaces the files of {@code content} as {@link #rewrite(PeriodContent, List)} does, the new file listing
     * {@code replacedObjects} (objects whose refs {@code kept} replaces) as superseded, so a reader that lists the
     * new file and an input not deleted yet drops the inputs' refs to them instead of reading the rows twice.
     */
    public Optional<String> rewrite(PeriodContent content, List<SeriesChunks> kept, Set<String> replacedObjects)
            throws IOException {
        List<SeriesChunks> nonEmpty = new ArrayList<>(kept.size());
        for (SeriesChunks s : kept) {
            if (!s.chunks().isEmpty()) {
                nonEmpty.add(s);
            }
        }
        Set<String> superseded = new TreeSet<>(content.superseded());
        superseded.addAll(replacedObjects);
        for (SeriesChunks s : nonEmpty) {
            for (ChunkRef ref : s.chunks()) {
                superseded.remove(ref.objectKey());
            }
        }
        String mergedKey = nonEmpty.isEmpty() ? null
                : writer.writePeriod(content.tenant(), content.periodNumber(), nonEmpty, superseded);
        for (String key : content.fileKeys()) {
            if (!key.equals(mergedKey)) {
                store.delete(key);
            }
        }
        return Optional.ofNullable(mergedKey);
    }

    /**
     * What a tenant-period's index files hold together.
     *
     * @param tenant the tenant
     * @param periodNumber the index period
     * @param fileKeys the files read
     * @param series every series with its deduplicated refs, sorted by labels, refs to superseded objects dropped
     * @param superseded the object keys the files supersede that some file still refers to or the store still holds
     */
    public record PeriodContent(String tenant, long periodNumber, List<String> fileKeys, List<SeriesChunks> series,
            Set<String> superseded) {
        public PeriodContent {
            Objects.requireNonNull(tenant, "tenant is null");
            fileKeys = List.copyOf(fileKeys);
            series = List.copyOf(series);
            superseded = Set.copyOf(superseded);
        }
    }
}
