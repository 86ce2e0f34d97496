package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarColumnInfo;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.ColumnarLineTokenView;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarNumberFilter;
import io.logbloom.chunks.ColumnarScanBuffers;
import io.logbloom.chunks.ColumnarValues;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.logql.ColumnarPipeline;
import io.logbloom.logql.LineCountQuery;
import io.logbloom.logql.StreamSamples;
import io.logbloom.logql.TokenizedLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Answers a {@link LineCountQuery} from the columns of the blocks a read plan covers, without building a log
 * entry: a stored block lying wholly inside one window region, with no line filter and no byte weight, is
 * answered from its directory row count (never fetched) once a scan has shown its timestamps strictly increasing;
 * any other block is fetched, its timestamp column scanned and, when a filter or the byte weight needs it, its
 * line column tested as UTF-8 bytes ({@link io.logbloom.logql.LineFilterBytes}); the rows passing are summed per
 * window region. Decoding runs on a bounded evaluation pool, at most {@code maxBlocksInFlight} blocks at once
 * (bounded memory), and results merge in plan order.
 *
 * <p>Caching: when the decoded blocks a query scans fit in half the block cache, each is kept there with its
 * inflated line sections (a dashboard re-running the query then only walks codes); when they do not, keeping them
 * would evict each other before any reuse, so the scan inflates every block's sections into per-thread
 * {@link ColumnarScanBuffers} and keeps nothing but the stored bytes the fetch caches.
 *
 * <p>Number proofs: a literal with an inner number ({@code |= "ts=1110000 "}) has no bloom token for that number, so
 * the first query searching a stored block for such a literal also builds the block's {@link ColumnarNumberFilter}
 * (from the sections the search just inflated) and keeps it in {@link BlockNumberFilters}, whose budget is a quarter
 * of the block cache's; a later query asks the kept filter before fetching the block ({@link NumberProof}) and skips
 * it when the filter lacks the number, counting it as a skipped chunk. A block whose search finds no row passing the
 * line filter is never read further (its timestamps are decoded only to count its rows in range, when it straddles
 * the range's ends).
 *
 * <p>Exactness: the row-at-a-time path drops a row repeating the timestamp and line of another row of its
 * series. A repeat needs equal timestamps, so: a scanned block drops repeats among rows of equal timestamp; a
 * block is answered from its row count only when its timestamps are known to be strictly increasing (the
 * directory's flag, written since columnar version 3, or {@link DistinctTimestampBlocks} learned by a scan of an
 * older object); and this counter declines (the engine then reads entries) whenever a
 * repeat could span two of a series' blocks, parts or in-memory runs, i.e. whenever their time ranges touch. A
 * {@code by} naming a structured-metadata key over line filters only ({@code sum by (detected_level)}, a
 * level-volume panel's query) splits the rows by the key's values ({@link MetadataGroups}): such a block is read whole
 * and its metadata decoded; so is a block holding a key the query's pipeline reads (a level filter before parsers),
 * whose rows' values the pipeline is handed. The counter declines when structured metadata would become a label of
 * the result otherwise (no grouping at all, a {@code by} naming the key beside a pipeline, a key that also names a
 * stream label), when a series
 * has row chunks of the first engine, and when a block's rows are not in time order.
 *
 * <p>Thread-safe: per-call state only; the pools, caches and collaborators are thread-safe.
 */
final class ColumnarLineCounter {
    /**
     * Literal filters answered on tokens through a truth table of 2^n entries; a chain with more distinct literals
     * reads the lines (such chains are rare and long).
     */
    private static final int MAX_TABLE_LITERALS = 10;
    private final ColumnarBlockSegments columnar;
    private final ExecutorService evalPool;
    private final int maxBlocksInFlight;
    private final QuerierMetrics metrics;
    private final DistinctTimestampBlocks distinct = new DistinctTimestampBlocks();
    /** Per evaluation thread: the sections a scan inflates without keeping them. */
    private final ThreadLocal<ColumnarScanBuffers> scratch = ThreadLocal.withInitial(ColumnarScanBuffers::new);
    private final BlockNumberFilters numberFilters;

    /**
     * A counter over {@code columnar}'s blocks, evaluating on {@code evalPool} at most {@code maxBlocksInFlight} at
     * once; {@code numberFilters} false keeps no number filter (blooms off: every block is scanned).
     */
    ColumnarLineCounter(ColumnarBlockSegments columnar, ExecutorService evalPool, int maxBlocksInFlight,
            boolean numberFilters, QuerierMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.columnar = Objects.requireNonNull(columnar, "columnar is null");
        this.evalPool = Objects.requireNonNull(evalPool, "evalPool is null");
        if (maxBlocksInFlight < 1) {
            throw new IllegalArgumentException("maxBlocksInFlight must be >= 1: " + maxBlocksInFlight);
        }
        this.maxBlocksInFlight = maxBlocksInFlight;
        this.numberFilters = new BlockNumberFilters(numberFilters ? columnar.blockCacheBytes() / 4 : 0);
    }

    /** One source of rows of a series: a block (of a stored object, or of a local part) or the rows in memory. */
    private sealed interface Unit permits Block, Memory {
        long minNanos();

        long maxNanos();
    }

    /**
     * Block {@code block} of the object or part {@code name}; {@code part} is null for a stored object (fetched
     * through the block cache) and the part for a local file (read from disk).
     */
    private record Block(String name, ColumnarDirectory directory, int block, ColumnarBlockInfo info,
            ColumnarFileStream part) implements Unit {
        @Override
        public long minNanos() {
            return info.minTimeNanos();
        }

        @Override
        public long maxNanos() {
            return info.maxTimeNanos();
        }
    }

    private record Memory(List<LogEntry> entries, long minNanos, long maxNanos) implements Unit {}

    /** Region sums of one unit; {@code declined} when its rows cannot be counted exactly here. */
    private static final class Sums {
        static final Sums DECLINED = new Sums();

        /** No sums, for a block found damaged (left out of the answer). */
        static Sums damaged() {
            Sums none = new Sums();
            none.damaged = true;
            return none;
        }

        long[] timestamps = new long[4];
        double[] values = new double[4];
        int size;
        /** Set by a block scan: whether every row's timestamp exceeds the previous one's. */
        boolean distinctTimestamps;
        /** Whether the scan walked every row's timestamp, so {@link #distinctTimestamps} is known. */
        boolean timestampsKnown;
        /** Set by a block scan that found the block damaged (it was left out). */
        boolean damaged;
        /**
         * When the pipeline groups rows by parsed labels: each group's parsed {@code by} labels and sums (rows in no
         * group are in this object's own sums); else null.
         */
        List<Map<String, String>> groupLabels;
        List<Sums> groupSums;

        /**
         * What these sums hold until the blocks' sums are merged, in samples of the query's budget: the samples'
         * arrays and each group's own ({@link LineCountQuery#GROUP_SAMPLES} beside them).
         */
        long heldSamples() {
            long held = timestamps.length;
            for (int g = 0; groupSums != null && g < groupSums.size(); g++) {
                held += LineCountQuery.GROUP_SAMPLES + groupSums.get(g).timestamps.length;
            }
            return held;
        }

        void add(long ts, double value) {
            if (size == timestamps.length) {
                timestamps = Arrays.copyOf(timestamps, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            timestamps[size] = ts;
            values[size++] = value;
        }
    }

    /** The per-stream samples of {@code query} over {@code plan}, or empty when they cannot be counted exactly. */
    Optional<List<StreamSamples>> count(QueryContext ctx, StoreReader.Plan plan, LineCountQuery query)
            throws IOException {
        Optional<List<StreamSamples>> out = tryCount(ctx, plan, query);
        metrics.columnarCount(out.isPresent());
        return out;
    }

    private Optional<List<StreamSamples>> tryCount(QueryContext ctx, StoreReader.Plan plan, LineCountQuery query)
            throws IOException {
        // a method per series, not loops in this one: this runs once a query, so when a large store makes its loops
        // long the JIT compiles them on the stack, and the whole method with them (C2 busy for 0.36 s and 0.93 s
        // during a first count over a 3 M-line load, under -XX:+LogCompilation); the per-series methods run often
        // enough in the start-up warm-up to be compiled before
        Map<Labels, List<Unit>> units = new LinkedHashMap<>();
        Map<Labels, List<String>> groupKeys = new HashMap<>();
        for (Map.Entry<Labels, List<ChunkRef>> e : plan.refs().entrySet()) {
            Set<String> keys = new TreeSet<>();
            List<Unit> list = unitsOf(e.getKey(), e.getValue(), plan, query, keys);
            if (list == null) {
                return Optional.empty();
            }
            units.put(e.getKey(), list);
            groupKeys.put(e.getKey(), List.copyOf(keys));
        }
        Map<Labels, List<Sums>> sums = evaluate(ctx, units, groupKeys, query);
        if (sums == null) {
            return Optional.empty();
        }
        List<StreamSamples> out = new ArrayList<>(sums.size());
        for (Map.Entry<Labels, List<Sums>> e : sums.entrySet()) {
            addSamples(e.getKey(), e.getValue(), out);
        }
        return Optional.of(out);
    }

    /**
     * Adds the samples of one stream's sums to {@code out}: one series per group of parsed by-labels, the stream labels
     * plus the group's labels.
     */
    private static void addSamples(Labels stream, List<Sums> sums, List<StreamSamples> out) {
        Map<String, String> base = labelMap(stream);
        Map<Map<String, String>, List<Sums>> series = new LinkedHashMap<>();
        List<Sums> plain = new ArrayList<>(sums.size());
        series.put(base, plain); // looked up once: hashing the label map per block cost a plain count 1/10 of its time
        for (Sums s : sums) {
            plain.add(s);
            for (int g = 0; s.groupLabels != null && g < s.groupLabels.size(); g++) {
                Map<String, String> labels = new LinkedHashMap<>(base);
                labels.putAll(s.groupLabels.get(g));
                series.computeIfAbsent(labels, k -> new ArrayList<>()).add(s.groupSums.get(g));
            }
        }
        for (Map.Entry<Map<String, String>, List<Sums>> one : series.entrySet()) {
            out.add(samples(one.getKey(), one.getValue()));
        }
    }

    /**
     * The units (blocks, in-memory rows) of one series, or null when the count must be declined: a row chunk, a metadata
     * column the query's grouping or pipeline needs, a pipeline that does not group safely, units overlapping in time.
     */
    private List<Unit> unitsOf(Labels series, List<ChunkRef> refs, StoreReader.Plan plan, LineCountQuery query,
            Set<String> groupKeys) throws IOException {
        List<Unit> list = new ArrayList<>();
        for (ChunkRef ref : refs) {
            if (!ref.isColumnar()) {
                return null;
            }
            ColumnarDirectory directory = columnar.directory(ref.objectKey());
            int[] blocks = plan.blocks().get(ref);
            if (blocks == null) {
                throw new IllegalStateException("BUG: no block list for columnar ref " + ref.objectKey());
            }
            for (int b : blocks) {
                list.add(new Block(ref.objectKey(), directory, b, directory.blocks().get(b), null));
            }
        }
        for (ColumnarFileStream part : plan.parts().getOrDefault(series, List.of())) {
            for (int b : part.blocksIn(query.fromNanos(), query.throughNanos())) {
                list.add(new Block(part.file().toString(), part.directory(), b, part.directory().blocks().get(b),
                        part));
            }
        }
        List<LogEntry> memory = plan.memory().get(series);
        if (memory != null && !memory.isEmpty()) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (LogEntry entry : memory) {
                min = Math.min(min, entry.timestampNanos());
                max = Math.max(max, entry.timestampNanos());
                for (Label l : entry.metadata()) {
                    if (!groupable(series, l.name(), query, groupKeys)) {
                        return null;
                    }
                }
            }
            list.add(new Memory(memory, min, max));
        }
        for (Unit u : list) {
            if (u instanceof Block b && !metadataGroupable(b.info(), series, query, groupKeys)) {
                return null;
            }
        }
        if (query.pipeline() != null && !query.pipeline().groupsSafely(labelMap(series))) {
            return null;
        }
        if (overlap(list)) {
            return null;
        }
        return list;
    }

    private static StreamSamples samples(Map<String, String> labels, List<Sums> parts) {
        int size = 0;
        for (Sums s : parts) {
            size += s.size;
        }
        long[] ts = new long[size];
        double[] values = new double[size];
        int n = 0;
        for (Sums s : parts) {
            System.arraycopy(s.timestamps, 0, ts, n, s.size);
            System.arraycopy(s.values, 0, values, n, s.size);
            n += s.size;
        }
        return new StreamSamples(labels, ts, values, size);
    }

    private static Map<String, String> labelMap(Labels labels) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Label l : labels.list()) {
            out.put(l.name(), l.value());
        }
        return out;
    }

    /** Whether every metadata column of a block is {@link #groupable}. */
    private static boolean metadataGroupable(ColumnarBlockInfo info, Labels series, LineCountQuery query,
            Set<String> groupKeys) {
        for (ColumnarColumnInfo column : info.columns()) {
            if (column.kind() == ColumnarColumnInfo.Kind.METADATA
                    && !groupable(series, column.key(), query, groupKeys)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether rows carrying structured metadata {@code key} can be counted here, adding the key to {@code groupKeys}
     * when its values split the rows into result series: a {@code sum by (detected_level)} over line filters counts
     * each value's rows apart (a level-volume panel's query). A pipeline reading the key (Logs Drilldown's level filter,
     * {@code | detected_level="error" | json | …}) is handed each row's value ({@link RowPipeline#metadataOf}), also for
     * a {@code by} naming the key when the pipeline groups rows by it (it has a parser, which may replace the value:
     * Drilldown's level volume once a field filter is set); a pipeline without a parser cannot replace the value, so a
     * {@code by} naming the key splits the rows by its column as without one (the level volume once levels are picked,
     * {@code sum by (detected_level) (… | detected_level=~"error|warn" …)}). The count declines when the key matters
     * otherwise (no grouping, an error label) or names a stream label too (the row path then renames it {@code
     * key_extracted}).
     */
    private static boolean groupable(Labels series, String key, LineCountQuery query, Set<String> groupKeys) {
        if (series.get(key) != null) {
            return !query.labelMatters(key) && !query.labelMatters(key + "_extracted");
        }
        if (!query.labelMatters(key)) {
            return true;
        }
        if (query.groupedLabels() == null) {
            return false;
        }
        if (query.pipeline() != null) {
            if (ColumnarPipeline.isErrorLabel(key)) {
                return false;
            }
            if (!query.groupedLabels().contains(key) || query.pipeline().groupsRowsBy(key)) {
                return true; // read by the pipeline, or a by name whose groups it forms (a parser may set the name)
            }
            if (query.pipeline().parses()) {
                return false;
            }
            // no parser can replace the key's value: its column splits the rows, as without a pipeline
        }
        groupKeys.add(key);
        return true;
    }

    /** Whether a block holds a metadata column the query's pipeline reads. */
    private static boolean pipelineReadsMetadata(ColumnarBlockInfo info, LineCountQuery query) {
        if (query.pipeline() == null) {
            return false;
        }
        for (ColumnarColumnInfo column : info.columns()) {
            if (column.kind() == ColumnarColumnInfo.Kind.METADATA && query.pipeline().reads(column.key())) {
                return true;
            }
        }
        return false;
    }

    /** Whether two units of one series overlap in time (a repeated row could then span them). */
    private static boolean overlap(List<Unit> units) {
        List<Unit> sorted = new ArrayList<>(units);
        sorted.sort(Comparator.comparingLong(Unit::minNanos));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).minNanos() <= sorted.get(i - 1).maxNanos()) {
                return true;
            }
        }
        return false;
    }

    /** Every unit's sums, per series in plan order; null when a unit declined. */
    private Map<Labels, List<Sums>> evaluate(QueryContext ctx, Map<Labels, List<Unit>> units,
            Map<Labels, List<String>> groupKeys, LineCountQuery query) throws IOException {
        Map<Labels, List<Sums>> out = new LinkedHashMap<>();
        long fromDirectoryCount = 0;
        boolean keep = keepDecoded(units, query);
        NumberProof proof = query.filter().acceptsAll() ? null : NumberProof.of(query.filter());
        Map<String, BlockNumberFilters.ObjectFilters> filtersByObject = new HashMap<>();
        Deque<CompletableFuture<Sums>> inFlight = new ArrayDeque<>();
        List<Sums[]> slots = new ArrayList<>();
        Deque<Runnable> pending = new ArrayDeque<>();
        for (Map.Entry<Labels, List<Unit>> e : units.entrySet()) {
            Sums[] results = new Sums[e.getValue().size()];
            slots.add(results);
            List<Sums> view = Arrays.asList(results);
            out.put(e.getKey(), view);
            for (int i = 0; i < results.length; i++) {
                Unit unit = e.getValue().get(i);
                List<String> keys = groupKeys.get(e.getKey());
                Sums fromDirectory = unit instanceof Block b && groupedByMetadata(b.info(), keys) ? null
                        : fromDirectory(ctx, unit, query);
                if (fromDirectory != null) {
                    results[i] = fromDirectory;
                    fromDirectoryCount++;
                    continue;
                }
                if (ruledOut(ctx, unit, proof, filtersByObject)) {
                    results[i] = new Sums();
                    continue;
                }
                int index = i;
                Labels series = e.getKey();
                pending.add(() -> {
                    CompletableFuture<Sums> f = start(ctx, series, unit, query, keep, proof, keys);
                    ctx.track(f);
                    inFlight.add(f.thenApply(s -> results[index] = s));
                });
            }
        }
        long scanned = pending.size();
        long held = 0;
        while (!pending.isEmpty() || !inFlight.isEmpty()) {
            while (!pending.isEmpty() && inFlight.size() < maxBlocksInFlight) {
                pending.poll().run();
            }
            Sums done = ctx.await(inFlight.poll());
            if (done == Sums.DECLINED) {
                return null;
            }
            held += done.heldSamples();
            if (held > query.maxSamples()) {
                // the blocks' sums are kept until they are merged: a count grouped by a value of nearly every row
                // would hold a series per row and block; the engine reads the entries within the query's budget
                return null;
            }
        }
        metrics.columnarBlocks(fromDirectoryCount, scanned);
        return out;
    }

    /**
     * Whether the kept number filter of a stored block proves no row of it passes the line filter (counted as a
     * skipped chunk); false when there is no proof to try or no filter kept.
     */
    private boolean ruledOut(QueryContext ctx, Unit unit, NumberProof proof,
            Map<String, BlockNumberFilters.ObjectFilters> filtersByObject) {
        if (proof == null || !(unit instanceof Block b) || b.part() != null) {
            return false;
        }
        BlockNumberFilters.ObjectFilters filters = filtersByObject.computeIfAbsent(b.name(), numberFilters::of);
        ColumnarNumberFilter filter = filters == null ? null : filters.get(b.block());
        if (filter == null || !proof.rulesOut(filter)) {
            return false;
        }
        ctx.stats.chunksSkipped.increment();
        ctx.stats.bytesSkipped.add(b.info().length());
        return true;
    }

    /**
     * Whether the stored blocks {@code units} hold, decoded with their line sections, fit in half the block cache
     * (see the class comment); blocks the directory answers are counted too, which errs towards not keeping.
     */
    private boolean keepDecoded(Map<Labels, List<Unit>> units, LineCountQuery query) {
        long budget = columnar.blockCacheBytes() / 2;
        long weight = 0;
        for (List<Unit> list : units.values()) {
            for (Unit u : list) {
                if (u instanceof Block b && b.part() == null) {
                    ColumnarBlockInfo info = b.info();
                    weight += info.length() + 8L * info.rows() + 2 * info.rawBytes();
                    if (weight > budget) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Whether block {@code block} of object {@code name} is known to hold strictly increasing timestamps. */
    private boolean distinctTimestamps(String name, int block, ColumnarBlockInfo info) {
        return info.distinctTimestamps() || distinct.isDistinct(name, block);
    }

    /** A unit answered from its directory entry alone, or null when its rows must be read. */
    private Sums fromDirectory(QueryContext ctx, Unit unit, LineCountQuery query) {
        if (!query.filter().acceptsAll() || query.lineBytes() || query.pipeline() != null || !(unit instanceof Block s)
                || s.part() != null
                || !distinctTimestamps(s.name(), s.block(), s.info())) {
            return null;
        }
        ColumnarBlockInfo info = s.info();
        if (info.minTimeNanos() <= query.fromNanos() || info.maxTimeNanos() >= query.throughNanos()
                || query.region(info.minTimeNanos()) != query.region(info.maxTimeNanos())) {
            return null;
        }
        Sums sums = new Sums();
        sums.add(info.maxTimeNanos(), info.rows());
        ctx.stats.decompressedLines.add(info.rows());
        ctx.stats.decompressedBytes.add(info.rawBytes());
        return sums;
    }

    private CompletableFuture<Sums> start(QueryContext ctx, Labels series, Unit unit, LineCountQuery query,
            boolean keep, NumberProof proof, List<String> groupKeys) {
        if (unit instanceof Memory m) {
            return CompletableFuture.completedFuture(countMemory(ctx, rows(series, query), m.entries(), query,
                    groupKeys));
        }
        Block b = (Block) unit;
        RowPipeline rows = rows(series, query);
        boolean stored = b.part() == null;
        if (groupedByMetadata(b.info(), groupKeys) || pipelineReadsMetadata(b.info(), query)) {
            return startWithMetadata(ctx, b, rows, query, proof, groupKeys);
        }
        ColumnarBlock cached = stored ? columnar.cachedLinesBlock(ctx, b.name(), b.info()) : null;
        if (cached != null) {
            return CompletableFuture.supplyAsync(() -> count(ctx, b, cached, rows, query, true, keep, true, proof,
                    List.of()), evalPool);
        }
        CompletableFuture<byte[]> bytes = stored ? columnar.fetchTimestampsAndLines(ctx, b.name(), b.info())
                : readPart(b, b.info().timestampsAndLinesLength());
        return bytes.thenApplyAsync(fetched -> {
            ColumnarBlock block = decode(b, fetched, false);
            if (block == null) {
                return new Sums();
            }
            Sums sums = count(ctx, b, block, rows, query, stored, keep && stored, false, proof, List.of());
            if (keep && stored && !sums.damaged) {
                columnar.rememberLinesBlock(b.name(), b.info(), block);
            }
            return sums;
        }, evalPool);
    }

    /**
     * Counts one block whose rows are split by the values of its metadata columns {@code groupKeys}, or whose metadata
     * the pipeline ({@code rows}) reads: the whole block read (a stored one through the cache, as a log query reads
     * it) and its metadata decoded; the decoded block is not kept (the cache's lines-only blocks have no metadata).
     */
    private CompletableFuture<Sums> startWithMetadata(QueryContext ctx, Block b, RowPipeline rows,
            LineCountQuery query, NumberProof proof, List<String> groupKeys) {
        boolean stored = b.part() == null;
        CompletableFuture<byte[]> bytes = stored ? columnar.fetch(ctx, b.name(), b.info(), false)
                : readPart(b, b.info().length());
        return bytes.thenApplyAsync(fetched -> {
            ColumnarBlock block = decode(b, fetched, true);
            if (block == null) {
                return new Sums();
            }
            return count(ctx, b, block, rows, query, stored, false, false, proof, groupKeys);
        }, evalPool);
    }

    /** Whether a block holds a column of one of the metadata keys that split rows into result series. */
    private static boolean groupedByMetadata(ColumnarBlockInfo info, List<String> groupKeys) {
        for (String key : groupKeys) {
            if (info.metadata(key) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Counts one block (see {@link #countBlock}); for a query with a number proof, a stored block's number filter is
     * then built (from the sections the search left in this thread's scratch, or those the block keeps) and kept.
     */
    private Sums count(QueryContext ctx, Block b, ColumnarBlock block, RowPipeline rows, LineCountQuery query,
            boolean stored, boolean keep, boolean cached, NumberProof proof, List<String> groupKeys) {
        MetadataGroups groups;
        try {
            groups = groupKeys.isEmpty() ? null : MetadataGroups.ofBlock(query, groupKeys, block);
        } catch (UncheckedIOException e) { // a metadata column is decoded on first use
            columnar.damaged(b.name(), b.block(), e.getCause().getMessage());
            return Sums.damaged();
        }
        Sums sums = countBlock(ctx, b.name(), b.block(), block, rows, query, stored, keep, cached, groups);
        if (stored && sums != Sums.DECLINED && !sums.damaged) {
            if (sums.timestampsKnown) {
                distinct.record(b.name(), b.block(), sums.distinctTimestamps);
            }
            BlockNumberFilters.ObjectFilters kept = proof == null ? null : numberFilters.of(b.name());
            if (proof != null && numberFilters.enabled() && (kept == null || kept.get(b.block()) == null)) {
                try {
                    ColumnarNumberFilter filter = block.numberFilter(keep ? null : scratch.get());
                    if (filter != null) {
                        numberFilters.put(b.name(), b.directory().blocks().size(), b.block(), filter);
                    }
                } catch (UncheckedIOException e) {
                    columnar.damaged(b.name(), b.block(), e.getCause().getMessage());
                }
            }
        }
        return sums;
    }

    /** Block {@code b} decoded from its fetched bytes, with its metadata when {@code metadata}; null when damaged. */
    private ColumnarBlock decode(Block b, byte[] bytes, boolean metadata) {
        try {
            return columnar.decodeBlock(b.name(), b.directory(), b.block(), bytes, metadata);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code length} bytes of block {@code b} of a local part, read on the evaluation pool. */
    private CompletableFuture<byte[]> readPart(Block b, long length) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return ColumnarBlockSegments.readFile(b.part(), b.info(), length);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read part " + b.name() + ": " + e.getMessage(), e);
            }
        }, evalPool);
    }

    /** The evaluator of the query's pipeline for one series' rows, or null when line filters are the whole pipeline. */
    private RowPipeline rows(Labels series, LineCountQuery query) {
        return query.pipeline() == null ? null
                : new RowPipeline(query.pipeline().evaluator(labelMap(series)), query, metrics);
    }

    /**
     * Scans one decoded block: time bounds, repeats within equal timestamps, filter on line bytes, the rest of the
     * pipeline ({@code rows}, may be null) on those bytes or tokens, region sums. A block from the block cache
     * ({@code cached}) is read on its decoded lines, which it then keeps: a byte walk over kept lines costs less than
     * a token walk, and the cache held the block because queries reuse it; a block fetched for this query alone
     * runs a logfmt pipeline on its tokens, never rebuilding the lines. The line sections a literal search inflates
     * are kept by the block when {@code keep}, else inflated into this thread's scratch.
     */
    private Sums countBlock(QueryContext ctx, String name, int index, ColumnarBlock block, RowPipeline rows,
            LineCountQuery query, boolean stored, boolean keep, boolean cached, MetadataGroups groups) {
        Sums sums = new Sums();
        RegionSum acc = new RegionSum(query, sums);
        long inRange = 0;
        boolean strict = true;
        try {
            if (rows != null) {
                rows.metadataOf(block); // a metadata column is decoded here, on first use
            }
            // a pipeline of logfmt, json, error drops and label filters runs on the line column's tokens, rebuilding
            // only the lines json may read
            List<byte[]> chain = query.filter().literals();
            if (chain != null && chain.size() > MAX_TABLE_LITERALS) {
                chain = null;
            }
            TokenizedLines tokens = !cached && rows != null && query.pipeline().onTokens() && chain != null
                    ? tokens(block) : null;
            List<byte[]> literals = (query.lineBytes() || rows != null) && tokens == null ? null : chain;
            boolean onTokens = literals != null && !literals.isEmpty();
            boolean needLines = !onTokens && tokens == null
                    && (!query.filter().acceptsAll() || query.lineBytes() || rows != null);
            // literal filters are answered on the line column's tokens, without rebuilding the lines
            boolean[][] hits = onTokens ? new boolean[literals.size()][] : null;
            ColumnarScanBuffers buffers = onTokens && !keep ? scratch.get() : null;
            for (int i = 0; onTokens && i < hits.length; i++) {
                hits[i] = block.rowsContaining(literals.get(i), buffers);
            }
            // whether a row passes, by which literals it contains (bit k: literal k), so the row loop does not
            // evaluate the chain per row
            boolean[] passes = onTokens ? truthTable(query, hits.length) : null;
            if (onTokens && noneHit(hits) && !passes[0]) {
                // no row passes the line filter (a needle's every other block): nothing more to read
                inRange = rowsInRange(block, query);
                if (rows != null) {
                    rows.close(sums, ctx);
                }
                addReadStats(ctx, block, inRange, stored);
                return sums;
            }
            ColumnarBlockInfo info = block.info();
            if (onTokens && rows == null && tokens == null && stored && distinctTimestamps(name, index, info)
                    && info.minTimeNanos() > query.fromNanos() && info.maxTimeNanos() < query.throughNanos()
                    && query.region(info.minTimeNanos()) == query.region(info.maxTimeNanos())) {
                // every row in range, no repeats, one window region: the count needs no timestamp
                long passing = 0;
                for (int row = 0; row < block.rows(); row++) {
                    if (!passes[literalsIn(hits, row)]) {
                        continue;
                    }
                    if (groups == null) {
                        passing++;
                    } else {
                        groups.ofRow(row, acc).add(info.maxTimeNanos(), 1);
                    }
                }
                if (passing > 0) {
                    acc.add(info.maxTimeNanos(), passing);
                }
                acc.flush();
                if (groups != null) {
                    groups.close(sums);
                }
                sums.distinctTimestamps = true;
                sums.timestampsKnown = true;
                addReadStats(ctx, block, block.rows(), stored);
                return sums;
            }
            ColumnarLines lines = needLines ? block.lines() : null;
            long previous = Long.MIN_VALUE;
            int runStart = 0;
            for (int row = 0; row < block.rows(); row++) {
                long ts = block.timestampNanos(row);
                if (ts < previous) {
                    return Sums.DECLINED;
                }
                if (ts != previous) {
                    runStart = row;
                    previous = ts;
                } else {
                    strict = false;
                    if (lines == null) {
                        lines = block.lines();
                    }
                    if (repeats(lines, runStart, row)) {
                        continue;
                    }
                }
                if (ts <= query.fromNanos() || ts >= query.throughNanos()) {
                    continue;
                }
                inRange++;
                if (onTokens && !passes[literalsIn(hits, row)]) {
                    continue;
                }
                if (tokens != null) {
                    tokens.skipTo(row);
                    rows.metadataRow(row);
                    if (!rows.add(groups == null ? acc : groups.ofRow(row, acc), ts, tokens)) {
                        return Sums.DECLINED;
                    }
                } else if (onTokens) {
                    (groups == null ? acc : groups.ofRow(row, acc)).add(ts, 1);
                } else if (needLines) {
                    int offset = lines.offset(row);
                    int length = lines.length(row);
                    if (!query.filter().test(lines.bytes(), offset, length)) {
                        continue;
                    }
                    if (rows == null) {
                        (groups == null ? acc : groups.ofRow(row, acc)).add(ts, query.lineBytes() ? length : 1);
                    } else {
                        rows.metadataRow(row);
                        if (!rows.add(groups == null ? acc : groups.ofRow(row, acc), ts, lines.bytes(), offset,
                                length)) {
                            return Sums.DECLINED;
                        }
                    }
                } else {
                    (groups == null ? acc : groups.ofRow(row, acc)).add(ts, 1);
                }
            }
        } catch (UncheckedIOException e) {
            columnar.damaged(name, index, e.getCause().getMessage());
            return Sums.damaged();
        }
        acc.flush();
        if (groups != null) {
            groups.close(sums);
        }
        if (rows != null) {
            rows.close(sums, ctx);
        }
        sums.distinctTimestamps = strict;
        sums.timestampsKnown = true;
        addReadStats(ctx, block, inRange, stored);
        return sums;
    }

    /** Counts {@code inRange} rows of {@code block} read, with their share of its raw bytes. */
    private static void addReadStats(QueryContext ctx, ColumnarBlock block, long inRange, boolean stored) {
        ColumnarBlockInfo info = block.info();
        long bytes = block.rows() == 0 ? 0 : info.rawBytes() * inRange / block.rows();
        if (stored) {
            ctx.stats.decompressedLines.add(inRange);
            ctx.stats.decompressedBytes.add(bytes);
        } else {
            ctx.stats.headChunkLines.add(inRange);
            ctx.stats.headChunkBytes.add(bytes);
        }
    }

    /**
     * Whether a row passes the query's literal line filters, indexed by the literals it contains (bit k set: it
     * contains literal k); {@code literals} is at most {@link #MAX_TABLE_LITERALS}.
     */
    private static boolean[] truthTable(LineCountQuery query, int literals) {
        if (literals > MAX_TABLE_LITERALS) {
            throw new IllegalStateException("BUG: " + literals + " literals, the table holds at most "
                    + MAX_TABLE_LITERALS);
        }
        boolean[] passes = new boolean[1 << literals];
        for (int present = 0; present < passes.length; present++) {
            int bits = present;
            passes[present] = query.filter().test(k -> (bits & (1 << k)) != 0);
        }
        return passes;
    }

    /** The literals row {@code row} contains, as bits (bit k: literal k). */
    private static int literalsIn(boolean[][] hits, int row) {
        int bits = 0;
        for (int k = 0; k < hits.length; k++) {
            bits |= hits[k][row] ? 1 << k : 0;
        }
        return bits;
    }

    /** Whether no row contains any of the literals. */
    private static boolean noneHit(boolean[][] hits) {
        for (boolean[] rows : hits) {
            for (boolean hit : rows) {
                if (hit) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The rows of {@code block} inside the query's range (exclusive at both ends, as the scan counts them): all of
     * them when the block lies inside, else counted on its timestamps.
     */
    private static long rowsInRange(ColumnarBlock block, LineCountQuery query) {
        ColumnarBlockInfo info = block.info();
        if (info.minTimeNanos() > query.fromNanos() && info.maxTimeNanos() < query.throughNanos()) {
            return block.rows();
        }
        long n = 0;
        for (int row = 0; row < block.rows(); row++) {
            long ts = block.timestampNanos(row);
            n += ts > query.fromNanos() && ts < query.throughNanos() ? 1 : 0;
        }
        return n;
    }

    /** A cursor over the block's tokenized line column, or null when the column is not tokenized. */
    private static TokenizedLines tokens(ColumnarBlock block) {
        ColumnarLineTokenView view = block.tokens();
        return view == null ? null : new TokenizedLines(view.dictionary(), view.tokenStarts(), view.tokenLengths(),
                view.codes(), view.numbers(), view.rows());
    }

    /** Whether row {@code row}'s line equals the line of a row in [runStart, row) (rows of one timestamp). */
    private static boolean repeats(ColumnarLines lines, int runStart, int row) {
        byte[] bytes = lines.bytes();
        int offset = lines.offset(row);
        int length = lines.length(row);
        for (int r = runStart; r < row; r++) {
            if (lines.length(r) == length
                    && Arrays.equals(bytes, lines.offset(r), lines.offset(r) + length, bytes, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    private static Sums countMemory(QueryContext ctx, RowPipeline rows, List<LogEntry> entries, LineCountQuery query,
            List<String> groupKeys) {
        Sums sums = new Sums();
        RegionSum acc = new RegionSum(query, sums);
        MetadataGroups groups = groupKeys.isEmpty() ? null : new MetadataGroups(query, groupKeys, null);
        long previous = Long.MIN_VALUE;
        int runStart = 0;
        for (int i = 0; i < entries.size(); i++) {
            LogEntry e = entries.get(i);
            long ts = e.timestampNanos();
            if (ts < previous) {
                return Sums.DECLINED;
            }
            if (ts != previous) {
                runStart = i;
                previous = ts;
            } else {
                boolean repeat = false;
                for (int r = runStart; r < i && !repeat; r++) {
                    repeat = entries.get(r).line().equals(e.line());
                }
                if (repeat) {
                    continue;
                }
            }
            if (ts <= query.fromNanos() || ts >= query.throughNanos()) {
                continue;
            }
            byte[] line = e.line().getBytes(StandardCharsets.UTF_8);
            if (!query.filter().test(line, 0, line.length)) {
                continue;
            }
            if (rows == null) {
                (groups == null ? acc : groups.ofEntry(e, acc)).add(ts, query.lineBytes() ? line.length : 1);
            } else {
                rows.metadataOf(e);
                if (!rows.add(groups == null ? acc : groups.ofEntry(e, acc), ts, line, 0, line.length)) {
                    return Sums.DECLINED;
                }
            }
        }
        acc.flush();
        if (groups != null) {
            groups.close(sums);
        }
        if (rows != null) {
            rows.close(sums, ctx);
        }
        ctx.stats.headChunkLines.add(entries.size());
        ctx.stats.headChunkBytes.add(StoreReader.lineBytes(entries));
        ctx.stats.headChunkStructuredMetadataBytes.add(StoreReader.metadataBytes(entries));
        return sums;
    }

    /**
     * Runs the query's {@link ColumnarPipeline} on the rows of one series' unit and adds the samples that pass, each
     * to its group's sums when the pipeline groups rows by parsed labels; counts rows answered on bytes, on tokens
     * and decoded into the metrics when closed. Not thread-safe.
     */
    private static final class RowPipeline {
        private final ColumnarPipeline.Evaluator evaluator;
        private final LineCountQuery query;
        private final QuerierMetrics metrics;
        /** Per group id of the evaluator: its region sums. */
        private final List<RegionSum> groups = new ArrayList<>();
        /** Per metadata key the evaluator was asked about: its slot (-1: not read). */
        private final Map<String, Integer> slots = new HashMap<>();
        /** The slots the current block's columns (or an entry's labels) feed, and a block's columns, in step. */
        private int[] fed = new int[0];
        private ColumnarValues[] columns = new ColumnarValues[0];

        RowPipeline(ColumnarPipeline.Evaluator evaluator, LineCountQuery query, QuerierMetrics metrics) {
            this.evaluator = evaluator;
            this.query = query;
            this.metrics = metrics;
        }

        /** Adds the row's sample if it passes; false when the row cannot be answered here (the query declines). */
        boolean add(RegionSum acc, long ts, byte[] bytes, int offset, int length) {
            return added(acc, ts, evaluator.evaluate(ts, bytes, offset, length));
        }

        private boolean added(RegionSum acc, long ts, int verdict) {
            if (verdict == ColumnarPipeline.PASS) {
                target(acc).add(ts, evaluator.value());
            }
            return verdict != ColumnarPipeline.DECLINE;
        }

        private RegionSum target(RegionSum acc) {
            if (!evaluator.grouping()) {
                return acc;
            }
            int g = evaluator.group();
            while (groups.size() <= g) {
                groups.add(new RegionSum(query, new Sums()));
            }
            return groups.get(g);
        }

        /** Takes the metadata the pipeline reads from {@code block}'s columns for the rows {@link #metadataRow} names. */
        void metadataOf(ColumnarBlock block) {
            clearFed();
            List<Integer> into = new ArrayList<>();
            List<ColumnarValues> from = new ArrayList<>();
            for (String key : block.keys()) {
                int slot = slot(key);
                if (slot >= 0) {
                    into.add(slot);
                    from.add(block.metadata(key));
                }
            }
            fed = into.stream().mapToInt(Integer::intValue).toArray();
            columns = from.toArray(new ColumnarValues[0]);
        }

        /** Hands the evaluator row {@code row}'s values of the block's metadata it reads. */
        void metadataRow(int row) {
            for (int i = 0; i < columns.length; i++) {
                evaluator.metadata(fed[i], columns[i].value(row));
            }
        }

        /** Hands the evaluator entry {@code e}'s values of the metadata it reads, before the entry is added. */
        void metadataOf(LogEntry e) {
            clearFed();
            if (e.metadata().isEmpty()) {
                return;
            }
            int[] now = new int[e.metadata().size()];
            int n = 0;
            for (Label l : e.metadata()) {
                int slot = slot(l.name());
                if (slot >= 0) {
                    evaluator.metadata(slot, l.value());
                    now[n++] = slot;
                }
            }
            fed = Arrays.copyOf(now, n);
        }

        /** Clears the slots the last block or entry fed (a key the next one lacks is absent there). */
        private void clearFed() {
            for (int slot : fed) {
                evaluator.metadata(slot, null);
            }
            fed = new int[0];
            columns = new ColumnarValues[0];
        }

        private int slot(String key) {
            return slots.computeIfAbsent(key, evaluator::metadataSlot);
        }

        /** {@link #add(RegionSum, long, byte[], int, int)} for the row {@code rows} reads next. */
        boolean add(RegionSum acc, long ts, TokenizedLines rows) {
            return added(acc, ts, evaluator.evaluate(ts, rows));
        }

        /**
         * Flushes the groups' sums into {@code sums}, counts the rows into the metrics, and marks the query as having
         * read structured metadata when the evaluator did.
         */
        void close(Sums sums, QueryContext ctx) {
            if (!groups.isEmpty()) {
                sums.groupLabels = new ArrayList<>(groups.size());
                sums.groupSums = new ArrayList<>(groups.size());
                for (int g = 0; g < groups.size(); g++) {
                    RegionSum r = groups.get(g);
                    r.flush();
                    sums.groupLabels.add(evaluator.groupLabels(g));
                    sums.groupSums.add(r.out);
                }
            }
            metrics.columnarPipelineRows(evaluator.bytesRows(), evaluator.tokenRows(), evaluator.decodedRows());
            if (evaluator.referencedMetadata()) {
                ctx.stats.referencedStructuredMetadata.set(true); // Loki's statistic
            }
        }
    }

    /**
     * Sums of one unit's rows split by the values of the structured-metadata keys the result is grouped by: a row
     * with none of them goes to the unit's own sums, every other combination of values to a group of its own
     * ({@link Sums#groupLabels}). A value of {@code ""} is a value (Loki keeps the label), distinct from absent. Not
     * thread-safe.
     */
    private static final class MetadataGroups {
        private final LineCountQuery query;
        private final List<String> keys;
        /** The block's columns of {@link #keys}, or null for rows in memory. */
        private final ColumnarValues[] columns;
        private final Map<ValuesKey, RegionSum> accs = new HashMap<>();
        private final Map<ValuesKey, Sums> sums = new LinkedHashMap<>();
        /** Reused for lookups; copied only for a combination seen first. */
        private final ValuesKey probe;

        MetadataGroups(LineCountQuery query, List<String> keys, ColumnarValues[] columns) {
            this.query = query;
            this.keys = keys;
            this.columns = columns;
            this.probe = new ValuesKey(new String[keys.size()]);
        }

        static MetadataGroups ofBlock(LineCountQuery query, List<String> keys, ColumnarBlock block) {
            ColumnarValues[] columns = new ColumnarValues[keys.size()];
            for (int k = 0; k < columns.length; k++) {
                columns[k] = block.metadata(keys.get(k));
            }
            return new MetadataGroups(query, keys, columns);
        }

        /** Where row {@code row} of the block is summed: {@code plain} when it has none of the keys. */
        RegionSum ofRow(int row, RegionSum plain) {
            for (int k = 0; k < columns.length; k++) {
                probe.values[k] = columns[k].value(row);
            }
            return lookUp(plain);
        }

        /** Where entry {@code e} is summed: {@code plain} when it has none of the keys. */
        RegionSum ofEntry(LogEntry e, RegionSum plain) {
            for (int k = 0; k < keys.size(); k++) {
                probe.values[k] = e.metadataValue(keys.get(k));
            }
            return lookUp(plain);
        }

        private RegionSum lookUp(RegionSum plain) {
            boolean any = false;
            for (String v : probe.values) {
                any |= v != null;
            }
            if (!any) {
                return plain;
            }
            probe.rehash();
            RegionSum acc = accs.get(probe);
            if (acc == null) {
                ValuesKey key = new ValuesKey(probe.values.clone());
                key.rehash();
                Sums s = new Sums();
                sums.put(key, s);
                acc = new RegionSum(query, s);
                accs.put(key, acc);
            }
            return acc;
        }

        /** Flushes the groups and hands them to {@code out} as its groups. */
        void close(Sums out) {
            if (sums.isEmpty()) {
                return;
            }
            accs.values().forEach(RegionSum::flush);
            out.groupLabels = new ArrayList<>(sums.size());
            out.groupSums = new ArrayList<>(sums.size());
            for (Map.Entry<ValuesKey, Sums> e : sums.entrySet()) {
                Map<String, String> labels = new LinkedHashMap<>();
                for (int k = 0; k < keys.size(); k++) {
                    String v = e.getKey().values[k];
                    if (v != null) {
                        labels.put(keys.get(k), v);
                    }
                }
                out.groupLabels.add(labels);
                out.groupSums.add(e.getValue());
            }
        }
    }

    /** One combination of metadata values (null: absent), hashed once per lookup. */
    private static final class ValuesKey {
        final String[] values;
        private int hash;

        ValuesKey(String[] values) {
            this.values = values;
        }

        void rehash() {
            hash = Arrays.hashCode(values);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ValuesKey other && Arrays.equals(values, other.values);
        }
    }

    /** Sums consecutive rows of one window region into one sample. Not thread-safe. */
    private static final class RegionSum {
        private final LineCountQuery query;
        private final Sums out;
        private int region = -1;
        private long timestamp;
        private double sum;

        RegionSum(LineCountQuery query, Sums out) {
            this.query = query;
            this.out = out;
        }

        void add(long ts, double value) {
            if (query.pipeline() != null && query.pipeline().perRow()) {
                out.add(ts, value); // an unwrapped value is its own sample
                return;
            }
            int r = query.region(ts);
            if (r != region) {
                flush();
                region = r;
            }
            timestamp = ts;
            sum += value;
        }

        void flush() {
            if (region >= 0) {
                out.add(timestamp, sum);
            }
            region = -1;
            sum = 0;
        }
    }
}
