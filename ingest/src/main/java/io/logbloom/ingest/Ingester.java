package io.logbloom.ingest;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexReader;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.RecentIndexFiles;
import io.logbloom.index.SeriesChunks;
import io.logbloom.tokens.BloomTokenizer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path's facade (engine v2, LSM-style): wires the roles and keeps the API the HTTP routes
 * and the querier use.
 *
 * <p><b>Push.</b> {@link PushAdmission} validates labels and entries (Loki's rules and messages) and
 * charges the tenant's token bucket; outside any lock each stream's entries are sorted, hashed,
 * deduplicated within the push and WAL-encoded ({@link PushCandidate}); then the {@link StreamWriter},
 * under its lock, applies the new-stream limits, drops entries accepted recently (a client retry does
 * not store twice), checks the out-of-order window, writes one WAL record and appends the rows to the
 * small columnar {@link TenantBuffers}. The push returns once its WAL record is forced to disk, so an
 * acknowledged entry survives {@code kill -9}.
 *
 * <p><b>Seal.</b> Every {@code seal_interval} (or sooner when the buffers pass a size bound) the
 * {@link PartSealer} turns the buffers into one columnar part file per tenant on local disk and
 * releases the WAL segments they cover: rows stay in heap about one interval. <b>Merge.</b> When a
 * tenant's parts reach {@code merge_min_bytes} (or their oldest is {@code max_chunk_age} old, or on
 * {@link #flushAll}) the {@link PartMerger} merges them into one object in the store with its series
 * blooms and index file; the {@link MergeScheduler} decides when (a merge due by size waits while a push
 * burst fills the buffers faster than they seal: on a small machine it would take a core from the pushes)
 * and tracks the store's retry budget. <b>Replay.</b> {@link PartReplay} restores the WAL records no part holds.
 * <b>Reads.</b> {@link #read} returns the index answer with the unflushed data (buffers, pending seals
 * and parts) taken together, so every row is seen once while seals and merges run.
 *
 * <p>Thread-safe: every public method may be called from any thread; see each role for its locks.
 */
public final class Ingester implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingester.class);

    /*
     * The background threads' names are distinct in their first 15 characters, all Linux keeps of a thread's name
     * (/proc/<pid>/task/<tid>/comm), so whatever samples threads by name (top -H, the bench's reports) tells the
     * seal's CPU from the merges'.
     */
    /** Name of the thread that seals the buffers into parts (and forces the WAL under {@code fsync: interval}). */
    public static final String SEAL_THREAD = "logbloom-seal";
    /** Name of the thread that merges parts into objects in the store. */
    public static final String MERGE_THREAD = "logbloom-merge";
    /**
     * Names of the merge's block encoders (with {@code merge_concurrency} above 1): this prefix and a number; they start
     * with {@link #MERGE_THREAD}, so one prefix picks all of a merge's threads.
     */
    private static final String MERGE_ENCODER_THREAD_PREFIX = MERGE_THREAD + "-encode-";
    /**
     * Merged parts stay on disk while queries that listed them just before the merge hold them (see {@link
     * Unflushed}), at most this long (a reader that never hands them back).
     */
    static final java.time.Duration RETIRE_GRACE = java.time.Duration.ofMinutes(2);
    /** Buffers are sealed early once their rows, or the arrays they grew, take this share of the memory budget. */
    private static final int SEAL_SHARE_OF_BUDGET = 8;
    /** Sealed buffers are kept as spares for the next seals up to this share of the budget: two seals' worth. */
    private static final int SPARE_SHARE_OF_BUDGET = 4;
    /** Merged objects compress harder than parts: written once, read often. */
    static final int MERGED_ZSTD_LEVEL = 9;
    /**
     * Parts are written by the one seal thread at the push rate, live seconds and are read once by the
     * merger: {@link ColumnarConfig.Effort#UNCOMPRESSED} (no tokenizing, no hex or dictionary attempts, no
     * compression) keeps sealing well ahead of the pushes and leaves the CPU to them; the merge encodes the
     * rows once, smallest.
     */
    static final ColumnarConfig.Effort PART_EFFORT = ColumnarConfig.Effort.UNCOMPRESSED;

    private final IngestConfig config;
    private final Clock clock;
    private final PushAdmission admission;
    /** Admission of pushes a distributor already admitted (the Kafka consume path): validation only, no limits. */
    private final PushAdmission admittedAdmission;
    private final TenantBuffers buffers;
    private final StreamWriter writer;
    private final EncodeBuffers encodeBuffers = new EncodeBuffers();
    private final LocalParts parts;
    private final PartSealer sealer;
    private final PartMerger merger;
    private final VisibleIndex visibleIndex;
    private final PersistedIndex persisted;
    private final RecentIndexFiles recentIndexFiles;
    private final SeriesBloomStore bloomStore;
    private final SeriesBloomWriter bloomWriter;
    private final IngestMetrics metrics;
    private final Wal wal;
    private final List<TailListener> tailListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService sealThread;
    private final MergeScheduler merges;
    /**
     * Threads a merge encodes its object's blocks on, {@link FlushConfig#mergeConcurrency()} of them, or null when
     * that is one (each block encoded on the merging thread).
     */
    private final ExecutorService mergeEncoders;
    private final IngesterHealth health = new IngesterHealth();
    private final long maxMemoryBytes;
    private final long sealBytes;
    /** Whether an early seal is scheduled, so a push flood schedules one at a time. */
    private final AtomicBoolean sealScheduled = new AtomicBoolean();

    /** Opens the parts and the WAL (replaying what no part holds), registers metrics and starts the loops. */
    public Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry)
            throws IOException {
        this(config, store, clock, registry, SeriesBloomStore.Stored.NONE, CrashHook.NONE);
    }

    /**
     * As the other public constructor, telling {@code bloomsStored} of every series bloom a merge writes (the
     * querier of the same process keeps them, instead of reading them back).
     */
    public Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry,
            SeriesBloomStore.Stored bloomsStored) throws IOException {
        this(config, store, clock, registry, bloomsStored, CrashHook.NONE);
    }

    /** As the public constructor, with the sealer and merger calling {@code crashHook} at each {@link CrashPoint}. */
    Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry, CrashHook crashHook)
            throws IOException {
        this(config, store, clock, registry, SeriesBloomStore.Stored.NONE, crashHook);
    }

    private Ingester(IngestConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry,
            SeriesBloomStore.Stored bloomsStored, CrashHook crashHook) throws IOException {
        Objects.requireNonNull(crashHook, "crashHook is null");
        this.config = Objects.requireNonNull(config, "config is null");
        Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        Objects.requireNonNull(registry, "registry is null");
        this.admission = new PushAdmission(config.limits(), config.flush().maxChunkAge(), clock);
        this.admittedAdmission = PushAdmission.partitionOwner(config.limits(), config.flush().maxChunkAge(), clock);
        this.maxMemoryBytes = config.budget().maxMemoryBytes();
        this.sealBytes = Math.max(1 << 20, maxMemoryBytes / SEAL_SHARE_OF_BUDGET);
        this.buffers = new TenantBuffers(maxMemoryBytes / SPARE_SHARE_OF_BUDGET);
        // remembered identities may take an eighth of the budget: sealing cannot relieve them
        this.writer = new StreamWriter(buffers, new RecentEntries((int) Math.max(1024,
                Math.min(RecentEntries.MAX_KEYS, maxMemoryBytes / 8 / StreamWriter.KEY_BYTES))), encodeBuffers);
        IndexFileCache indexFiles = new IndexFileCache(store, config.index());
        this.persisted = new PersistedIndex(store, config.index(), indexFiles);
        this.visibleIndex = new VisibleIndex(persisted);
        String writerId = "ingester-"
                + Long.toHexString(EntryKey.LINE_HASH.hashLong(System.nanoTime() ^ System.identityHashCode(this)));
        // the files a merge writes are the ones the next queries open: they go to the cache as written, and are
        // remembered for the queriers of a cluster, which keep their listings (RecentIndexFiles)
        this.recentIndexFiles = new RecentIndexFiles(clock);
        IndexWriter indexWriter = new IndexWriter(store, config.index(), clock, writerId, indexFiles, recentIndexFiles);
        this.bloomStore = new SeriesBloomStore(store, bloomsStored);
        this.bloomWriter = new SeriesBloomWriter(new BloomTokenizer(config.tokenizer()), config.bloom(), bloomStore,
                Math.min(SeriesBloomWriter.MAX_BLOOM_MEMORY_BYTES, maxMemoryBytes / 8));
        ColumnarConfig objectFormat = storedObjectFormat(config);
        ColumnarConfig partFormat = objectFormat.withEffort(PART_EFFORT);
        Path partsDir = config.wal().directory().resolve("parts");
        this.parts = new LocalParts(partsDir, partFormat);
        int mergeConcurrency = config.flush().mergeConcurrency();
        this.mergeEncoders = mergeConcurrency == 1 ? null
                : Executors.newFixedThreadPool(mergeConcurrency,
                        BackgroundTasks.daemonThreads(n -> MERGE_ENCODER_THREAD_PREFIX + n));
        this.merger = new PartMerger(parts, partsDir, store, indexWriter, persisted, config.index(),
                objectFormat, this::releasedThroughSegment,
                visibleIndex.publication(), writerId, bloomWriter, RETIRE_GRACE, mergeEncoders, mergeConcurrency,
                crashHook);
        merger.recover();
        long now = nowNanos();
        rememberPartRows(now);
        PartReplay replay = new PartReplay(parts, (tenant, labels, entry) -> writer.replay(tenant, labels, entry, now));
        this.wal = Wal.openWithSegments(config.wal(), replay);
        if (replay.rowsRestored() > 0 || replay.rowsSkipped() > 0) {
            LOG.info("WAL replay restored {} rows; {} rows were already in parts", replay.rowsRestored(),
                    replay.rowsSkipped());
        }
        try {
            this.sealer = new PartSealer(buffers, parts, wal, writer.lock(), crashHook);
            this.metrics = new IngestMetrics(registry, new IngestMetrics.Gauges() {
                @Override
                public double activeStreams() {
                    return writer.activeStreams();
                }

                @Override
                public double walBytes() {
                    return wal.sizeBytes();
                }

                @Override
                public double walCorruptions() {
                    return wal.corruptions();
                }

                @Override
                public double walWriteFailures() {
                    return wal.refusedWritesTotal();
                }

                @Override
                public double walSegmentsReused() {
                    return wal.reusedSegmentsTotal();
                }

                @Override
                public double[] bloomTotals() {
                    return bloomWriter.totals();
                }

                @Override
                public double memoryBytes() {
                    return Ingester.this.memoryBytes();
                }

                @Override
                public double unmergedBytes() {
                    return Ingester.this.unmergedBytes();
                }

                @Override
                public double fatal(FatalReason reason) {
                    return health.has(reason) ? 1 : 0;
                }
            });
        } catch (IOException | RuntimeException e) {
            wal.close();
            throw e;
        }
        this.sealThread = BackgroundTasks.singleThread(SEAL_THREAD);
        this.merges = new MergeScheduler(config, parts, merger, writer, bloomWriter, metrics, health, this::nowNanos,
                BackgroundTasks.singleThread(MERGE_THREAD));
        long sealPeriod = config.flush().sealInterval().toMillis();
        sealThread.scheduleWithFixedDelay(this::sealTick, sealPeriod, sealPeriod, TimeUnit.MILLISECONDS);
        merges.start();
        if (config.wal().fsync() == WalConfig.FsyncPolicy.INTERVAL) {
            long interval = config.wal().fsyncInterval().toMillis();
            sealThread.scheduleWithFixedDelay(this::syncWal, interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Stops the block encoders' threads once idle (not at once: a merge still running waits for the blocks it handed
     * over).
     */
    private void stopMergeEncoders() {
        if (mergeEncoders != null) {
            mergeEncoders.shutdown();
        }
    }

    /** Remembers the identities of rows already in parts, so a client retrying them after a restart is deduplicated. */
    private void rememberPartRows(long now) throws IOException {
        for (String tenant : parts.tenants()) {
            for (LocalParts.Part part : parts.parts(tenant)) {
                try (LocalParts.Reader reader = parts.open(part)) {
                    List<ColumnarStreamInfo> streams = part.directory().streams();
                    for (ColumnarStreamInfo s : streams) {
                        for (int b = s.firstBlock(); b < s.firstBlock() + s.blockCount(); b++) {
                            ColumnarBlock block = reader.reader().readBlock(b);
                            for (LogEntry e : block.entries()) {
                                writer.rememberStored(tenant, s.labels(), e.timestampNanos(),
                                        EntryKey.of(e).lineHash(), now);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * Validates, limits, logs (WAL) and stores the streams of one push; see the class comment.
     *
     * @throws MemoryBudgetExceededException when unflushed data is over {@code ingester.max_memory} (nothing stored)
     * @throws UnmergedBacklogExceededException when parts waiting for the object store are over
     *     {@code ingester.max_unmerged_bytes} (nothing stored)
     * @throws IngesterFailedException after a fatal failure, or when this push's WAL write fails (nothing acknowledged)
     */
    public PushResult push(String tenant, List<PushStream> pushStreams) throws IOException {
        return push(tenant, pushStreams, admission);
    }

    /**
     * Stores streams a distributor already validated and rate-limited and a log (Kafka) carried here,
     * as the owner of their partition: as {@link #push}, entries are deduplicated against recent ones
     * (a record read again after a crash is stored once), and the active-stream limit, the new-series
     * limiters and the out-of-order window apply (Loki's partition ingesters do the same); no rate
     * limit and no age check. Entries refused are rejected in the result, whole streams for a stream
     * or series limit, single entries for their order; the caller drops and counts them (the push was
     * acknowledged already), nothing else of the record is affected.
     *
     * @throws MemoryBudgetExceededException when unflushed data is over {@code ingester.max_memory} (nothing stored)
     * @throws IngesterFailedException after a fatal failure (nothing stored)
     */
    public PushResult pushAdmitted(String tenant, List<PushStream> pushStreams) throws IOException {
        return push(tenant, pushStreams, admittedAdmission);
    }

    private PushResult push(String tenant, List<PushStream> pushStreams, PushAdmission gate) throws IOException {
        TenantIds.validate(tenant);
        writer.ensureOpen();
        Optional<String> failure = health.message();
        if (failure.isPresent()) {
            throw new IngesterFailedException(failure.get(), null);
        }
        long held = memoryBytes();
        if (held > maxMemoryBytes && buffers.spareBytes() > 0) {
            buffers.dropSpares(); // idle arrays go before any push is refused
            held = memoryBytes();
        }
        if (held > maxMemoryBytes) {
            metrics.memoryLimited();
            scheduleSeal();
            long retryAfter = Math.max(1, config.flush().sealInterval().toSeconds());
            throw new MemoryBudgetExceededException(String.format("Ingester memory limit exceeded (limit: %d bytes, "
                    + "ingester.max_memory) while holding %d bytes of unflushed data; it is being written to disk, "
                    + "retry after %d s, reduce the push rate or contact your Loki administrator to see if "
                    + "the limit can be increased", maxMemoryBytes, held, retryAfter), retryAfter);
        }
        long unmerged = unmergedBytes();
        long maxUnmerged = config.budget().maxUnmergedBytes();
        if (unmerged > maxUnmerged) {
            metrics.backlogLimited();
            merges.checkSoon();
            // merges going on drain the backlog by the round (seconds); a failing store is tried again a period later
            long retryAfter = merges.failing() ? Math.max(1, config.flush().flushCheckPeriod().toSeconds()) : 1;
            throw new UnmergedBacklogExceededException(String.format("Ingester backlog limit exceeded (limit: %d "
                    + "bytes, ingester.max_unmerged_bytes) while %d bytes wait to be written to the object store, "
                    + "which is unavailable or slower than the push rate; retry after %d s",
                    maxUnmerged, unmerged, retryAfter), retryAfter);
        }
        try {
            PushResult result = store(tenant, pushStreams, gate);
            if (buffers.sealPressureBytes() > sealBytes) {
                merges.burstSeen();
                scheduleSeal();
            }
            return result;
        } catch (OutOfMemoryError e) {
            health.fail(FatalReason.OUT_OF_MEMORY, "out of memory in a push: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        }
    }

    private PushResult store(String tenant, List<PushStream> pushStreams, PushAdmission admission) throws IOException {
        long now = nowNanos();
        PushErrors errors = new PushErrors();
        PushAdmission.Admitted admitted = admission.admit(tenant, pushStreams, now, errors);
        if (errors.rateLimited()) {
            return errors.result(0, metrics);
        }
        // Outside the lock: sort, hash, drop duplicates within the push and WAL-encode each entry once.
        // Sized for the common case (WAL bytes = raw bytes plus 12 per entry and 8 per metadata pair) so it never grows.
        WalCodec.Buffer encoded = encodeBuffers.take((int) Math.min(Integer.MAX_VALUE - 16,
                admitted.validBytes() + admitted.validLines() * 32L + 64));
        StreamWriter.Stored stored;
        try {
            for (PushCandidate c : admitted.candidates()) {
                c.prepare(encoded);
            }
            // the WAL record and the buffers copy what they keep of it: nothing reads the buffer after this
            stored = writer.accept(tenant, admitted.candidates(), encoded, admission, errors, wal, now);
            encodeBuffers.give(encoded);
            if (stored.walPosition() != null && config.wal().fsync() == WalConfig.FsyncPolicy.PER_REQUEST) {
                wal.syncTo(stored.walPosition().sequence());
            }
        } catch (WalWriteException e) {
            if (e.outOfSpace()) {
                throw e; // refused before anything was stored: 507, and pushes resume once space returns
            }
            health.fail(FatalReason.WAL, "WAL write failed: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        } catch (IOException e) {
            health.fail(FatalReason.WAL, "WAL write failed: " + e.getMessage(), e);
            throw new IngesterFailedException(health.message().orElseThrow(), e);
        }
        metrics.accepted(stored.storedLines(), stored.acceptedBytes());
        for (Map.Entry<Labels, List<LogEntry>> e : stored.entries().entrySet()) {
            for (TailListener listener : tailListeners) {
                try {
                    listener.onEntries(tenant, e.getKey(), e.getValue());
                } catch (RuntimeException ex) {
                    LOG.warn("tail listener {} failed: {}", listener, ex.toString());
                }
            }
        }
        return errors.result(stored.acceptedCount(), metrics);
    }

    /**
     * Estimated heap bytes held for unflushed data, as {@code ingester.max_memory} counts them: the
     * write buffers and their spares, seals not yet written, remembered entry identities, in-memory blooms
     * and the encoding buffers kept between pushes.
     */
    public long memoryBytes() {
        return buffers.retainedBytes() + buffers.spareBytes() + sealer.pendingBytes() + writer.memoryBytes()
                + bloomWriter.memoryBytes() + encodeBuffers.keptBytes();
    }

    /**
     * Bytes waiting to be written to the object store, as {@code ingester.max_unmerged_bytes} counts
     * them: sealed parts on local disk plus the rows in memory that the next seals turn into parts
     * (counted raw, more than they take compressed), so the parts on disk stay within the bound plus
     * the pushes admitted at the same moment.
     */
    public long unmergedBytes() {
        return sealer.unmergedBytes();
    }

    /**
     * The format of the objects the ingester merges into the store under {@code config}: blocks cut at
     * {@code chunk_block_size} raw bytes, {@link #MERGED_ZSTD_LEVEL}. Whatever rewrites stored objects (the
     * compactor) writes them in this format too, so a rewrite does not change their size or block layout.
     */
    public static ColumnarConfig storedObjectFormat(IngestConfig config) {
        return ColumnarConfig.defaults().withMaxRawBytesPerBlock(config.chunk().blockSizeBytes())
                .withZstdLevel(MERGED_ZSTD_LEVEL);
    }

    /** Heap bytes the write buffers' spares hold (part of {@link #memoryBytes()}). */
    long bufferSpareBytes() {
        return buffers.spareBytes();
    }

    /** Heap bytes of the encoding buffers kept between pushes (part of {@link #memoryBytes()}). */
    long encodeBufferBytes() {
        return encodeBuffers.keptBytes();
    }

    /** Bytes of the sealed parts on local disk not yet merged into the object store (the disk share of {@link #unmergedBytes}). */
    public long unmergedPartBytes() {
        return parts.sizeBytes();
    }

    /**
     * Why the ingester refuses pushes after a fatal failure (see {@link FatalReason}), or empty while
     * it can persist what it acknowledges; {@code /ready} answers 503 with this message.
     */
    public Optional<String> failure() {
        return health.message();
    }

    /**
     * What a query reads: the store's index answer and the ingester's unflushed data, every row in exactly one. The
     * parts the unflushed data lies in stay on disk, even once merged, until the view is closed (see {@link
     * Unflushed}); close it when the query is done with them.
     */
    public record ReadView(List<SeriesChunks> indexed, Unflushed unflushed) implements AutoCloseable {
        /** Copies. */
        public ReadView {
            indexed = List.copyOf(indexed);
            Objects.requireNonNull(unflushed, "unflushed is null");
        }

        /** Hands back the parts (once; later calls do nothing). */
        @Override
        public void close() {
            unflushed.close();
        }
    }

    /**
     * Unflushed data of matching streams: rows in memory and the streams' shares of local parts. The parts are
     * pinned ({@link LocalParts#pinnedParts}): a merge takes them out of view but deletes their files only once every
     * reader that listed them has closed its snapshot (or after {@link #RETIRE_GRACE}, should one never close it).
     * Reading a part's rows is safe until {@link #close}; a caller that only looks at labels and time ranges closes
     * at once.
     */
    public record Unflushed(List<StreamSnapshot> streams, Runnable release) implements AutoCloseable {
        /** Copies. */
        public Unflushed {
            streams = List.copyOf(streams);
            Objects.requireNonNull(release, "release is null");
        }

        /** Hands back the parts (once; later calls do nothing). */
        @Override
        public void close() {
            release.run();
        }
    }

    /**
     * The index answer for the selector and the unflushed data of matching streams in
     * [fromNanos, throughNanos), taken while no merge publishes, so a merge running meanwhile neither
     * hides nor duplicates rows. Close the view when done reading.
     */
    public ReadView read(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return visibleIndex.consistently(() -> {
            List<SeriesChunks> indexed = persisted.chunks(tenant, matchers, fromNanos, throughNanos);
            return new ReadView(indexed, unflushed(tenant, matchers, fromNanos, throughNanos));
        });
    }

    /**
     * Unflushed data of streams matching all {@code matchers} in [fromNanos, throughNanos), per stream
     * sorted by labels: rows in memory (sorted by time) and the stream's share of local parts, pinned until
     * the result is closed. Use {@link #read} when the index answer is needed too.
     */
    public Unflushed unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        PartSealer.Unflushed snapshot = sealer.snapshot(tenant, matchers, fromNanos, throughNanos);
        List<LocalParts.Part> pinned = snapshot.parts();
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                parts.unpin(pinned);
            }
        };
        Map<Labels, List<ColumnarFileStream>> partStreams = new HashMap<>();
        for (LocalParts.Part part : pinned) {
            if (part.directory().maxTimeNanos() < fromNanos || part.directory().minTimeNanos() >= throughNanos) {
                continue;
            }
            List<ColumnarStreamInfo> streams = part.directory().streams();
            for (int s = 0; s < streams.size(); s++) {
                ColumnarStreamInfo info = streams.get(s);
                if (info.maxTimeNanos() < fromNanos || info.minTimeNanos() >= throughNanos
                        || !matchesAll(matchers, info.labels())) {
                    continue;
                }
                partStreams.computeIfAbsent(info.labels(), k -> new ArrayList<>())
                        .add(new ColumnarFileStream(part.file(), part.directory(), s));
            }
        }
        Map<Labels, List<LogEntry>> rows = new HashMap<>(snapshot.rows());
        List<StreamSnapshot> out = new ArrayList<>();
        for (Map.Entry<Labels, List<LogEntry>> e : rows.entrySet()) {
            List<LogEntry> sorted = new ArrayList<>(e.getValue());
            sorted.sort(Comparator.comparingLong(LogEntry::timestampNanos));
            out.add(new StreamSnapshot(e.getKey(), sorted, partStreams.getOrDefault(e.getKey(), List.of())));
        }
        for (Map.Entry<Labels, List<ColumnarFileStream>> e : partStreams.entrySet()) {
            if (!rows.containsKey(e.getKey())) {
                out.add(new StreamSnapshot(e.getKey(), List.of(), e.getValue()));
            }
        }
        out.sort(Comparator.comparing(StreamSnapshot::labels));
        return new Unflushed(out, release);
    }

    private static boolean matchesAll(List<LabelMatcher> matchers, Labels labels) {
        for (LabelMatcher m : matchers) {
            if (!m.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** The index of everything in the object store (label and series lookups). */
    public IndexReader index() {
        return visibleIndex;
    }

    /** The index files this ingester put lately, with when (what a cluster's queriers are told). */
    public RecentIndexFiles recentIndexFiles() {
        return recentIndexFiles;
    }

    /** The series bloom store (reads persisted blooms). */
    public SeriesBloomStore blooms() {
        return bloomStore;
    }

    /** Registers a listener for accepted entries (live tailing). */
    public void addTailListener(TailListener listener) {
        tailListeners.add(Objects.requireNonNull(listener, "listener is null"));
    }

    /** Removes a listener added with {@link #addTailListener}. */
    public void removeTailListener(TailListener listener) {
        tailListeners.remove(listener);
    }

    /**
     * Seals the buffers and merges every part into the store, retrying a failing merge a few times;
     * on return everything accepted before the call is stored, indexed and bloomed.
     *
     * @throws IOException when the store keeps failing; the data stays in parts and the WAL
     */
    public void flushAll() throws IOException {
        writer.ensureOpen();
        flushEverything(FlushReason.FORCED);
    }

    /** Seals the buffers into parts now (tests and tools; the seal loop does this every interval). */
    void seal() throws IOException {
        sealer.seal();
    }

    private void flushEverything(FlushReason reason) throws IOException {
        long mark = writer.appendMark();
        merges.mergeEverything(reason, sealer::seal);
        // streams without a push since the flush began hold nothing unflushed: no longer active (as Loki)
        writer.forgetStreamsWithoutAppendSince(mark);
    }

    private long releasedThroughSegment() {
        return sealer == null ? Long.MIN_VALUE : sealer.releasedThroughSegment();
    }

    private void sealTick() {
        if (writer.isClosed()) {
            return;
        }
        health.runGuarded("seal", () -> {
            try {
                sealer.seal();
            } catch (IOException e) {
                LOG.warn("sealing buffers into parts failed, will retry: {}", e.toString());
            }
            merges.checkSoonIfDueBySize();
        });
    }

    /** Schedules one early seal unless one is pending. */
    private void scheduleSeal() {
        BackgroundTasks.runAheadOnce(sealThread, sealScheduled, this::sealTick);
    }

    /** Runs a merge check on the merge thread now, as the loop does every {@code flush_check_period} (tests). */
    void checkMergesNow() {
        merges.checkSoon();
    }

    private void syncWal() {
        health.runGuarded("WAL fsync", () -> {
            try {
                wal.sync();
            } catch (IOException e) {
                health.fail(FatalReason.WAL, "WAL fsync failed: " + e.getMessage(), e);
            }
        });
    }

    /** Seals and merges everything (or leaves it on local disk when the store fails), stops the loops, closes the WAL. */
    @Override
    public void close() throws IOException {
        if (writer.isClosed()) {
            return;
        }
        sealThread.shutdown();
        merges.stop(java.time.Duration.ofSeconds(30));
        awaitStopped(sealThread, 30);
        try {
            flushEverything(FlushReason.SHUTDOWN);
        } catch (IOException e) {
            LOG.warn("shutdown flush incomplete, unflushed data stays on local disk: {}", e.getMessage());
        } finally {
            try {
                merges.deleteAllRetired();
            } finally {
                try {
                    writer.close(wal::close);
                } finally {
                    stopMergeEncoders();
                    persisted.close();
                }
            }
        }
    }

    /**
     * Stops at once without sealing or flushing, as a crash would: the loops stop and the WAL is
     * closed, so a new ingester on the same WAL directory restores everything that was acknowledged.
     */
    void halt() throws IOException {
        sealThread.shutdownNow();
        merges.halt(java.time.Duration.ofSeconds(10));
        awaitStopped(sealThread, 10);
        try {
            writer.close(wal::close);
        } finally {
            stopMergeEncoders();
            persisted.close();
        }
    }

    private static void awaitStopped(ScheduledExecutorService thread, int seconds) {
        try {
            thread.awaitTermination(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long nowNanos() {
        java.time.Instant t = clock.instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
