package io.logbloom.compactor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.ColumnarRefs;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.SeriesBloom;
import io.logbloom.ingest.SeriesBloomWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The crash-safe steps shared by every compactor pass that replaces stored objects with new ones (delete
 * rewrites and small-object merges): journal, put the new object, switch the index, mark the old objects.
 *
 * <p>In order. (1) Each new object is built in memory under a new key ({@link #newObjectKey}); before it is put,
 * the tenant's journal {@code compactor/rewrites/<tenant>/<millis>-<n>.json} is replaced by one listing every
 * (old key, new key or none) pair of this pass so far ({@link #record}); several old keys may share one new key.
 * (2) The object is put. (3) Every index period holding a ref to an old key is rewritten with the new object's
 * refs of the same series in its place ({@link IndexCompactor#rewrite}: new file first). (4) The old objects (and
 * series blooms no ref uses any more) go to a deletion marker, swept after {@code retention_delete_delay} by the
 * compactor, which keeps whatever an index file still references. (5) The journal is deleted. A crash before (3)
 * finishes leaves a journal: the next pass rolls it forward first ({@link #recover}), replacing refs to each old
 * key whose new object exists (a new object that was never put is ignored, and its old object stays referenced),
 * so no line is lost or indexed twice once it has run. Between (2) and the end of (3) a reader may list a period's
 * new file beside the old one it replaces: the new file lists the old keys as superseded and readers drop refs to
 * them, so no row is read twice (a query spanning periods sees the new ref in each rewritten period, which covers
 * the series' rows of every period).
 *
 * <p>Blooms: a new object's series rows are tokenized block by block into their series blooms as it is written
 * ({@link #write}), exactly as the ingester's merger does (the same {@link SeriesBloomWriter}, tokens scoped to
 * the object's blocks), and the blooms are stored once the object is ({@link #persistBlooms}), so queries skip its
 * blocks as they skip the ingester's. A bloom lists the object keys it covers and only those are skipped, so a
 * bloom stored without the new key (a crash in between, or the ingester storing its copy of the same series'
 * bloom just after) only costs skipping, never a line. With blooms off (a null writer) new objects get none.
 *
 * <p>Not thread-safe: the {@link Compactor} calls it from its synchronized pass.
 */
final class ObjectReplacer {
    static final String JOURNALS = "compactor/rewrites/";

    /** Where the replacer puts keys for the compactor's delayed, reference-checked deletion. */
    @FunctionalInterface
    interface Marker {
        void mark(String tenant, long nowMillis, Set<String> keys) throws IOException;
    }

    /** One old object and what replaces it: a new object's refs by series (empty when nothing is left). */
    record Replacement(String oldKey, String newKey, Map<Labels, ChunkRef> refs) {}

    /** A new object, written but not yet put: its key, bytes and directory. */
    record NewObject(String key, byte[] bytes, ColumnarDirectory directory) {}

    private final ObjectStore store;
    private final IndexConfig indexConfig;
    private final IndexCompactor index;
    private final ColumnarConfig format;
    private final SeriesBloomWriter blooms;
    private final Marker marker;
    private final ObjectMapper json = new ObjectMapper();
    private long sequence;

    /** A replacer writing objects in {@code format}, their tokens into {@code blooms} (null: no blooms). */
    ObjectReplacer(ObjectStore store, IndexConfig indexConfig, IndexCompactor index, ColumnarConfig format,
            SeriesBloomWriter blooms, Marker marker) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.indexConfig = Objects.requireNonNull(indexConfig, "indexConfig is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.format = Objects.requireNonNull(format, "format is null");
        this.blooms = blooms;
        this.marker = Objects.requireNonNull(marker, "marker is null");
    }

    /**
     * Writes {@code streams} (none empty) into a new object of {@code tenant} under a fresh key, adding each
     * series' tokens to its bloom (in memory until {@link #persistBlooms}).
     */
    NewObject write(String tenant, Map<Labels, ColumnarRows> streams, long nowMillis) throws IOException {
        List<Labels> order = new ArrayList<>(streams.keySet());
        order.sort(ColumnarDirectory.STREAM_ORDER);
        long minTimeNanos = Long.MAX_VALUE;
        Map<Labels, Long> fromBySeries = new HashMap<>();
        for (Labels labels : order) {
            ColumnarRows rows = streams.get(labels);
            long from = Long.MAX_VALUE;
            for (int i = 0; i < rows.size(); i++) {
                from = Math.min(from, rows.timestampNanos(i));
            }
            fromBySeries.put(labels, from);
            minTimeNanos = Math.min(minTimeNanos, from);
        }
        String key = newObjectKey(tenant, minTimeNanos, nowMillis);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ColumnarDirectory directory;
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(out, format)) {
            for (Labels labels : order) {
                SeriesBloomWriter.ObjectTokens tokens = blooms == null ? null
                        : blooms.start(tenant, labels.fingerprint(), fromBySeries.get(labels), key);
                writer.add(labels, streams.get(labels), tokens); // which finishes the tokens (streamWritten)
            }
            directory = writer.finish();
        }
        return new NewObject(key, out.toByteArray(), directory);
    }

    /** Stores the blooms the objects written so far touched (call once they are put), then frees past ones. */
    void persistBlooms(long nowMillis) throws IOException {
        if (blooms != null) {
            blooms.persist();
            blooms.evict(nowMillis * 1_000_000L);
        }
    }

    /** A fresh journal key for one pass over {@code tenant}. */
    String newJournal(String tenant, long nowMillis) {
        return String.format(Locale.ROOT, "%s%s/%013d-%d.json", JOURNALS, tenant, nowMillis, ++sequence);
    }

    private String newObjectKey(String tenant, long minTimeNanos, long nowMillis) {
        return String.format(Locale.ROOT, "%s/objects/%016x-compactor-%013d-%d.lbo", tenant, minTimeNanos, nowMillis,
                ++sequence);
    }

    /** One ref per series of a columnar object, as the ingester's merger indexes them ({@link ColumnarRefs}). */
    static Map<Labels, ChunkRef> refsOf(String tenant, String key, byte[] bytes, ColumnarDirectory directory) {
        Map<Labels, ChunkRef> refs = new LinkedHashMap<>();
        for (SeriesChunks s : ColumnarRefs.of(tenant, key, bytes, directory)) {
            refs.put(s.labels(), s.chunks().get(0));
        }
        return refs;
    }

    /** Step (1): replaces {@code journal} by one listing {@code pairs}. */
    void record(String journal, List<Replacement> pairs) throws IOException {
        ObjectNode node = json.createObjectNode();
        ArrayNode array = node.putArray("rewrites");
        for (Replacement r : pairs) {
            ObjectNode pair = array.addObject();
            pair.put("old", r.oldKey());
            if (r.newKey() != null) {
                pair.put("new", r.newKey());
            }
        }
        store.put(journal, json.writeValueAsBytes(node));
    }

    /** Steps (3) to (5): switches the index from each old key to its replacement, marks the old, drops the journal. */
    void finish(String tenant, String journal, List<Replacement> replacements, long nowMillis) throws IOException {
        Map<String, Map<Labels, ChunkRef>> byOldKey = new HashMap<>();
        for (Replacement r : replacements) {
            byOldKey.put(r.oldKey(), r.refs());
        }
        Set<ChunkRef> replaced = switchIndex(tenant, byOldKey);
        Set<String> obsolete = new TreeSet<>(byOldKey.keySet());
        for (ChunkRef ref : replaced) {
            obsolete.add(Compactor.bloomKey(indexConfig, ref));
        }
        if (!obsolete.isEmpty()) {
            marker.mark(tenant, nowMillis, obsolete);
        }
        store.delete(journal);
        forgetBlooms(tenant, replaced, nowMillis);
    }

    /**
     * Drops the filters of the replaced objects from their series blooms (no query reads those objects once
     * the index no longer refers to them) and stores the blooms: they would otherwise keep every replaced
     * object's filter until the period's bloom is deleted. A bloom not stored yet stays pending in the writer.
     */
    private void forgetBlooms(String tenant, Set<ChunkRef> replaced, long nowMillis) throws IOException {
        if (blooms == null || replaced.isEmpty()) {
            return;
        }
        Map<List<Long>, Set<String>> keysBySeriesPeriod = new HashMap<>();
        for (ChunkRef ref : replaced) {
            keysBySeriesPeriod.computeIfAbsent(List.of(ref.fingerprint(), SeriesBloom.periodNumber(ref.fromNanos())),
                    k -> new HashSet<>()).add(ref.objectKey());
        }
        for (var e : keysBySeriesPeriod.entrySet()) {
            blooms.forget(tenant, e.getKey().get(0), e.getKey().get(1), e.getValue());
        }
        persistBlooms(nowMillis);
    }

    /**
     * Rewrites each index period of {@code tenant} holding refs to an old key with the new refs of the same
     * series in their place (where they overlap the period); returns the refs replaced.
     */
    private Set<ChunkRef> switchIndex(String tenant, Map<String, Map<Labels, ChunkRef>> byOldKey) throws IOException {
        Set<ChunkRef> replaced = new HashSet<>();
        for (var e : index.filesByPeriod(tenant).entrySet()) {
            long period = e.getKey();
            IndexCompactor.PeriodContent content = index.read(tenant, period, e.getValue());
            Set<String> replacedHere = new TreeSet<>();
            List<SeriesChunks> kept = new ArrayList<>(content.series().size());
            for (SeriesChunks s : content.series()) {
                Set<ChunkRef> refs = new LinkedHashSet<>();
                for (ChunkRef ref : s.chunks()) {
                    Map<Labels, ChunkRef> replacement = byOldKey.get(ref.objectKey());
                    if (replacement == null) {
                        refs.add(ref);
                        continue;
                    }
                    replacedHere.add(ref.objectKey());
                    replaced.add(ref);
                    ChunkRef next = replacement.get(s.labels());
                    if (next != null && indexConfig.periodNumber(next.fromNanos()) <= period
                            && indexConfig.periodNumber(next.throughNanos()) >= period) {
                        refs.add(next);
                    }
                }
                List<ChunkRef> sorted = new ArrayList<>(refs);
                sorted.sort(Comparator.comparingLong(ChunkRef::fromNanos).thenComparingLong(ChunkRef::throughNanos));
                kept.add(new SeriesChunks(s.labels(), sorted));
            }
            if (!replacedHere.isEmpty()) {
                index.rewrite(content, kept, replacedHere);
            }
        }
        return replaced;
    }

    /** Rolls forward the journals of {@code tenant} (see the class comment); returns how many. */
    int recover(String tenant, long nowMillis) throws IOException {
        int recovered = 0;
        for (String journal : store.list(JOURNALS + tenant + "/")) {
            JsonNode rewrites;
            try {
                rewrites = json.readTree(store.get(journal)).path("rewrites");
            } catch (ObjectNotFoundException gone) {
                continue;
            }
            Map<String, Map<Labels, ChunkRef>> newObjects = new HashMap<>();
            List<Replacement> replacements = new ArrayList<>();
            for (JsonNode pair : rewrites) {
                String oldKey = pair.path("old").asText();
                if (!pair.has("new")) {
                    replacements.add(new Replacement(oldKey, null, Map.of()));
                    continue;
                }
                String newKey = pair.path("new").asText();
                Map<Labels, ChunkRef> refs = newObjects.get(newKey);
                if (refs == null) {
                    byte[] bytes;
                    try {
                        bytes = store.get(newKey);
                    } catch (ObjectNotFoundException neverPut) {
                        continue; // the crash came before the put: the old object is still the indexed one
                    }
                    ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes(newKey, bytes)).directory();
                    refs = refsOf(tenant, newKey, bytes, directory);
                    newObjects.put(newKey, refs);
                }
                replacements.add(new Replacement(oldKey, newKey, refs));
            }
            finish(tenant, journal, replacements, nowMillis);
            recovered++;
        }
        return recovered;
    }
}
