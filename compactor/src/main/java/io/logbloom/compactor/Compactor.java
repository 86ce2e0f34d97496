package io.logbloom.compactor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.SeriesBloomWriter;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compactor loop, Loki's compactor role over our index files: every {@code compaction_interval},
 * holding the {@link CompactorLease}, it merges each tenant-period's index files into one and (with
 * retention enabled) drops the refs whose stream's retention expired, then deletes the objects nothing
 * references any more once {@code retention_delete_delay} has passed.
 *
 * <p>Crash safety, step by step. (1) Read every index file of the tenant; a ref is expired when its last
 * entry is before its stream's cutoff ({@link RetentionPolicy}). (2) The objects and series blooms of
 * expired refs that no kept ref references (a columnar object is shared by several series of a tenant,
 * a bloom by the refs of one series and period) are written to a marker object
 * {@code compactor/markers/<tenant>/<millis>-<n>.json}. (3) Each period that has several files or lost
 * refs is rewritten through {@link IndexCompactor#rewrite}: new file first, inputs deleted after, so a
 * reader listing at any moment sees every kept ref at least once. (4) A marker older than the delete
 * delay is swept: its keys are deleted unless an index file listed at sweep time still references them
 * (so a crash between (2) and (3), or a flush racing the pass, never deletes live data), then the marker
 * goes. A crash anywhere leaves at worst an object to be swept by a later pass.
 *
 * <p>Deletes: before its index files are compacted, each tenant whose {@code deletion_mode} is
 * {@code filter-and-delete} has its {@code received} delete requests created more than
 * {@code delete_request_cancel_period} (plus a minute, as Loki, so a cancellation racing the pass loses)
 * ago applied by {@link DeleteRewriter}, which rewrites the affected objects; then the requests become
 * {@code processed}, and the query-time filter stops applying them. A crash before that leaves them
 * {@code received}: the next pass finds nothing left to delete in the rewritten objects and marks them.
 *
 * <p>Small objects: after that, {@link ObjectMerger} merges each tenant's objects below
 * {@code small_object_size} per index period into larger ones, through the same crash-safe steps as the
 * delete rewrites ({@link ObjectReplacer}), so a query's refs do not grow with the number of flush cycles.
 *
 * <p>Memory: one tenant's whole index is read per pass (a period at a time would not see refs to a
 * shared columnar object from other periods).
 *
 * <p>Thread-safe: {@link #runOnce()} is synchronized, the loop runs on one daemon thread.
 */
public final class Compactor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);
    static final String MARKERS = "compactor/markers/";
    /** Object-key prefix of series blooms, as the ingester's SeriesBloomStore lays them out. */
    static final String BLOOMS = "blooms/";
    /**
     * Added to the cancel period before a request is applied, as Loki does, so a cancellation arriving at
     * the deadline cannot race the pass that starts rewriting.
     */
    static final long CANCEL_RACE_MARGIN_MILLIS = 60_000;

    private final CompactorConfig config;
    private final ObjectStore store;
    private final IndexConfig indexConfig;
    private final IndexCompactor index;
    private final RetentionPolicy retention;
    private final DeleteRequestStore deletes;
    private final ObjectReplacer replacer;
    private final DeleteRewriter rewriter;
    private final ObjectMerger merger;
    private final CompactorLease lease;
    private final CompactorMetrics metrics;
    private final InstantSource clock;
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicLong markerSequence = new AtomicLong();
    private ScheduledExecutorService loop;

    /**
     * A compactor over {@code store}'s index files (laid out per {@code indexConfig}), rewriting them with
     * {@code index}, applying the requests of {@code deletes} by writing objects in {@code format}; the objects it
     * writes get no series blooms.
     */
    public Compactor(CompactorConfig config, ObjectStore store, IndexConfig indexConfig, IndexCompactor index,
            RetentionPolicy retention, DeleteRequestStore deletes, ColumnarConfig format, CompactorLease lease,
            CompactorMetrics metrics, InstantSource clock) {
        this(config, store, indexConfig, index, retention, deletes, format, null, lease, metrics, clock);
    }

    /**
     * As the other constructor, adding the tokens of every object it writes (merged or delete-rewritten) to
     * series blooms through {@code blooms} (null: none), as the ingester does for its objects.
     */
    public Compactor(CompactorConfig config, ObjectStore store, IndexConfig indexConfig, IndexCompactor index,
            RetentionPolicy retention, DeleteRequestStore deletes, ColumnarConfig format, SeriesBloomWriter blooms,
            CompactorLease lease, CompactorMetrics metrics, InstantSource clock) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.indexConfig = Objects.requireNonNull(indexConfig, "indexConfig is null");
        this.index = Objects.requireNonNull(index, "index is null");
        this.retention = Objects.requireNonNull(retention, "retention is null");
        this.deletes = Objects.requireNonNull(deletes, "deletes is null");
        this.replacer = new ObjectReplacer(store, indexConfig, index, format, blooms, this::writeMarker);
        this.rewriter = new DeleteRewriter(store, index, replacer);
        this.merger = new ObjectMerger(store, indexConfig, index, replacer, config.smallObjectSizeBytes());
        this.lease = Objects.requireNonNull(lease, "lease is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** Starts the loop: a pass now and then every compaction interval; a failed pass is logged and retried next time. */
    public synchronized void start() {
        if (loop != null) {
            throw new IllegalStateException("compactor already started");
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "logbloom-compactor");
            t.setDaemon(true);
            return t;
        });
        long intervalMillis = config.compactionInterval().toMillis();
        loop.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (IOException | RuntimeException e) {
                LOG.error("compaction pass failed; retrying in {}", config.compactionInterval(), e);
            }
        }, 0, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** Runs one pass over every tenant if the lease is free; returns what it did. */
    public synchronized PassResult runOnce() throws IOException {
        if (!lease.acquire()) {
            metrics.run("skipped");
            LOG.info("compaction pass skipped: another compactor holds the lease");
            return PassResult.SKIPPED;
        }
        try {
            long nowMillis = clock.millis();
            PassResult total = new PassResult(true, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            for (String tenant : index.tenants()) {
                total = total.plus(processDeletes(tenant, nowMillis));
                total = total.plus(compactTenant(tenant, nowMillis));
                total = total.plus(mergeSmallObjects(tenant, nowMillis));
            }
            total = total.plus(sweep(nowMillis));
            metrics.run("success");
            metrics.succeeded(clock.millis());
            LOG.info("compaction pass done: {} index files removed, {} expired refs dropped, {} objects ({} bytes) deleted,"
                    + " {} delete requests processed ({} lines removed from {} objects), {} small objects merged into {}",
                    total.indexFilesRemoved(), total.refsExpired(), total.objectsDeleted(), total.bytesDeleted(),
                    total.requestsProcessed(), total.linesDeleted(), total.objectsRewritten(), total.objectsMerged(),
                    total.mergedObjectsWritten());
            return total;
        } catch (IOException | RuntimeException e) {
            metrics.run("failure");
            throw e;
        } finally {
            lease.release();
        }
    }

    /** Applies the tenant's due delete requests to its stored objects, then marks them processed. */
    private PassResult processDeletes(String tenant, long nowMillis) throws IOException {
        List<DeleteRequest> due = new ArrayList<>();
        if (retention.limits().forTenant(tenant).deletionMode().rewritesData()) {
            long cancelMillis = config.deleteRequestCancelPeriod().toMillis() + CANCEL_RACE_MARGIN_MILLIS;
            for (DeleteRequest r : deletes.list(tenant)) {
                if (r.received() && r.createdAtMillis() + cancelMillis <= nowMillis) {
                    due.add(r);
                }
            }
        }
        DeleteRewriter.Outcome outcome = rewriter.process(tenant, due, nowMillis);
        long processed = 0;
        for (DeleteRequest r : due) {
            if (deletes.get(tenant, r.requestId()).isPresent()) { // never resurrect a request cancelled meanwhile
                deletes.put(r.withStatus(DeleteRequest.STATUS_PROCESSED));
                processed++;
            }
        }
        metrics.deletesApplied(processed, outcome.objectsRewritten(), outcome.linesDeleted());
        if (processed > 0 || outcome.journalsRecovered() > 0) {
            LOG.info("deletes: tenant {} processed {} requests, removed {} lines from {} objects ({} interrupted rewrites"
                    + " finished)", tenant, processed, outcome.linesDeleted(), outcome.objectsRewritten(),
                    outcome.journalsRecovered());
        }
        return new PassResult(true, 0, 0, 0, 0, processed, outcome.objectsRewritten(), outcome.linesDeleted(), 0, 0);
    }

    private PassResult compactTenant(String tenant, long nowMillis) throws IOException {
        long nowNanos = nowMillis * 1_000_000L;
        SortedMap<Long, List<String>> files = index.filesByPeriod(tenant);
        List<IndexCompactor.PeriodContent> contents = new ArrayList<>(files.size());
        List<List<SeriesChunks>> keptByPeriod = new ArrayList<>(files.size());
        List<Integer> droppedByPeriod = new ArrayList<>(files.size());
        Set<String> live = new HashSet<>();
        Set<String> candidates = new TreeSet<>();
        for (var e : files.entrySet()) {
            IndexCompactor.PeriodContent content = index.read(tenant, e.getKey(), e.getValue());
            List<SeriesChunks> kept = new ArrayList<>(content.series().size());
            int dropped = 0;
            for (SeriesChunks s : content.series()) {
                long cutoff = config.retentionEnabled() ? retention.cutoffNanos(tenant, labelMap(s.labels()), nowNanos)
                        : RetentionPolicy.KEEP_ALL;
                List<ChunkRef> refs = new ArrayList<>(s.chunks().size());
                for (ChunkRef ref : s.chunks()) {
                    if (ref.throughNanos() < cutoff) {
                        dropped++;
                        candidates.add(ref.objectKey());
                        candidates.add(bloomKey(ref));
                    } else {
                        refs.add(ref);
                        live.add(ref.objectKey());
                        live.add(bloomKey(ref));
                    }
                }
                kept.add(new SeriesChunks(s.labels(), refs));
            }
            contents.add(content);
            keptByPeriod.add(kept);
            droppedByPeriod.add(dropped);
        }
        candidates.removeAll(live);
        if (!candidates.isEmpty()) {
            writeMarker(tenant, nowMillis, candidates);
        }
        long filesRemoved = 0;
        long refsExpired = 0;
        for (int i = 0; i < contents.size(); i++) {
            IndexCompactor.PeriodContent content = contents.get(i);
            int dropped = droppedByPeriod.get(i);
            if (content.fileKeys().size() < 2 && dropped == 0) {
                continue;
            }
            boolean written = index.rewrite(content, keptByPeriod.get(i)).isPresent();
            filesRemoved += content.fileKeys().size() - (written ? 1 : 0);
            refsExpired += dropped;
        }
        metrics.indexFilesRemoved(filesRemoved);
        metrics.refsExpired(refsExpired);
        if (refsExpired > 0) {
            LOG.info("retention: tenant {} dropped {} expired refs, {} objects marked for deletion", tenant, refsExpired,
                    candidates.size());
        }
        return new PassResult(true, filesRemoved, refsExpired, 0, 0, 0, 0, 0, 0, 0);
    }

    /** Merges the tenant's small objects (after retention dropped its expired refs), never copying expired rows. */
    private PassResult mergeSmallObjects(String tenant, long nowMillis) throws IOException {
        long nowNanos = nowMillis * 1_000_000L;
        ObjectMerger.Outcome outcome = merger.merge(tenant, nowMillis, labels -> config.retentionEnabled()
                ? retention.cutoffNanos(tenant, labelMap(labels), nowNanos) : RetentionPolicy.KEEP_ALL);
        metrics.merged(outcome.objectsMerged(), outcome.objectsWritten());
        if (outcome.objectsMerged() > 0) {
            LOG.info("compaction: tenant {} merged {} small objects into {}", tenant, outcome.objectsMerged(),
                    outcome.objectsWritten());
        }
        return new PassResult(true, 0, 0, 0, 0, 0, 0, 0, outcome.objectsMerged(), outcome.objectsWritten());
    }

    private void writeMarker(String tenant, long nowMillis, Set<String> keys) throws IOException {
        ObjectNode node = json.createObjectNode();
        ArrayNode array = node.putArray("keys");
        keys.forEach(array::add);
        String key = String.format("%s%s/%013d-%d.json", MARKERS, tenant, nowMillis, markerSequence.incrementAndGet());
        store.put(key, json.writeValueAsBytes(node));
    }

    /** Deletes the marked objects of markers older than the delete delay that no index file references. */
    private PassResult sweep(long nowMillis) throws IOException {
        long objects = 0;
        long bytes = 0;
        Map<String, Set<String>> liveByTenant = new HashMap<>();
        for (String marker : store.list(MARKERS)) {
            String rest = marker.substring(MARKERS.length());
            int slash = rest.indexOf('/');
            int dash = rest.indexOf('-', slash + 1);
            if (slash <= 0 || dash < 0) {
                continue;
            }
            String tenant = rest.substring(0, slash);
            long markedAt;
            try {
                markedAt = Long.parseLong(rest.substring(slash + 1, dash));
            } catch (NumberFormatException e) {
                continue;
            }
            if (markedAt + config.retentionDeleteDelay().toMillis() > nowMillis) {
                continue;
            }
            Set<String> live = liveByTenant.get(tenant);
            if (live == null) {
                live = liveKeys(tenant);
                liveByTenant.put(tenant, live);
            }
            JsonNode keys = json.readTree(store.get(marker)).path("keys");
            for (JsonNode k : keys) {
                String key = k.asText();
                if (live.contains(key)) {
                    continue;
                }
                long size;
                try {
                    size = store.size(key);
                } catch (ObjectNotFoundException alreadyGone) {
                    continue;
                }
                store.delete(key);
                metrics.deleted(kind(key), size);
                objects++;
                bytes += size;
            }
            store.delete(marker);
        }
        return new PassResult(true, 0, 0, objects, bytes, 0, 0, 0, 0, 0);
    }

    /** Every object and bloom key the tenant's index files reference now. */
    private Set<String> liveKeys(String tenant) throws IOException {
        Set<String> live = new HashSet<>();
        for (var e : index.filesByPeriod(tenant).entrySet()) {
            for (SeriesChunks s : index.read(tenant, e.getKey(), e.getValue()).series()) {
                for (ChunkRef ref : s.chunks()) {
                    live.add(ref.objectKey());
                    live.add(bloomKey(ref));
                }
            }
        }
        return live;
    }

    private String bloomKey(ChunkRef ref) {
        return bloomKey(indexConfig, ref);
    }

    /** The key of the series bloom covering {@code ref}: the ingester buckets blooms by the ref's from-time period. */
    static String bloomKey(IndexConfig indexConfig, ChunkRef ref) {
        return BLOOMS + ref.tenant() + "/" + indexConfig.periodNumber(ref.fromNanos()) + "/"
                + String.format("%016x", ref.fingerprint()) + ".bloom";
    }

    private static String kind(String key) {
        if (key.startsWith(BLOOMS)) {
            return "bloom";
        }
        return key.endsWith(".lbo") ? "columnar" : "chunk";
    }

    private static Map<String, String> labelMap(Labels labels) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Label l : labels.list()) {
            map.put(l.name(), l.value());
        }
        return map;
    }

    /** Stops the loop (a running pass finishes its current step). */
    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.shutdownNow();
        }
    }

    /**
     * What one pass did.
     *
     * @param ran false when another compactor held the lease
     * @param indexFilesRemoved index files replaced or emptied
     * @param refsExpired refs dropped by retention (counted once per period file they were indexed in)
     * @param objectsDeleted objects deleted by the sweep
     * @param bytesDeleted their bytes
     * @param requestsProcessed delete requests applied and marked {@code processed}
     * @param objectsRewritten objects rewritten without deleted lines
     * @param linesDeleted lines physically removed by those rewrites
     * @param objectsMerged small objects replaced by merged ones
     * @param mergedObjectsWritten merged objects written for them
     */
    public record PassResult(boolean ran, long indexFilesRemoved, long refsExpired, long objectsDeleted,
            long bytesDeleted, long requestsProcessed, long objectsRewritten, long linesDeleted, long objectsMerged,
            long mergedObjectsWritten) {
        /** The result of a pass that did not run. */
        public static final PassResult SKIPPED = new PassResult(false, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        PassResult plus(PassResult o) {
            return new PassResult(ran && o.ran, indexFilesRemoved + o.indexFilesRemoved, refsExpired + o.refsExpired,
                    objectsDeleted + o.objectsDeleted, bytesDeleted + o.bytesDeleted,
                    requestsProcessed + o.requestsProcessed, objectsRewritten + o.objectsRewritten,
                    linesDeleted + o.linesDeleted, objectsMerged + o.objectsMerged,
                    mergedObjectsWritten + o.mergedObjectsWritten);
        }
    }
}
