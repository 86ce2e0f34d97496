package io.logbloom.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarLines;
import io.logbloom.chunks.ColumnarMetadata;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.ColumnarRefs;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a tenant's parts from local disk to the object store: merges them into one columnar object
 * (streams in {@link ColumnarDirectory#STREAM_ORDER}, rows by time), uploads it, indexes every
 * series' rows in it ({@link ChunkRef} with the object's key), and deletes the parts: the disk level
 * to the store level of the LSM-style write path.
 *
 * <p><b>Only released parts.</b> A part is merged only once the WAL segments it covers are deleted
 * ({@code releasedThroughSegment}), so no replay can bring its rows back after it is gone.
 *
 * <p><b>Exactly once, also across crashes.</b> The steps, each a {@link CrashPoint}: (1) a manifest
 * ({@code merge-<id>.json} beside the parts: the object key, its time range and the part files) is
 * written durably (temporary file, force, atomic rename); (2) the object is uploaded; (3) its series
 * blooms are stored; (4) its index files are written (one per index period its series overlap) and
 * the parts leave the readers' view under {@code visibility}, the lock queries hold while they read
 * the index and the parts, so a query sees every row once, in the parts or in the object; (5) the
 * manifest is replaced, by the same atomic rename, with one marked {@code indexed}: the commit;
 * (6) once no query that listed the parts before still holds them (or after a grace, should one never hand them
 * back), the part files, then the manifest, are deleted.
 *
 * <p>On start, {@link #recover} finishes what a crash interrupted, per manifest. A committed one
 * deletes its parts, whatever the index says by now: once indexed, the object belongs to the store,
 * where a compactor may already have merged it into another object and dropped its refs, so its
 * absence from the index no longer means it was never indexed (reading it so re-merged the parts
 * and stored their rows twice). An uncommitted one is decided by the index files of every period the
 * object's series overlap: none of them refers to the object, so no reader ever saw it: it is deleted
 * and the parts stay, to be merged again; all of them do: as committed; some do (a crash between
 * two periods' files): the missing files are written, then as committed (deciding on any one file
 * lost the rows of the periods not written). Checked first: an index file that lists the object as
 * superseded means a compactor in another process replaced it between the index write and the commit, so
 * it is taken as committed (the mark lasts while the replaced object is in the store, then until the period's
 * files are next merged: a restart later than that, after an outage longer than the compactor's delete delay,
 * would still store such rows twice).
 *
 * <p><b>Failed merges.</b> A merge that fails after its manifest was written may or may not have
 * written its index files (a store can fail a put it stored, e.g. on a timeout), so its manifest is
 * kept as undecided and the tenant's next merge first decides it as {@link #recover} does. While the
 * store does not answer, that check fails and so does the merge; the parts stay on disk, where
 * {@code ingester.max_unmerged_bytes} bounds them (the {@link Ingester} refuses pushes beyond).
 *
 * <p>Memory: one decoded block per part being merged plus the blocks being written (one filling, up to
 * {@code encodeParallelism} being encoded on the block encoders' threads; each stream is k-way merged by time from
 * its parts, see {@link #mergeStream}), whatever a stream's size, plus the writer's buffers (one set per encoder);
 * the encoded object goes to a temporary file beside the manifest and is uploaded from there
 * ({@link ObjectStore#putFile}), so it is in heap only where a store must read it (S3). The object's bytes do not
 * depend on the parallelism. Not thread-safe: one merger thread per ingester.
 */
final class PartMerger {
    private static final Logger LOG = LoggerFactory.getLogger(PartMerger.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MANIFEST_PREFIX = "merge-";
    /** Columns are written in pieces of a few KB; 64 KiB turns them into few large file writes. */
    private static final int OBJECT_WRITE_BUFFER_BYTES = 64 * 1024;

    /** What one merge did. */
    record Outcome(String tenant, String objectKey, int partsMerged, int streams, long rows, long objectBytes) {}

    /**
     * The durable record of a merge: what it reads and writes, and whether its index files are all
     * written ({@code indexed}, the commit; absent in manifests of earlier versions, which read as false).
     */
    record Manifest(String tenant, String objectKey, long minTimeNanos, long maxTimeNanos, List<String> partFiles,
            boolean indexed) {
        Manifest {
            Objects.requireNonNull(tenant, "tenant is null");
            Objects.requireNonNull(objectKey, "objectKey is null");
            partFiles = List.copyOf(partFiles);
        }

        /** This manifest marked committed. */
        Manifest committed() {
            return new Manifest(tenant, objectKey, minTimeNanos, maxTimeNanos, partFiles, true);
        }
    }

    private final LocalParts parts;
    private final Path manifestDir;
    private final ObjectStore store;
    private final IndexWriter indexWriter;
    private final PersistedIndex persistedIndex;
    private final IndexConfig indexConfig;
    private final CrashHook crashHook;
    private final ColumnarConfig format;
    private final LongSupplier releasedThroughSegment;
    private final Lock visibility;
    private final String writerId;
    private final SeriesBloomWriter blooms;
    private final long retireGraceNanos;
    /**
     * Where a merge encodes its object's blocks, and how many at once (see {@link ColumnarObjectWriter}); null: each on
     * the merging thread.
     */
    private final Executor blockEncoders;
    private final int encodeParallelism;
    /** Parts merged away, kept on disk while queries that listed them just before hold them, at most a grace. */
    private final List<Retired> retired = new ArrayList<>();

    /** Parts merged into an object and out of the readers' view, with their manifest, to delete after {@code dueNanos}. */
    private record Retired(List<LocalParts.Part> parts, Path manifest, long dueNanos) {}

    /** Merges that failed after their manifest was written; resolved before the tenant's next merge. */
    private final List<Undecided> undecided = new ArrayList<>();

    /**
     * A failed merge's manifest and the parts it took (out of the readers' view already when it failed
     * after its index files): whether its object got indexed is known only once the store answers.
     */
    private record Undecided(Path file, Manifest manifest, List<LocalParts.Part> taken) {}

    /**
     * A merger of {@code parts} into {@code store}, indexing through {@code indexWriter} (laid out per
     * {@code indexConfig}, read back through {@code persistedIndex}) and calling {@code crashHook} at each
     * {@link CrashPoint} of a merge.
     */
    PartMerger(LocalParts parts, Path manifestDir, ObjectStore store, IndexWriter indexWriter,
            PersistedIndex persistedIndex, IndexConfig indexConfig, ColumnarConfig format, LongSupplier releasedThroughSegment,
            Lock visibility, String writerId, SeriesBloomWriter blooms, java.time.Duration retireGrace,
            Executor blockEncoders, int encodeParallelism, CrashHook crashHook) {
        this.indexConfig = Objects.requireNonNull(indexConfig, "indexConfig is null");
        this.crashHook = Objects.requireNonNull(crashHook, "crashHook is null");
        this.parts = Objects.requireNonNull(parts, "parts is null");
        this.manifestDir = Objects.requireNonNull(manifestDir, "manifestDir is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.indexWriter = Objects.requireNonNull(indexWriter, "indexWriter is null");
        this.persistedIndex = Objects.requireNonNull(persistedIndex, "persistedIndex is null");
        this.format = Objects.requireNonNull(format, "format is null");
        this.releasedThroughSegment = Objects.requireNonNull(releasedThroughSegment, "releasedThroughSegment is null");
        this.visibility = Objects.requireNonNull(visibility, "visibility is null");
        this.writerId = Objects.requireNonNull(writerId, "writerId is null");
        this.blooms = Objects.requireNonNull(blooms, "blooms is null");
        this.retireGraceNanos = retireGrace.toNanos();
        this.blockEncoders = blockEncoders;
        this.encodeParallelism = encodeParallelism;
    }

    /** The parts of {@code tenant} a merge may take now: those whose WAL segments are released, oldest first. */
    List<LocalParts.Part> mergeable(String tenant) {
        long released = releasedThroughSegment.getAsLong();
        return parts.parts(tenant).stream().filter(p -> p.walSegment() <= released).toList();
    }

    /**
     * The sequence of the newest part of {@code tenant} a merge may take now ({@link #mergeable}), or
     * {@code Long.MIN_VALUE} when there is none: the bound of {@link #merge(String, long, long)} for merging what is
     * ready now and not what is sealed meanwhile.
     */
    long newestMergeable(String tenant) {
        return mergeable(tenant).stream().mapToLong(LocalParts.Part::sequence).max().orElse(Long.MIN_VALUE);
    }

    /** Merges every mergeable part of {@code tenant}; returns null when there is none. */
    Outcome merge(String tenant) throws IOException {
        return merge(tenant, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * Merges the oldest mergeable parts of {@code tenant} sealed no later than {@code throughSequence} while their
     * bytes stay within {@code maxBytes} (at least one part), so an object stays bounded even after a backlog (a
     * store that reads it into heap to upload it, as S3 does, holds it whole); returns null when there is none.
     */
    Outcome merge(String tenant, long maxBytes, long throughSequence) throws IOException {
        resolveUndecided(tenant);
        List<LocalParts.Part> taken = new ArrayList<>();
        long bytes = 0;
        for (LocalParts.Part p : mergeable(tenant)) {
            if (p.sequence() > throughSequence) {
                continue;
            }
            if (!taken.isEmpty() && bytes + p.sizeBytes() > maxBytes) {
                break;
            }
            taken.add(p);
            bytes += p.sizeBytes();
        }
        if (taken.isEmpty()) {
            return null;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (LocalParts.Part p : taken) {
            min = Math.min(min, p.directory().minTimeNanos());
            max = Math.max(max, p.directory().maxTimeNanos());
        }
        String objectKey = String.format(Locale.ROOT, "%s/objects/%016x-%s-%016x.lbo", tenant, min, writerId,
                taken.get(0).sequence());
        Manifest manifest = new Manifest(tenant, objectKey, min, max,
                taken.stream().map(p -> partName(p.file())).toList(), false);
        Path manifestFile = writeManifest(manifest);
        crashHook.reached(CrashPoint.MERGE_INTENT_WRITTEN);
        try {
            return mergeInto(manifest, manifestFile, taken);
        } catch (IOException | RuntimeException e) {
            // the index files may or may not have been written (a store can fail after it stored a put):
            // decided by reading the index before the next merge of this tenant, when the store answers
            undecided.add(new Undecided(manifestFile, manifest, taken));
            throw e;
        }
    }

    private Outcome mergeInto(Manifest manifest, Path manifestFile, List<LocalParts.Part> taken) throws IOException {
        String tenant = manifest.tenant();
        String objectKey = manifest.objectKey();
        ColumnarDirectory directory;
        long rows = 0;
        long objectBytes;
        int objectCrc;
        // the object goes to a file beside the manifest (a crash leaves it to recover's sweep of "merge-*.tmp"), so
        // neither it nor a growing copy of it is held in heap
        Path objectFile = manifestFile.resolveSibling(manifestFile.getFileName() + ".object.tmp");
        try {
            CRC32C crc = new CRC32C();
            Map<LocalParts.Part, LocalParts.Reader> readers = new HashMap<>();
            try (OutputStream out = new BufferedOutputStream(new CheckedOutputStream(Files.newOutputStream(objectFile),
                    crc), OBJECT_WRITE_BUFFER_BYTES);
                    ColumnarObjectWriter writer = new ColumnarObjectWriter(out, format, blockEncoders,
                            encodeParallelism)) {
                for (LocalParts.Part part : taken) {
                    readers.put(part, parts.open(part));
                }
                for (Map.Entry<Labels, List<Source>> stream : streamsOf(taken).entrySet()) {
                    rows += mergeStream(tenant, objectKey, stream.getKey(), stream.getValue(), readers, writer);
                }
                directory = writer.finish();
                objectBytes = writer.bytesWritten();
            } finally {
                closeAll(readers.values());
            }
            objectCrc = (int) crc.getValue();
            store.putFile(objectKey, objectFile);
            crashHook.reached(CrashPoint.MERGE_OBJECT_UPLOADED);
        } finally {
            Files.deleteIfExists(objectFile);
        }

        List<SeriesChunks> series = ColumnarRefs.of(tenant, objectKey, objectCrc, directory);
        blooms.persist();
        crashHook.reached(CrashPoint.MERGE_BLOOMS_STORED);
        visibility.lock();
        try {
            indexWriter.write(tenant, series);
            parts.forget(taken);
        } finally {
            visibility.unlock();
        }
        crashHook.reached(CrashPoint.MERGE_INDEX_WRITTEN);
        writeManifest(manifest.committed());
        crashHook.reached(CrashPoint.MERGE_COMMITTED);
        retired.add(new Retired(taken, manifestFile, System.nanoTime() + retireGraceNanos));
        return new Outcome(tenant, objectKey, taken.size(), directory.streams().size(), rows, objectBytes);
    }

    /**
     * Deletes the files of merged parts (and their manifests) that no reader holds any more ({@link
     * LocalParts#pinnedParts}) or whose grace is over (the backstop for a reader that never handed its pins back),
     * or all of them with {@code all} (when no query can run); returns how many parts it deleted.
     */
    int deleteRetired(boolean all) throws IOException {
        int deleted = 0;
        long now = System.nanoTime();
        java.util.Iterator<Retired> it = retired.iterator();
        while (it.hasNext()) {
            Retired r = it.next();
            if (!all && now - r.dueNanos() < 0 && parts.anyPinned(r.parts())) {
                continue; // a query that listed them before the merge still reads them
            }
            parts.remove(r.parts());
            crashHook.reached(CrashPoint.MERGE_PARTS_DELETED);
            Files.deleteIfExists(r.manifest());
            deleted += r.parts().size();
            it.remove();
        }
        return deleted;
    }

    /**
     * Writes one stream's rows from all its sources in time order and returns how many: a k-way merge
     * over the sources, each read one decoded block at a time, so memory is one block per source plus the
     * writer's block, whatever the stream's size. Each part's stream is sorted by time (its writer sorts),
     * and equal timestamps are taken in source order, so rows come out exactly as a stable sort of all
     * sources' rows concatenated in source order would put them.
     */
    private long mergeStream(String tenant, String objectKey, Labels labels, List<Source> sources,
            Map<LocalParts.Part, LocalParts.Reader> readers, ColumnarObjectWriter writer) throws IOException {
        PriorityQueue<SourceCursor> heads = new PriorityQueue<>(Math.max(1, sources.size()), SourceCursor.ORDER);
        for (int i = 0; i < sources.size(); i++) {
            Source source = sources.get(i);
            SourceCursor cursor = new SourceCursor(i, readers.get(source.part()),
                    source.part().directory().streams().get(source.streamIndex()));
            if (cursor.advance()) {
                heads.add(cursor);
            }
        }
        if (heads.isEmpty()) {
            throw new IllegalStateException("BUG: stream " + labels + " listed in parts without rows");
        }
        SeriesBloomWriter.ObjectTokens tokens = blooms.start(tenant, labels.fingerprint(),
                heads.peek().timestampNanos(), objectKey);
        ColumnarObjectWriter.StreamAppender appender = writer.begin(labels, tokens);
        long rows = 0;
        while (!heads.isEmpty()) {
            SourceCursor head = heads.poll();
            SourceCursor next = heads.peek();
            // a source's rows come in runs (parts sealed one after another hold consecutive times): the head goes on
            // while it stays before every other source, without a heap operation per row
            boolean more;
            do {
                head.appendTo(appender);
                rows++;
                more = head.advance();
            } while (more && (next == null || head.before(next)));
            if (more) {
                heads.add(head);
            }
        }
        appender.end(); // the writer finishes the stream's tokens once its last block is written (streamWritten)
        return rows;
    }

    /** The next row of one source's stream, decoding one block of it at a time. */
    private static final class SourceCursor {
        /** By time, then by source position: the tie order of a stable sort over the sources concatenated. */
        static final Comparator<SourceCursor> ORDER = (a, b) -> a == b ? 0 : a.before(b) ? -1 : 1;

        private final int sourceIndex;
        private final LocalParts.Reader reader;
        private final int endBlock;
        private int nextBlock;
        private ColumnarBlock block;
        private ColumnarLines lines;
        private ColumnarMetadata metadata;
        private int row = -1;

        SourceCursor(int sourceIndex, LocalParts.Reader reader, ColumnarStreamInfo info) {
            this.sourceIndex = sourceIndex;
            this.reader = reader;
            this.nextBlock = info.firstBlock();
            this.endBlock = info.firstBlock() + info.blockCount();
        }

        /** Moves to the next row; false when the source has none left. */
        boolean advance() throws IOException {
            row++;
            while (block == null || row >= block.rows()) {
                if (nextBlock >= endBlock) {
                    block = null;
                    lines = null;
                    metadata = null;
                    return false;
                }
                block = reader.reader().readBlock(nextBlock++);
                lines = block.lines();
                metadata = block.metadataColumns();
                row = 0;
            }
            return true;
        }

        long timestampNanos() {
            return block.timestampNanos(row);
        }

        /** Whether this cursor's row comes before {@code other}'s: earlier, or as early from an earlier source. */
        boolean before(SourceCursor other) {
            long time = timestampNanos();
            long otherTime = other.timestampNanos();
            return time < otherTime || time == otherTime && sourceIndex < other.sourceIndex;
        }

        void appendTo(ColumnarObjectWriter.StreamAppender appender) throws IOException {
            appender.append(block.timestampNanos(row), lines.bytes(), lines.offset(row), lines.length(row), metadata,
                    row);
        }
    }

    private static void closeAll(Iterable<LocalParts.Reader> readers) throws IOException {
        IOException failure = null;
        for (LocalParts.Reader reader : readers) {
            try {
                reader.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** One stream inside one part. */
    private record Source(LocalParts.Part part, int streamIndex) {}

    private static TreeMap<Labels, List<Source>> streamsOf(List<LocalParts.Part> taken) {
        TreeMap<Labels, List<Source>> streams = new TreeMap<>(ColumnarDirectory.STREAM_ORDER);
        for (LocalParts.Part part : taken) {
            List<ColumnarStreamInfo> infos = part.directory().streams();
            for (int s = 0; s < infos.size(); s++) {
                streams.computeIfAbsent(infos.get(s).labels(), l -> new ArrayList<>()).add(new Source(part, s));
            }
        }
        return streams;
    }

    private Path writeManifest(Manifest manifest) throws IOException {
        Files.createDirectories(manifestDir);
        String name = MANIFEST_PREFIX + manifest.objectKey().substring(manifest.objectKey().lastIndexOf('/') + 1)
                + ".json";
        Path file = manifestDir.resolve(name);
        Path tmp = manifestDir.resolve(name + ".tmp");
        Files.write(tmp, JSON.writeValueAsBytes(manifest));
        try (var channel = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        try (var dir = java.nio.channels.FileChannel.open(manifestDir, java.nio.file.StandardOpenOption.READ)) {
            dir.force(true); // the rename itself durable: the commit of a merge is this rename
        } catch (IOException unsupported) {
            LOG.debug("cannot force directory {}: {}", manifestDir, unsupported.toString());
        }
        return file;
    }

    /**
     * Decides the failed merges of {@code tenant} (see {@link #merge}): an indexed object's parts leave the
     * readers' view and are retired like a successful merge's; an unindexed object is deleted and its
     * parts stay to be merged again. Throws while the store cannot answer, so no merge runs before.
     */
    private void resolveUndecided(String tenant) throws IOException {
        java.util.Iterator<Undecided> it = undecided.iterator();
        while (it.hasNext()) {
            Undecided u = it.next();
            if (!u.manifest().tenant().equals(tenant)) {
                continue;
            }
            if (settle(u.manifest())) {
                visibility.lock();
                try {
                    parts.forget(u.taken());
                } finally {
                    visibility.unlock();
                }
                retired.add(new Retired(u.taken(), u.file(), System.nanoTime() + retireGraceNanos));
                LOG.info("failed merge into {} had been indexed: its {} parts are retired", u.manifest().objectKey(),
                        u.taken().size());
            } else {
                deleteUnindexedObject(u.manifest());
                Files.deleteIfExists(u.file());
            }
            it.remove();
        }
    }

    /**
     * Decides an interrupted merge (see the class comment): true when its object holds the parts' rows
     * for good (committed, or indexed in every period, after writing the periods a crash left out), false
     * when no index file refers to it, so it is to be deleted and its parts merged again.
     */
    private boolean settle(Manifest m) throws IOException {
        if (m.indexed()) {
            return true;
        }
        long through = m.maxTimeNanos() == Long.MAX_VALUE ? Long.MAX_VALUE : m.maxTimeNanos() + 1;
        if (persistedIndex.supersedes(m.tenant(), m.objectKey(), m.minTimeNanos(), through)) {
            // a compactor (another process) replaced the object after its index files were written, and may have
            // deleted it since: its rows are stored under the replacement, so the parts must not be merged again
            LOG.info("merge into {} was indexed, then replaced by a compactor: its parts are not merged again",
                    m.objectKey());
            return true;
        }
        ColumnarDirectory directory;
        try {
            directory = new ColumnarObjectReader(RangeSource.ofObject(store, m.objectKey())).directory();
        } catch (ObjectNotFoundException neverUploaded) {
            return false; // the index files are written after the upload
        }
        List<SeriesChunks> series = ColumnarRefs.of(m.tenant(), m.objectKey(), 0, directory);
        java.util.TreeSet<Long> periods = new java.util.TreeSet<>();
        for (SeriesChunks s : series) {
            for (ChunkRef ref : s.chunks()) {
                for (long p = indexConfig.periodNumber(ref.fromNanos()); p <= indexConfig.periodNumber(ref.throughNanos());
                        p++) {
                    periods.add(p);
                }
            }
        }
        int indexedPeriods = 0;
        for (long p : periods) {
            long start = indexConfig.periodStartNanos(p);
            boolean refers = persistedIndex.chunks(m.tenant(), List.of(), start, start + indexConfig.periodNanos())
                    .stream().flatMap(s -> s.chunks().stream()).anyMatch(r -> m.objectKey().equals(r.objectKey()));
            if (refers) {
                indexedPeriods++;
            }
        }
        if (indexedPeriods == 0) {
            return false;
        }
        if (indexedPeriods < periods.size()) {
            // readers already see the object in some periods: complete the others (a period file written twice
            // holds the same refs, which readers union)
            indexWriter.write(m.tenant(), ColumnarRefs.of(m.tenant(), m.objectKey(), store.get(m.objectKey()), directory));
            LOG.info("merge into {} had indexed {} of its {} periods: wrote them all", m.objectKey(), indexedPeriods,
                    periods.size());
        }
        return true;
    }

    /** The manifest's parts still known to {@link LocalParts}. */
    private List<LocalParts.Part> listedParts(Manifest m) {
        Map<String, LocalParts.Part> byFile = new HashMap<>();
        for (LocalParts.Part p : parts.parts(m.tenant())) {
            byFile.put(partName(p.file()), p);
        }
        return m.partFiles().stream().map(f -> byFile.get(partName(Path.of(f)))).filter(Objects::nonNull).toList();
    }

    /**
     * A part file as a manifest names it: {@code <tenant>/<file>}, relative to the parts directory, so a
     * data directory moved or restored elsewhere still finds its parts (manifests of earlier versions hold
     * absolute paths: their last two names are the same).
     */
    private static String partName(Path file) {
        int names = file.getNameCount();
        return names < 2 ? file.toString() : file.subpath(names - 2, names).toString();
    }

    private void deleteUnindexedObject(Manifest m) throws IOException {
        try {
            store.delete(m.objectKey());
        } catch (ObjectNotFoundException e) {
            // never uploaded
        }
    }

    /**
     * Finishes merges a crash interrupted (see the class comment); returns how many manifests it
     * resolved. Call once at start, before the first merge and before parts are read by queries.
     */
    int recover() throws IOException {
        if (!Files.isDirectory(manifestDir)) {
            return 0;
        }
        List<Path> manifests = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(manifestDir, MANIFEST_PREFIX + "*")) {
            files.forEach(manifests::add);
        }
        int resolved = 0;
        for (Path file : manifests) {
            if (file.getFileName().toString().endsWith(".tmp")) {
                Files.delete(file);
                continue;
            }
            Manifest m = JSON.readValue(Files.readAllBytes(file), Manifest.class);
            List<LocalParts.Part> listed = listedParts(m);
            if (settle(m)) {
                parts.forget(listed);
                parts.remove(listed);
                LOG.info("merge into {} was indexed before a crash: removed its {} parts", m.objectKey(), listed.size());
            } else {
                deleteUnindexedObject(m);
                LOG.info("merge into {} was not indexed before a crash: its parts stay to be merged again",
                        m.objectKey());
            }
            Files.delete(file);
            resolved++;
        }
        return resolved;
    }
}
