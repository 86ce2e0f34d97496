package io.logbloom.compactor;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ZstdInflater;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.compactor.ObjectReplacer.Replacement;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.SeriesChunks;
import io.logbloom.logql.LogSelection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The "delete" half of Loki's {@code filter-and-delete}: rewrites every stored object of a tenant that holds
 * lines of the given delete requests into a new object without those lines, and points the index at it.
 *
 * <p>A line is deleted when its stream matches a request's selector, its timestamp is in the request's
 * [start, end] and it passes the request's pipeline: the same rule as {@link QueryTimeFilter}, so what the
 * filter hid before is exactly what the rewrite removes. Every other row of a rewritten object is copied with
 * the same timestamp, line and structured metadata. A columnar object is shared by the tenant's series, so it
 * is rewritten whole (series without deleted lines included); an old row chunk (format v1) holding deleted
 * lines becomes a columnar object with its one series. An object in which no line turns out to match (a
 * line filter that matches nothing in it) is left as it is.
 *
 * <p>Crash safety: the steps of {@link ObjectReplacer} (journal, put the new object, switch the index, mark
 * the old one for delayed deletion); a pass interrupted before its index switch is rolled forward first by
 * the next one.
 *
 * <p>Blooms: a rewritten object's tokens go to its series blooms as it is written ({@link ObjectReplacer#write}),
 * so queries skip its blocks as they skip the ingester's.
 *
 * <p>Memory: one old object and its rewritten rows at a time. Not thread-safe: the {@link Compactor} calls
 * it from its synchronized pass.
 */
final class DeleteRewriter {
    private final ObjectStore store;
    /** Decompression contexts reused across the blocks of the objects a pass rewrites (one pass at a time). */
    private final ZstdInflater inflater = ZstdInflater.pooled(1);
    private final IndexCompactor index;
    private final ObjectReplacer replacer;

