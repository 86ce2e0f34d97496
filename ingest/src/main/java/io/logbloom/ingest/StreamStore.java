package io.logbloom.ingest;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.MemChunk;
import io.logbloom.index.LabelMatcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The unflushed data: per tenant, per stream, the open {@link MemChunk} and the closed chunks on
 * their way to storage, with the dedupe keys of everything in memory and of what was flushed in the
 * last minutes ({@link RecentlyFlushed}). It stores admitted pushes (WAL record first, then memory),
 * rebuilds streams on WAL replay, answers reads of unflushed data, and hands closed chunks to the
 * flush cycle ({@link ChunkFlusher}), which reports progress back through the {@link ClosedChunk}
 * flags and finally releases them here.
 *
 * <p>This class and {@link ChunkFlusher} are the row-chunk engine; admission ({@link PushAdmission}),
 * the WAL and its replay ({@link WalReplay}) only use the methods {@link #accept}, {@link #replay},
 * {@link #unflushed} and {@link #close}, so a columnar buffer with on-disk parts can replace both.
 *
 * <p>Thread-safe: {@code lock} guards the tenant map, every stream's chunks and keys, the closed
 * chunks' {@code indexed}/{@code indexedEpoch} fields and {@code recentlyFlushed}; the other progress
 * flags of a closed chunk are written and read only by the (single) flush cycle.
 */
final class StreamStore {
    /**
     * A checkpoint rotates a WAL segment only past this size, so frequent flushes do not leave
     * thousands of tiny files.
     */
    static final long CHECKPOINT_ROTATE_BYTES = 1L << 20;

    private final ChunkConfig chunkConfig;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Map<Labels, MemStream>> tenants = new HashMap<>();
    private final RecentlyFlushed recentlyFlushed = new RecentlyFlushed();
    private final AtomicInteger activeStreams = new AtomicInteger();
    /** Sum of every stream's {@code accountedBytes} plus the recently-flushed keys; written under {@code lock}. */
    private final AtomicLong memoryBytes = new AtomicLong();
    private long recentlyFlushedBytes;
    private volatile boolean closed;

    /** What one push stored: entries per stream (for tailing), counts, and the WAL position of its record (null if none). */
    record Stored(Map<Labels, List<LogEntry>> entries, int acceptedCount, long acceptedBytes, Wal.Position walPosition) {
        long storedLines() {
            long n = 0;
            for (List<LogEntry> list : entries.values()) {
                n += list.size();
            }
            return n;
        }
    }

    /** A closed chunk with its stream, as the flush cycle works on it. */
    record Work(MemStream stream, ClosedChunk chunk) {}

    StreamStore(ChunkConfig chunkConfig) {
        this.chunkConfig = Objects.requireNonNull(chunkConfig, "chunkConfig is null");
    }

    /** Heap bytes of one dedupe key in an {@link EntryKeySet}: 32 per slot at load up to 1/2, plus the newest-timestamp run. */
    static final long KEY_BYTES = 96;
    /** Heap bytes of one key in a closed chunk's identity arrays (timestamp and hash). */
    static final long CHUNK_KEY_BYTES = 16;
    /**
     * Heap bytes per raw byte of the uncompressed head block: entries are objects (line string, metadata
     * list, label records and strings), about twice the raw text plus ~100 bytes per entry and label.
     */
    static final long HEAD_HEAP_FACTOR = 3;
    /** Fixed heap of a stream: its labels, maps, arrays and the open chunk's bookkeeping. */
    static final long STREAM_BYTES = 2048;

    /**
     * Estimated heap bytes held for unflushed data: open chunks (compressed blocks, the head block
     * as objects, the compression scratch buffer), closed chunks awaiting flush, and dedupe keys
     * (in memory and recently flushed). Updated on every append, close and release; read lock-free.
     */
    long memoryBytes() {
        return memoryBytes.get();
    }

    /** Streams with data in memory. */
    int activeStreams() {
        return activeStreams.get();
    }

    /** Whether {@link #close} ran. */
    boolean isClosed() {
        return closed;
    }

    /** Throws when closed. */
    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("ingester is closed");
        }
    }

    /**
     * Stores the admitted candidates of one push: under {@code lock}, new streams pass
     * {@link PushAdmission#admitNewStream}, entries already in memory or recently flushed count as
     * accepted duplicates, the rest pass {@link PushAdmission#orderCheck}; the kept entries are written
     * to the WAL as one record ({@code encoded} holds each entry's bytes from
     * {@link PushCandidate#prepare}) and then appended to memory. The caller syncs the WAL.
     */
    Stored accept(String tenant, List<PushCandidate> candidates, WalCodec.Buffer encoded, PushAdmission admission,
            PushErrors errors, Wal wal, long now) throws IOException {
        Map<Labels, List<LogEntry>> accepted = new LinkedHashMap<>();
        int acceptedCount = 0;
        long acceptedBytes = 0;
        Wal.Position written = null;
        lock.lock();
        Map<Labels, MemStream> streams = tenants.computeIfAbsent(tenant, t -> new HashMap<>());
        try {
            ensureOpen();
            WalCodec.Buffer record = null;
            int recordStreams = 0;
            Map<MemStream, List<PushCandidate.Prepared>> toAppend = new LinkedHashMap<>();
            for (PushCandidate c : candidates) {
                if (c.unique.isEmpty()) {
                    continue;
                }
                MemStream stream = streams.get(c.labels);
                if (stream == null) {
                    Rejection limit = admission.admitNewStream(tenant, streams.size(), c);
                    if (limit != null) {
                        errors.reject(limit, c.entries.size());
                        continue;
                    }
                    stream = new MemStream(tenant, c.labels);
                    streams.put(c.labels, stream);
                    activeStreams.incrementAndGet();
                }
                acceptedCount += c.entries.size() - c.unique.size(); // repeats within the push: duplicates
                List<PushCandidate.Prepared> toStore = new ArrayList<>(c.unique.size());
                for (PushCandidate.Prepared p : c.unique) {
                    // stream.keys holds no timestamp above newestNanos, so newer entries skip its (cache-missing) probe
                    if ((p.key.timestampNanos() <= stream.newestNanos
                            && stream.keys.contains(0, p.key.timestampNanos(), p.key.lineHash()))
                            || recentlyFlushed.contains(tenant, c.labels.fingerprint(),
                            p.key.timestampNanos(), p.key.lineHash(), now)) {
                        acceptedCount++;
                        continue;
                    }
                    Rejection order = admission.orderCheck(stream.newestNanos, stream.labelsString, p.entry);
                    if (order != null) {
                        errors.reject(order, 1);
                        continue;
                    }
                    toStore.add(p);
                    acceptedCount++;
                    acceptedBytes += p.size;
                }
                if (toStore.isEmpty()) {
                    continue;
                }
                if (record == null) {
                    record = new WalCodec.Buffer(encoded.size() + 256);
                    record.writeByte(WalCodec.TYPE_ENTRIES);
                    record.writeString(tenant);
                    record.writeInt(0); // stream count, patched below
                }
                record.writeString(stream.labelsString);
                record.writeInt(toStore.size());
                int runStart = -1;
                int runEnd = -1;
                for (PushCandidate.Prepared p : toStore) {
                    if (p.walStart != runEnd) {
                        if (runStart >= 0) {
                            record.writeBytes(encoded.array(), runStart, runEnd - runStart);
                        }
                        runStart = p.walStart;
                    }
                    runEnd = p.walEnd;
                }
                record.writeBytes(encoded.array(), runStart, runEnd - runStart);
                recordStreams++;
                toAppend.put(stream, toStore);
            }
            if (record != null) {
                int at = 1 + 4 + tenant.getBytes(StandardCharsets.UTF_8).length;
                byte[] bytes = record.array();
                bytes[at] = (byte) (recordStreams >>> 24);
                bytes[at + 1] = (byte) (recordStreams >>> 16);
                bytes[at + 2] = (byte) (recordStreams >>> 8);
                bytes[at + 3] = (byte) recordStreams;
                written = wal.writePayload(bytes, record.size());
                for (Map.Entry<MemStream, List<PushCandidate.Prepared>> e : toAppend.entrySet()) {
                    List<LogEntry> entries = new ArrayList<>(e.getValue().size());
                    for (PushCandidate.Prepared p : e.getValue()) {
                        append(e.getKey(), p.entry, p.key, p.size, written.segment(), now);
                        entries.add(p.entry);
                    }
                    accepted.put(e.getKey().labels, entries);
                }
            }
        } finally {
            removeEmptyStreams(streams);
            lock.unlock();
        }
        return new Stored(accepted, acceptedCount, acceptedBytes, written);
    }

    /**
     * Appends replayed entries (sorted by time) of one stream, bypassing limits (they were accepted
     * before the restart) and skipping those already in memory; returns how many were appended.
     */
    long replay(String tenant, Labels labels, List<LogEntry> sorted, long firstSegment, long now) {
        long appended = 0;
        lock.lock();
        try {
            Map<Labels, MemStream> streams = tenants.computeIfAbsent(tenant, t -> new HashMap<>());
            MemStream stream = streams.get(labels);
            if (stream == null) {
                stream = new MemStream(tenant, labels);
                streams.put(labels, stream);
                activeStreams.incrementAndGet();
            }
            for (LogEntry entry : sorted) {
                EntryKey key = EntryKey.of(entry);
                if (!stream.keys.contains(0, key.timestampNanos(), key.lineHash())) {
                    append(stream, entry, key, PushAdmission.entrySize(entry, PushValidator.utf8Length(entry.line())),
                            firstSegment, now);
                    appended++;
                }
            }
        } finally {
            lock.unlock();
        }
        return appended;
    }

    /** Appends an accepted entry to the stream's open chunk; caller holds {@code lock}. */
    private void append(MemStream s, LogEntry entry, EntryKey key, long size, long segment, long now) {
        if (s.head != null && entry.timestampNanos() < s.cutBoundNanos) {
            closeHead(s, FlushReason.OUT_OF_ORDER);
        }
        if (s.head == null) {
            s.head = new MemChunk(chunkConfig);
            s.headOpenedNanos = now;
            s.headMinSegment = segment;
            s.cutBoundNanos = Long.MIN_VALUE;
        }
        s.head.appendDeduplicated(entry, size);
        s.headMinSegment = Math.min(s.headMinSegment, segment);
        s.keys.add(0, key.timestampNanos(), key.lineHash());
        if (s.headKeyCount == s.headTimestamps.length) {
            s.headTimestamps = Arrays.copyOf(s.headTimestamps, s.headKeyCount * 2);
            s.headHashes = Arrays.copyOf(s.headHashes, s.headKeyCount * 2);
        }
        s.headTimestamps[s.headKeyCount] = key.timestampNanos();
        s.headHashes[s.headKeyCount] = key.lineHash();
        s.headKeyCount++;
        s.newestNanos = Math.max(s.newestNanos, entry.timestampNanos());
        s.headLastAppendNanos = now;
        if (s.head.headBytes() == 0) {
            s.cutBoundNanos = s.head.maxTimeNanos();
        }
        if (s.head.isFull()) {
            closeHead(s, FlushReason.FULL);
        } else {
            reaccount(s);
        }
    }

    /** Encodes the open chunk and queues it for flushing; caller holds {@code lock}. */
    private void closeHead(MemStream s, FlushReason reason) {
        MemChunk chunk = s.head;
        byte[] bytes = chunk.encode();
        ChunkRef ref = new ChunkRef(s.tenant, s.labels.fingerprint(), chunk.minTimeNanos(), chunk.maxTimeNanos(),
                Chunk.checksum(bytes), bytes.length, chunk.entryCount());
        Chunk view;
        try {
            view = Chunk.decode(bytes);
        } catch (ChunkFormatException e) {
            throw new IllegalStateException("BUG: chunk just encoded does not decode: " + e.getMessage(), e);
        }
        // the closed chunk keeps only the encoded bytes (read through a lazy view), not the MemChunk's
        // blocks and compression scratch buffer, so it holds half the memory
        s.closed.add(new ClosedChunk(view, bytes, ref, reason, s.headMinSegment,
                Arrays.copyOf(s.headTimestamps, s.headKeyCount), Arrays.copyOf(s.headHashes, s.headKeyCount)));
        s.head = null;
        s.headTimestamps = new long[MemStream.INITIAL_HEAD_KEYS];
        s.headHashes = new long[MemStream.INITIAL_HEAD_KEYS];
        s.headKeyCount = 0;
        reaccount(s);
    }

    /** Recomputes the stream's estimate and applies the difference to the total; caller holds {@code lock}. */
    private void reaccount(MemStream s) {
        long bytes = STREAM_BYTES + s.keys.size() * KEY_BYTES + s.headTimestamps.length * CHUNK_KEY_BYTES;
        if (s.head != null) {
            bytes += s.head.compressedBytes() + s.head.headBytes() * HEAD_HEAP_FACTOR
                    + chunkConfig.blockSizeBytes() + chunkConfig.blockSizeBytes() / 4;
        }
        for (ClosedChunk c : s.closed) {
            bytes += c.bytes.length + c.keyTimestamps.length * CHUNK_KEY_BYTES;
        }
        memoryBytes.addAndGet(bytes - s.accountedBytes);
        s.accountedBytes = bytes;
    }

    private void removeEmptyStreams(Map<Labels, MemStream> streams) {
        Iterator<MemStream> it = streams.values().iterator();
        while (it.hasNext()) {
            MemStream s = it.next();
            if (s.head == null && s.closed.isEmpty()) {
                it.remove();
                activeStreams.decrementAndGet();
                memoryBytes.addAndGet(-s.accountedBytes);
                s.accountedBytes = 0;
            }
        }
    }

    /**
     * Entries in memory for streams matching all {@code matchers}, in [fromNanos, throughNanos),
     * sorted by time, leaving out closed chunks published to the index in an epoch up to
     * {@code visibleUpTo} (the index answer the caller already has holds those).
     */
    List<StreamSnapshot> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos,
            long visibleUpTo) {
        List<StreamSnapshot> out = new ArrayList<>();
        lock.lock();
        try {
            Map<Labels, MemStream> streams = tenants.get(tenant);
            if (streams == null) {
                return out;
            }
            for (MemStream s : streams.values()) {
                if (!matchesAll(matchers, s.labels)) {
                    continue;
                }
                List<LogEntry> entries = new ArrayList<>();
                for (ClosedChunk c : s.closed) {
                    if (!c.indexed || c.indexedEpoch > visibleUpTo) {
                        c.chunk.iterator(fromNanos, throughNanos, Direction.FORWARD).forEachRemaining(entries::add);
                    }
                }
                if (s.head != null) {
                    s.head.iterator(fromNanos, throughNanos, Direction.FORWARD).forEachRemaining(entries::add);
                }
                if (!entries.isEmpty()) {
                    entries.sort(Comparator.comparingLong(LogEntry::timestampNanos));
                    out.add(new StreamSnapshot(s.labels, entries));
                }
            }
        } finally {
            lock.unlock();
        }
        out.sort(Comparator.comparing(StreamSnapshot::labels));
        return out;
    }

    private static boolean matchesAll(List<LabelMatcher> matchers, Labels labels) {
        for (LabelMatcher m : matchers) {
            if (!m.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- flush cycle support

    /**
     * Closes open chunks that {@code policy} (or {@code forceReason}, when non-null) says are due and
     * returns every closed chunk whose retry backoff is over (all of them with {@code ignoreBackoff}).
     */
    List<Work> closeDue(FlushPolicy policy, FlushReason forceReason, boolean ignoreBackoff, long now) {
        List<Work> work = new ArrayList<>();
        lock.lock();
        try {
            for (Map<Labels, MemStream> streams : tenants.values()) {
                for (MemStream s : streams.values()) {
                    if (s.head != null) {
                        FlushReason reason = forceReason != null ? forceReason
                                : policy.reason(s.head.isFull(), s.head.minTimeNanos(), s.head.maxTimeNanos(),
                                        s.headOpenedNanos, s.headLastAppendNanos, now);
                        if (reason != null) {
                            closeHead(s, reason);
                        }
                    }
                    for (ClosedChunk c : s.closed) {
                        if (ignoreBackoff || now >= c.nextAttemptNanos) {
                            work.add(new Work(s, c));
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        return work;
    }

    /** Publishes the stored, not yet indexed chunks of {@code work} to the head index in epoch {@code epoch}. */
    void markIndexed(List<Work> work, long epoch, VisibleIndex index) {
        lock.lock();
        try {
            for (Work w : work) {
                if (w.chunk.stored && !w.chunk.indexed) {
                    index.addToHead(w.stream.tenant, w.stream.labels, w.chunk.ref);
                    w.chunk.indexed = true;
                    w.chunk.indexedEpoch = epoch;
                    w.chunk.indexedAtNanos = System.nanoTime();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes from memory the chunks of {@code work} that are stored, indexed, bloomed and past their
     * grace period (any age when {@code forced}); their keys move to the recently-flushed set. Then,
     * when some left, appends their {@code Flushed} markers to the WAL and deletes the WAL segments
     * older than the oldest data still in memory. {@code onRemoved} sees each removed chunk.
     */
    void release(List<Work> work, boolean forced, long graceNanos, long now, Wal wal,
            java.util.function.Consumer<ClosedChunk> onRemoved) throws IOException {
        List<WalRecord.Flushed> markers = new ArrayList<>();
        lock.lock();
        try {
            for (Work w : work) {
                ClosedChunk c = w.chunk;
                boolean graceOver = forced || System.nanoTime() - c.indexedAtNanos >= graceNanos;
                if (c.stored && c.indexPersisted && c.bloomed && graceOver && w.stream.closed.remove(c)) {
                    for (int i = 0; i < c.keyTimestamps.length; i++) {
                        w.stream.keys.remove(0, c.keyTimestamps[i], c.keyHashes[i]);
                        recentlyFlushed.add(w.stream.tenant, w.stream.labels.fingerprint(), c.keyTimestamps[i],
                                c.keyHashes[i], now);
                    }
                    markers.add(new WalRecord.Flushed(w.stream.tenant, w.stream.labelsString, c.keyTimestamps,
                            c.keyHashes));
                    reaccount(w.stream);
                    onRemoved.accept(c);
                }
            }
            for (Map<Labels, MemStream> streams : tenants.values()) {
                removeEmptyStreams(streams);
            }
            long keysBytes = recentlyFlushed.size() * KEY_BYTES;
            memoryBytes.addAndGet(keysBytes - recentlyFlushedBytes);
            recentlyFlushedBytes = keysBytes;
            if (!markers.isEmpty()) {
                wal.appendAll(markers);
                long minSegment = Long.MAX_VALUE;
                for (Map<Labels, MemStream> streams : tenants.values()) {
                    for (MemStream s : streams.values()) {
                        if (s.head != null) {
                            minSegment = Math.min(minSegment, s.headMinSegment);
                        }
                        for (ClosedChunk c : s.closed) {
                            minSegment = Math.min(minSegment, c.minSegment);
                        }
                    }
                }
                // rotate when memory is empty (everything in the WAL is flushed) or the segment is big
                // enough that releasing it is worth a new file; otherwise keep appending to it
                if (minSegment == Long.MAX_VALUE || wal.currentSegmentBytes() >= CHECKPOINT_ROTATE_BYTES) {
                    wal.rotate();
                }
                wal.deleteSegmentsBefore(Math.min(minSegment, wal.currentSegment()));
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Relieves memory pressure: when the memory held minus what closed chunks (soon flushed) hold is
     * above {@code targetBytes}, closes the open chunks of the largest streams, largest first, until
     * the difference is covered; returns how many chunks it closed.
     */
    int closeLargest(long targetBytes) {
        lock.lock();
        try {
            long pending = 0;
            List<MemStream> open = new ArrayList<>();
            for (Map<Labels, MemStream> streams : tenants.values()) {
                for (MemStream s : streams.values()) {
                    for (ClosedChunk c : s.closed) {
                        pending += c.bytes.length + c.keyTimestamps.length * (CHUNK_KEY_BYTES + KEY_BYTES);
                    }
                    if (s.head != null) {
                        open.add(s);
                    }
                }
            }
            long need = memoryBytes.get() - pending - targetBytes;
            if (need <= 0) {
                return 0;
            }
            open.sort(Comparator.comparingLong((MemStream s) -> s.accountedBytes).reversed());
            int closedCount = 0;
            for (MemStream s : open) {
                if (need <= 0) {
                    break;
                }
                long before = s.accountedBytes;
                closeHead(s, FlushReason.MEMORY);
                need -= before;
                closedCount++;
            }
            return closedCount;
        } finally {
            lock.unlock();
        }
    }

    /** Whether some chunk is in the head index but not yet in a persisted index file. */
    boolean awaitsIndexFile() {
        lock.lock();
        try {
            for (Map<Labels, MemStream> streams : tenants.values()) {
                for (MemStream s : streams.values()) {
                    for (ClosedChunk c : s.closed) {
                        if (c.indexed && !c.indexPersisted) {
                            return true;
                        }
                    }
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Marks the store closed and runs {@code closeWal} under {@code lock}, so no push writes the WAL after it. */
    void close(IoAction closeWal) throws IOException {
        lock.lock();
        try {
            closed = true;
            closeWal.run();
        } finally {
            lock.unlock();
        }
    }

    /** An action that may fail with an IOException. */
    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }

    /** One stream in memory; every field guarded by the store's {@code lock}. */
    static final class MemStream {
        static final int INITIAL_HEAD_KEYS = 64;
        final String tenant;
        final Labels labels;
        final String labelsString;
        /** Dedupe identities (stream id 0, timestamp, line hash) of every entry in memory. */
        final EntryKeySet keys = new EntryKeySet();
        /** Identities of the open chunk's entries, handed to its {@link ClosedChunk} so removal needs no decoding. */
        long[] headTimestamps = new long[INITIAL_HEAD_KEYS];
        long[] headHashes = new long[INITIAL_HEAD_KEYS];
        int headKeyCount;
        final List<ClosedChunk> closed = new ArrayList<>();
        MemChunk head;
        long headOpenedNanos;
        long headLastAppendNanos;
        long headMinSegment;
        long cutBoundNanos = Long.MIN_VALUE;
        /** Newest timestamp ever appended; {@link #keys} holds none above it (the dedupe probe relies on it). */
        long newestNanos = Long.MIN_VALUE;
        /** This stream's share of the store's {@code memoryBytes}. */
        long accountedBytes;

        MemStream(String tenant, Labels labels) {
            this.tenant = tenant;
            this.labels = labels;
            this.labelsString = labels.toString();
        }
    }

    /** A closed chunk on its way to storage; the progress flags are written by the flush cycle only. */
    static final class ClosedChunk {
        /** A lazy view over {@link #bytes}: blocks are decompressed only while read. */
        final Chunk chunk;
        final byte[] bytes;
        final ChunkRef ref;
        final FlushReason reason;
        final long minSegment;
        /** Dedupe identities of the chunk's entries, in append order (also its WAL {@code Flushed} marker). */
        final long[] keyTimestamps;
        final long[] keyHashes;
        boolean stored;
        boolean indexed;
        long indexedEpoch;
        long indexedAtNanos;
        boolean indexPersisted;
        boolean bloomed;
        int attempts;
        long nextAttemptNanos;
        long flushNanos;

        ClosedChunk(Chunk chunk, byte[] bytes, ChunkRef ref, FlushReason reason, long minSegment,
                long[] keyTimestamps, long[] keyHashes) {
            this.chunk = chunk;
            this.bytes = bytes;
            this.ref = ref;
            this.reason = reason;
            this.minSegment = minSegment;
            this.keyTimestamps = keyTimestamps;
            this.keyHashes = keyHashes;
        }
    }
}
