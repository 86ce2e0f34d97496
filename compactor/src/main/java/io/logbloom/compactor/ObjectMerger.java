package io.logbloom.compactor;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ZstdInflater;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.compactor.ObjectReplacer.Replacement;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Object-level compaction: the small columnar objects of a tenant (each flush cycle of a quiet tenant uploads
 * one) are merged, per index period of their first row, into objects of about {@code compactor.small_object_size},
 * so the refs a query reads stop growing with the number of flush cycles.
 *
 * <p>Which rows move: only the series rows the index still references, within the time range of their refs, and
 * not older than their stream's retention cutoff; so rows already expired or removed from the index are never
 * brought back. Pending delete requests need nothing here: their query-time filter hides the copied lines until
 * the {@link DeleteRewriter} removes them from the merged object.
 *
 * <p>Planning: an object is small when the blocks of its indexed series total less than the threshold (read from
 * the index: no object is fetched to decide). The small objects of one period are taken in key order (their keys
 * start with their first row's time) and cut into batches as soon as a batch reaches the threshold; a batch of one
 * object is left alone, so a pass with nothing to merge writes nothing and a merged object is merged again only
 * with newer small objects. Each batch is replaced through the crash-safe steps of {@link ObjectReplacer}: one
 * journal listing every (old, new) pair, the new object put, the index switched, the old objects marked for
 * deletion after {@code retention_delete_delay}.
 *
 * <p>Memory: the rows of one batch (below twice the threshold of stored bytes, decoded). Not thread-safe: the
 * {@link Compactor} calls it from its synchronized pass.
 */
final class ObjectMerger {
    private final ObjectStore store;
    /** Decompression contexts reused across the blocks of the objects a pass reads (one pass at a time). */
    private final ZstdInflater inflater = ZstdInflater.pooled(1);
    private final IndexConfig indexConfig;
    private final IndexCompactor index;
    private final ObjectReplacer replacer;
    private final long smallObjectSizeBytes;

    ObjectMerger(ObjectStore store, IndexConfig indexConfig, IndexCompactor index, ObjectReplacer replacer,
            long smallObjectSizeBytes) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.indexConfig = Objects.requireNonNull(indexConfig, "indexConfig is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.replacer = Objects.requireNonNull(replacer, "replacer is null");
        this.smallObjectSizeBytes = smallObjectSizeBytes;
    }

    /**
     * What a call did.
     *
     * @param objectsMerged small objects replaced
     * @param objectsWritten merged objects written for them
     */
    record Outcome(long objectsMerged, long objectsWritten) {
        static final Outcome NONE = new Outcome(0, 0);
    }

    /** The indexed series of one stored object: the time range its refs cover and their stored bytes, by series. */
    private static final class IndexedObject {
        final Map<Labels, long[]> rangeBySeries = new HashMap<>();
        final Map<Labels, Long> bytesBySeries = new HashMap<>();
        long minFromNanos = Long.MAX_VALUE;

        void add(Labels labels, ChunkRef ref) {
            rangeBySeries.merge(labels, new long[] {ref.fromNanos(), ref.throughNanos()},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            bytesBySeries.merge(labels, (long) ref.sizeBytes(), Math::max);
            minFromNanos = Math.min(minFromNanos, ref.fromNanos());
        }

        long storedBytes() {
            long total = 0;
            for (long b : bytesBySeries.values()) {
                total += b;
            }
            return total;
        }
    }

    /**
     * Merges the small objects of {@code tenant}; {@code cutoffNanos} gives each series' retention cutoff
     * (rows before it are not copied).
     */
    Outcome merge(String tenant, long nowMillis, ToLongFunction<Labels> cutoffNanos) throws IOException {
        if (smallObjectSizeBytes == 0) {
            return Outcome.NONE;
        }
        Map<String, IndexedObject> objects = new TreeMap<>();
        for (var e : index.filesByPeriod(tenant).entrySet()) {
            for (SeriesChunks s : index.read(tenant, e.getKey(), e.getValue()).series()) {
                for (ChunkRef ref : s.chunks()) {
                    if (ref.isColumnar()) {
                        objects.computeIfAbsent(ref.objectKey(), k -> new IndexedObject()).add(s.labels(), ref);
                    }
                }
            }
        }
        Map<Long, List<List<String>>> batchesByPeriod = new TreeMap<>();
        Map<Long, Long> openBatchBytes = new HashMap<>();
        for (Map.Entry<String, IndexedObject> o : objects.entrySet()) {
            long bytes = o.getValue().storedBytes();
            if (bytes >= smallObjectSizeBytes) {
                continue;
            }
            long period = indexConfig.periodNumber(o.getValue().minFromNanos);
            List<List<String>> batches = batchesByPeriod.computeIfAbsent(period, p -> new ArrayList<>());
            long open = openBatchBytes.getOrDefault(period, Long.MAX_VALUE);
            if (open >= smallObjectSizeBytes) {
                batches.add(new ArrayList<>());
                open = 0;
            }
            batches.get(batches.size() - 1).add(o.getKey());
            openBatchBytes.put(period, open + bytes);
        }
        long merged = 0;
        long written = 0;
        for (List<List<String>> batches : batchesByPeriod.values()) {
            for (List<String> batch : batches) {
                if (batch.size() < 2) {
                    continue;
                }
                written += mergeBatch(tenant, batch, objects, nowMillis, cutoffNanos) ? 1 : 0;
                merged += batch.size();
            }
        }
        return new Outcome(merged, written);
    }

    /** Replaces the objects of {@code batch} by one; false when none of their rows was left to copy. */
    private boolean mergeBatch(String tenant, List<String> batch, Map<String, IndexedObject> objects, long nowMillis,
            ToLongFunction<Labels> cutoffNanos) throws IOException {
        Map<Labels, ColumnarRows> kept = new LinkedHashMap<>();
        for (String key : batch) {
            copyIndexedRows(key, objects.get(key), cutoffNanos, kept);
        }
        String journal = replacer.newJournal(tenant, nowMillis);
        List<Replacement> pairs = new ArrayList<>(batch.size());
        if (kept.isEmpty()) {
            for (String key : batch) {
                pairs.add(new Replacement(key, null, Map.of()));
            }
            replacer.record(journal, pairs);
            replacer.finish(tenant, journal, pairs, nowMillis);
            return false;
        }
        ObjectReplacer.NewObject merged = replacer.write(tenant, kept, nowMillis);
        Map<Labels, ChunkRef> refs = ObjectReplacer.refsOf(tenant, merged.key(), merged.bytes(), merged.directory());
        for (String key : batch) {
            pairs.add(new Replacement(key, merged.key(), refs));
        }
        replacer.record(journal, pairs);
        store.put(merged.key(), merged.bytes());
        replacer.persistBlooms(nowMillis);
        replacer.finish(tenant, journal, pairs, nowMillis);
        return true;
    }

    /** Appends to {@code kept} the rows of object {@code key} its index refs cover and retention keeps. */
    private void copyIndexedRows(String key, IndexedObject indexed, ToLongFunction<Labels> cutoffNanos,
            Map<Labels, ColumnarRows> kept) throws IOException {
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes(key, store.get(key)), null, inflater);
        ColumnarDirectory directory = reader.directory();
        for (ColumnarStreamInfo stream : directory.streams()) {
            long[] range = indexed.rangeBySeries.get(stream.labels());
            if (range == null) {
                continue; // no longer indexed: expired or deleted
            }
            long from = Math.max(range[0], cutoffNanos.applyAsLong(stream.labels()));
            long through = range[1];
            ColumnarRows rows = kept.computeIfAbsent(stream.labels(), l -> new ColumnarRows());
            for (int b = stream.firstBlock(); b < stream.firstBlock() + stream.blockCount(); b++) {
                ColumnarBlock block = reader.readBlock(b);
                ColumnarLines lines = block.lines();
                for (int row = 0; row < block.rows(); row++) {
                    long ts = block.timestampNanos(row);
                    if (ts >= from && ts <= through) {
                        rows.append(ts, lines.bytes(), lines.offset(row), lines.length(row), block.metadata(row));
                    }
                }
            }
            if (rows.size() == 0) {
                kept.remove(stream.labels());
            }
        }
    }
}
