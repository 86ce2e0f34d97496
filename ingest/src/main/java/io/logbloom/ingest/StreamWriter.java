package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write side of the LSM-style ingest: stores admitted pushes (one WAL record, then the rows into
 * the {@link TenantBuffers}) and keeps what admission needs per stream — the newest timestamp (for the
 * out-of-order window), which streams are active (for the per-tenant stream limits) — and the
 * identities of recently accepted entries ({@link RecentEntries}, bounded in age and count), so a
 * client retrying a push is not stored twice. Rows themselves leave heap at the next seal.
 *
 * <p>Thread-safe: {@link #lock} guards everything here and is also the lock a seal takes to swap
 * the buffers and rotate the WAL, so every WAL record belongs to exactly one seal.
 */
final class StreamWriter {
    /** Fixed heap of a stream's state: its labels, string form and map entry. */
    static final long STREAM_BYTES = 512;
    /** Heap bytes of one remembered entry identity in {@link RecentEntries} (four longs in rings plus its set slot). */
    static final long KEY_BYTES = 56;

    private final ReentrantLock lock = new ReentrantLock();
    private final TenantBuffers buffers;
    private final RecentEntries recent;
    private final Map<String, Map<Labels, StreamState>> tenants = new HashMap<>();
    /** Written under {@link #lock}; volatile so the metrics and budget read it without the lock. */
    private volatile int activeStreams;
    private volatile long memoryBytes;
    /** Counts appends; guarded by {@link #lock}. */
    private long appends;
    /** Where WAL records are built: the WAL copies a record out before the lock is released, so it goes back at once. */
    private final EncodeBuffers recordBuffers;
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

    /** Admission state of one stream; guarded by {@link #lock}. */
    private static final class StreamState {
        final Labels labels;
        final String labelsString;
        long newestNanos = Long.MIN_VALUE;
        long lastAppendNanos;
        long lastAppendSequence;

        StreamState(Labels labels) {
            this.labels = labels;
            this.labelsString = labels.toString();
        }
    }

    StreamWriter(TenantBuffers buffers, RecentEntries recent, EncodeBuffers recordBuffers) {
        this.buffers = Objects.requireNonNull(buffers, "buffers is null");
        this.recent = Objects.requireNonNull(recent, "recent is null");
        this.recordBuffers = Objects.requireNonNull(recordBuffers, "recordBuffers is null");
    }

    /** The lock pushes hold while they write the WAL and the buffers; a seal holds it to swap them. */
    ReentrantLock lock() {
        return lock;
    }

    /**
     * Stores the admitted candidates of one push: under {@link #lock}, new streams pass
     * {@link PushAdmission#admitNewStream}, entries accepted recently count as accepted duplicates,
     * the rest pass {@link PushAdmission#orderCheck}; the kept entries are written to the WAL as one
     * record ({@code encoded} holds each entry's bytes from {@link PushCandidate#prepare}) and then
     * appended to the buffers. The caller syncs the WAL.
     */
    Stored accept(String tenant, List<PushCandidate> candidates, WalCodec.Buffer encoded, PushAdmission admission,
            PushErrors errors, Wal wal, long now) throws IOException {
        // kept in small methods, each compiled once: one method with all these loops was compiled by the JIT again
        // for each loop (on-stack replacement) while pushes waited for it
        Map<Labels, List<LogEntry>> accepted = new LinkedHashMap<>();
        Admitted admitted = new Admitted();
        Wal.Position written = null;
        lock.lock();
        try {
            ensureOpen();
            Map<Labels, StreamState> streams = tenants.computeIfAbsent(tenant, t -> new HashMap<>());
            Map<StreamState, List<PushCandidate.Prepared>> toAppend = new LinkedHashMap<>();
            for (PushCandidate c : candidates) {
                admit(tenant, streams, c, admission, errors, now, admitted, toAppend);
            }
            if (!toAppend.isEmpty()) {
                WalCodec.Buffer record = record(tenant, toAppend, encoded, recordBuffers);
                written = wal.writePayload(record.array(), record.size());
                recordBuffers.give(record);
                for (Map.Entry<StreamState, List<PushCandidate.Prepared>> e : toAppend.entrySet()) {
                    accepted.put(e.getKey().labels, append(tenant, e.getKey(), e.getValue(), encoded, now));
                }
            }
        } finally {
            account();
            lock.unlock();
        }
        return new Stored(accepted, admitted.count, admitted.bytes, written);
    }

    /** What {@link #accept} counts as accepted: stored entries and duplicates. */
    private static final class Admitted {
        int count;
        long bytes;
    }

    /**
     * Admits one candidate stream: a new stream passes {@link PushAdmission#admitNewStream}, entries accepted
     * recently count as duplicates, the rest pass {@link PushAdmission#orderCheck}; the entries to store go to
     * {@code toAppend}, and a new stream with some is registered. Caller holds {@link #lock}.
     */
    private void admit(String tenant, Map<Labels, StreamState> streams, PushCandidate c, PushAdmission admission,
            PushErrors errors, long now, Admitted admitted, Map<StreamState, List<PushCandidate.Prepared>> toAppend) {
        if (c.unique.isEmpty()) {
            return;
        }
        StreamState stream = streams.get(c.labels);
        boolean isNew = stream == null;
        if (isNew) {
            Rejection limit = admission.admitNewStream(tenant, streams.size(), c);
            if (limit != null) {
                errors.reject(limit, c.entries.size());
                return;
            }
            stream = new StreamState(c.labels);
        }
        admitted.count += c.entries.size() - c.unique.size(); // repeats within the push: duplicates
        List<PushCandidate.Prepared> toStore = new ArrayList<>(c.unique.size());
        long newest = stream.newestNanos;
        long fingerprint = c.labels.fingerprint();
        for (PushCandidate.Prepared p : c.unique) {
            if (recent.contains(tenant, fingerprint, p.timestampNanos(), p.lineHash, now)) {
                admitted.count++;
                continue;
            }
            Rejection order = admission.orderCheck(newest, stream.labelsString, p.entry);
            if (order != null) {
                errors.reject(order, 1);
                continue;
            }
            toStore.add(p);
            admitted.count++;
            admitted.bytes += p.size;
        }
        if (toStore.isEmpty()) {
            return;
        }
        if (isNew) {
            streams.put(c.labels, stream);
            activeStreams++;
        }
        toAppend.put(stream, toStore);
    }

    /**
     * The WAL record of one push, in a buffer taken from {@code recordBuffers}: tenant, then per stream its labels
     * and its entries' bytes, copied from {@code encoded} in runs of adjacent entries.
     */
    private static WalCodec.Buffer record(String tenant, Map<StreamState, List<PushCandidate.Prepared>> toAppend,
            WalCodec.Buffer encoded, EncodeBuffers recordBuffers) {
        int labelBytes = 0;
        for (StreamState stream : toAppend.keySet()) {
            labelBytes += 3 * stream.labelsString.length() + 8; // UTF-8 bound and the two lengths
        }
        WalCodec.Buffer record = recordBuffers.take(encoded.size() + labelBytes + 16 + 3 * tenant.length());
        record.writeByte(WalCodec.TYPE_ENTRIES);
        record.writeString(tenant);
        record.writeInt(toAppend.size());
        for (Map.Entry<StreamState, List<PushCandidate.Prepared>> e : toAppend.entrySet()) {
            List<PushCandidate.Prepared> toStore = e.getValue();
            record.writeString(e.getKey().labelsString);
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
        }
        return record;
    }

    /** Appends one stream's stored entries to the buffers and remembers them; caller holds {@link #lock}. */
    private List<LogEntry> append(String tenant, StreamState stream, List<PushCandidate.Prepared> toStore,
            WalCodec.Buffer encoded, long now) {
        byte[] bytes = encoded.array();
        buffers.append(tenant, stream.labels, rows -> {
            for (PushCandidate.Prepared p : toStore) {
                // the line's UTF-8 bytes are already in the WAL encoding: copy them, do not encode again
                rows.append(p.entry.timestampNanos(), bytes, WalCodec.entryLineOffset(p.walStart),
                        WalCodec.entryLineLength(bytes, p.walStart), p.entry.metadata());
            }
        });
        List<LogEntry> entries = new ArrayList<>(toStore.size());
        for (PushCandidate.Prepared p : toStore) {
            remember(tenant, stream, p.timestampNanos(), p.lineHash, now);
            entries.add(p.entry);
        }
        return entries;
    }

    /** Restores one replayed entry (accepted before a restart): no limits, recent duplicates skipped. */
    void replay(String tenant, Labels labels, LogEntry entry, long now) {
        lock.lock();
        try {
            StreamState stream = tenants.computeIfAbsent(tenant, t -> new HashMap<>()).get(labels);
            if (stream == null) {
                stream = new StreamState(labels);
                tenants.get(tenant).put(labels, stream);
                activeStreams++;
            }
            long lineHash = EntryKey.lineHash(entry.line());
            if (!recent.contains(tenant, labels.fingerprint(), entry.timestampNanos(), lineHash, now)) {
                buffers.append(tenant, stream.labels, entry);
                remember(tenant, stream, entry.timestampNanos(), lineHash, now);
            }
        } finally {
            account();
            lock.unlock();
        }
    }

    /** Remembers an entry already stored in a part (found on restart), so a retry of it is a duplicate. */
    void rememberStored(String tenant, Labels labels, long timestampNanos, long lineHash, long now) {
        lock.lock();
        try {
            recent.add(tenant, labels.fingerprint(), timestampNanos, lineHash, now);
        } finally {
            account();
            lock.unlock();
        }
    }

    /** Records an appended entry: its identity for duplicate detection and the stream's admission state. */
    private void remember(String tenant, StreamState stream, long timestampNanos, long lineHash, long now) {
        recent.add(tenant, stream.labels.fingerprint(), timestampNanos, lineHash, now);
        stream.newestNanos = Math.max(stream.newestNanos, timestampNanos);
        stream.lastAppendNanos = now;
        stream.lastAppendSequence = ++appends;
    }

    /** A mark of the appends so far, for {@link #forgetStreamsWithoutAppendSince}. */
    long appendMark() {
        lock.lock();
        try {
            return appends;
        } finally {
            lock.unlock();
        }
    }

    /** Forgets the streams without an append after {@code mark}: all they held is flushed; returns how many. */
    int forgetStreamsWithoutAppendSince(long mark) {
        return removeStreams(s -> s.lastAppendSequence <= mark);
    }

    /**
     * Forgets streams without an append for {@code idleNanos}: they stop counting against the stream
     * limits and their out-of-order window restarts, as a Loki stream flushed after its idle period.
     */
    int expireIdle(long now, long idleNanos) {
        return removeStreams(s -> now - s.lastAppendNanos >= idleNanos);
    }

    private int removeStreams(java.util.function.Predicate<StreamState> remove) {
        int removed = 0;
        lock.lock();
        try {
            for (Map<Labels, StreamState> streams : tenants.values()) {
                Iterator<StreamState> it = streams.values().iterator();
                while (it.hasNext()) {
                    if (remove.test(it.next())) {
                        it.remove();
                        removed++;
                    }
                }
            }
            tenants.values().removeIf(Map::isEmpty);
            activeStreams -= removed;
            account();
        } finally {
            lock.unlock();
        }
        return removed;
    }

    /** Streams that had an append within the idle period. */
    int activeStreams() {
        return activeStreams;
    }

    /**
     * Heap bytes of the admission state: stream states and remembered entry identities (the buffers
     * count apart). Read on every push, so kept in a field updated under {@link #lock}, not computed.
     */
    long memoryBytes() {
        return memoryBytes;
    }

    /** Recomputes {@link #memoryBytes}; caller holds {@link #lock}. */
    private void account() {
        memoryBytes = activeStreams * STREAM_BYTES + recent.size() * KEY_BYTES;
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

    /** Marks the writer closed and runs {@code closeWal} under {@link #lock}, so no push writes the WAL after it. */
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
}