    DeleteRewriter(ObjectStore store, IndexCompactor index, ObjectReplacer replacer) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.replacer = Objects.requireNonNull(replacer, "replacer is null");
    }

    /**
     * What a call did.
     *
     * @param objectsRewritten old objects replaced (by a new object, or by nothing when every line went)
     * @param linesDeleted lines removed
     * @param journalsRecovered journals of interrupted passes rolled forward
     */
    record Outcome(long objectsRewritten, long linesDeleted, int journalsRecovered) {}

    /** A request compiled for matching. */
    private record Deletion(long startNanos, long endNanos, LogSelection selection) {
        boolean overlaps(long fromNanos, long throughNanos) {
            return fromNanos <= endNanos && throughNanos >= startNanos;
        }

        boolean deletes(long timestampNanos, String line, Map<String, String> labels, Map<String, String> metadata) {
            return timestampNanos >= startNanos && timestampNanos <= endNanos
                    && selection.passesPipeline(timestampNanos, line, labels, metadata);
        }
    }

    /**
     * Rolls forward any journal an interrupted pass left for {@code tenant}, then removes the lines of
     * {@code requests} (all due and of a {@code filter-and-delete} tenant) from its stored objects.
     */
    Outcome process(String tenant, List<DeleteRequest> requests, long nowMillis) throws IOException {
        int recovered = replacer.recover(tenant, nowMillis);
        if (requests.isEmpty()) {
            return new Outcome(0, 0, recovered);
        }
        List<Deletion> deletions = new ArrayList<>(requests.size());
        for (DeleteRequest r : requests) {
            deletions.add(new Deletion(r.startNanos(), r.endNanos(), LogSelection.parse(r.query())));
        }
        Map<String, Affected> affected = affectedObjects(tenant, deletions);
        if (affected.isEmpty()) {
            return new Outcome(0, 0, recovered);
        }
        String journal = replacer.newJournal(tenant, nowMillis);
        List<Replacement> done = new ArrayList<>();
        long lines = 0;
        for (Map.Entry<String, Affected> object : affected.entrySet()) {
            Rewrite rewrite = rewrite(object.getKey(), object.getValue(), deletions);
            if (rewrite.linesDeleted() == 0) {
                continue;
            }
            String newKey = null;
            Map<Labels, ChunkRef> refs = Map.of();
            if (!rewrite.kept().isEmpty()) {
                ObjectReplacer.NewObject rewritten = replacer.write(tenant, rewrite.kept(), nowMillis);
                newKey = rewritten.key();
                refs = ObjectReplacer.refsOf(tenant, newKey, rewritten.bytes(), rewritten.directory());
                done.add(new Replacement(object.getKey(), newKey, refs));
                replacer.record(journal, done);
                store.put(newKey, rewritten.bytes());
            } else {
                done.add(new Replacement(object.getKey(), null, refs));
                replacer.record(journal, done);
            }
            lines += rewrite.linesDeleted();
        }
        if (!done.isEmpty()) {
            replacer.persistBlooms(nowMillis);
            replacer.finish(tenant, journal, done, nowMillis);
        }
        return new Outcome(done.size(), lines, recovered);
    }

    /** An object holding rows a request may delete: whether it is columnar, and the series of a row chunk. */
    private record Affected(boolean columnar, Labels rowChunkLabels) {}

    /** Object keys holding refs a request may delete rows of. */
    private Map<String, Affected> affectedObjects(String tenant, List<Deletion> deletions) throws IOException {
        Map<String, Affected> affected = new TreeMap<>();
        for (var e : index.filesByPeriod(tenant).entrySet()) {
            for (SeriesChunks s : index.read(tenant, e.getKey(), e.getValue()).series()) {
                Map<String, String> labels = labelMap(s.labels());
                List<Deletion> matching = new ArrayList<>();
                for (Deletion d : deletions) {
                    if (d.selection().matchesStream(labels)) {
                        matching.add(d);
                    }
                }
                for (ChunkRef ref : s.chunks()) {
                    for (Deletion d : matching) {
                        if (d.overlaps(ref.fromNanos(), ref.throughNanos())) {
                            affected.put(ref.objectKey(), new Affected(ref.isColumnar(), s.labels()));
                            break;
                        }
                    }
                }
            }
        }
        return affected;
    }

    /** The rows of one old object that stay, by series, and how many lines went. */
    private record Rewrite(Map<Labels, ColumnarRows> kept, long linesDeleted) {}

    private Rewrite rewrite(String key, Affected object, List<Deletion> deletions) throws IOException {
        byte[] bytes = store.get(key);
        Map<Labels, ColumnarRows> kept = new LinkedHashMap<>();
        long deleted = 0;
        if (!object.columnar()) {
            // a row chunk (format v1): one series, the one the index names
            Labels rowChunkLabels = object.rowChunkLabels();
            Map<String, String> labels = labelMap(rowChunkLabels);
            List<Deletion> matching = matching(deletions, labels);
            ColumnarRows rows = new ColumnarRows();
            for (LogEntry entry : Chunk.decode(bytes).entries(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD)) {
                if (deleted(matching, entry.timestampNanos(), entry.line(), labels, entry.metadata())) {
                    deleted++;
                } else {
                    rows.append(entry);
                }
            }
            if (rows.size() > 0) {
                kept.put(rowChunkLabels, rows);
            }
            return new Rewrite(kept, deleted);
        }
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes(key, bytes), null, inflater);
        ColumnarDirectory directory = reader.directory();
        for (int s = 0; s < directory.streams().size(); s++) {
            ColumnarStreamInfo stream = directory.streams().get(s);
            Map<String, String> labels = labelMap(stream.labels());
            List<Deletion> matching = new ArrayList<>();
            for (Deletion d : matching(deletions, labels)) {
                if (d.overlaps(stream.minTimeNanos(), stream.maxTimeNanos())) {
                    matching.add(d);
                }
            }
            ColumnarRows rows = new ColumnarRows();
            for (int b = stream.firstBlock(); b < stream.firstBlock() + stream.blockCount(); b++) {
                ColumnarBlock block = reader.readBlock(b);
                ColumnarLines lines = block.lines();
                for (int row = 0; row < block.rows(); row++) {
                    List<Label> metadata = block.metadata(row);
                    if (!matching.isEmpty()
                            && deleted(matching, block.timestampNanos(row), lines.line(row), labels, metadata)) {
                        deleted++;
                    } else {
                        rows.append(block.timestampNanos(row), lines.bytes(), lines.offset(row), lines.length(row),
                                metadata);
                    }
                }
            }
            if (rows.size() > 0) {
                kept.put(stream.labels(), rows);
            }
        }
        return new Rewrite(kept, deleted);
    }

    private static List<Deletion> matching(List<Deletion> deletions, Map<String, String> labels) {
        List<Deletion> matching = new ArrayList<>();
        for (Deletion d : deletions) {
            if (d.selection().matchesStream(labels)) {
                matching.add(d);
            }
        }
        return matching;
    }

    private static boolean deleted(List<Deletion> matching, long timestampNanos, String line,
            Map<String, String> labels, List<Label> metadata) {
        if (matching.isEmpty()) {
            return false;
        }
        Map<String, String> fields = new HashMap<>();
        for (Label l : metadata) {
            fields.put(l.name(), l.value());
        }
        for (Deletion d : matching) {
            if (d.deletes(timestampNanos, line, labels, fields)) {
                return true;
            }
        }
        return false;
    }

    static Map<String, String> labelMap(Labels labels) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Label l : labels.list()) {
            map.put(l.name(), l.value());
        }
        return map;
    }
}
