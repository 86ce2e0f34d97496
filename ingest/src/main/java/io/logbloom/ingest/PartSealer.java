package io.logbloom.ingest;

import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;

/**
 * Turns the write buffers into durable on-disk parts and releases the WAL they cover: the step from
 * the memory level to the disk level of the LSM-style write path.
 *
 * <p><b>One seal.</b> Under the admission lock (the lock pushes hold while they append a record to
 * the WAL and its rows to the buffers) it takes every buffer ({@link TenantBuffers#seal()}) and
 * rotates the WAL, so every record in segments up to the old one belongs to rows this seal took,
 * or to an earlier seal. Outside the lock it writes one part per tenant ({@link LocalParts#write}),
 * each named with that last segment; once all of them are written it deletes those segments. A
 * crash in between leaves some tenants' parts written and the WAL whole: replay skips a tenant's
 * records that its parts cover ({@link LocalParts#coveredWalSegment}) and restores the rest, so every
 * acknowledged row is present exactly once. A seal that finds nothing in memory and nothing pending
 * releases every closed segment (their records are all in parts), so such a restart's parts become
 * mergeable without waiting for a push. {@link CrashPoint}s mark each step for tests.
 *
 * <p><b>Failures.</b> A seal whose part cannot be written (disk full, I/O error) stays pending,
 * readable by queries ({@link #read}) and retried first by the next seal, in order, so WAL segments
 * are only ever released behind fully written seals; the error is returned to the caller, which
 * decides when persistent failure is fatal.
 *
 * <p>Once a tenant's part is written and visible, its rows' buffers go back to the buffers as spares
 * ({@link TenantBuffers#recycle}): a reader only ever copies pending rows under the lock that moves
 * them into the part, so after that step nothing else holds them.
 *
 * <p>Thread-safe: seals are serialized on this object; {@link #read} may run concurrently.
 */
final class PartSealer {
    /** A seal not yet written in full: the rows of each tenant still to write, and the WAL segment they cover. */
    private static final class Pending {
        final long walSegment;
        final Map<String, Map<Labels, ColumnarRows>> tenants;

        Pending(long walSegment, Map<String, Map<Labels, ColumnarRows>> tenants) {
            this.walSegment = walSegment;
            this.tenants = new TreeMap<>(tenants); // tenants are written in id order: deterministic retries
        }
    }

    /** What a seal did: rows sealed now, parts written, and the WAL segments released. */
    record Outcome(long rowsSealed, int partsWritten, int walSegmentsReleased, int pendingSeals) {}

    private final TenantBuffers buffers;
    private final LocalParts parts;
    private final Wal wal;
    private final Lock admission;
    private final CrashHook crashHook;
    private final List<Pending> pending = new ArrayList<>();
    private volatile long releasedThroughSegment;

    PartSealer(TenantBuffers buffers, LocalParts parts, Wal wal, Lock admission) throws IOException {
        this(buffers, parts, wal, admission, CrashHook.NONE);
    }

    /** A sealer calling {@code crashHook} at each {@link CrashPoint} of a seal (tests stop it there). */
    PartSealer(TenantBuffers buffers, LocalParts parts, Wal wal, Lock admission, CrashHook crashHook)
            throws IOException {
        this.crashHook = Objects.requireNonNull(crashHook, "crashHook is null");
        this.buffers = Objects.requireNonNull(buffers, "buffers is null");
        this.parts = Objects.requireNonNull(parts, "parts is null");
        this.wal = Objects.requireNonNull(wal, "wal is null");
        this.admission = Objects.requireNonNull(admission, "admission is null");
        this.releasedThroughSegment = wal.oldestSegment() - 1;
    }

    /**
     * Seals the buffers (if they hold rows) and writes every pending seal, oldest first.
     *
     * @throws IOException the first write failure; what was not written stays pending
     */
    synchronized Outcome seal() throws IOException {
        long rows = 0;
        long idleThrough = Long.MIN_VALUE;
        admission.lock();
        try {
            synchronized (pending) {
                TenantBuffers.Sealed sealed = buffers.seal();
                if (!sealed.isEmpty()) {
                    long next = wal.rotate();
                    pending.add(new Pending(next - 1, sealed.tenants()));
                    rows = sealed.rows();
                } else if (pending.isEmpty()) {
                    // nothing in memory: every record of the closed segments is in parts (e.g. a restart after a
                    // crash between a seal's parts and its WAL release replays nothing), so they are released too;
                    // else those parts would wait for the next push to be mergeable, and a flush would leave them
                    idleThrough = wal.currentSegment() - 1;
                }
            }
        } finally {
            admission.unlock();
        }
        if (rows > 0) {
            crashHook.reached(CrashPoint.SEAL_BUFFERS_TAKEN);
        }
        int written = 0;
        int released = 0;
        while (true) {
            Pending oldest;
            synchronized (pending) {
                if (pending.isEmpty()) {
                    break;
                }
                oldest = pending.get(0);
            }
            for (String tenant : List.copyOf(oldest.tenants.keySet())) {
                Map<Labels, ColumnarRows> streams = oldest.tenants.get(tenant);
                LocalParts.Part part = parts.write(tenant, oldest.walSegment, streams);
                written++;
                synchronized (pending) { // readers see the rows either pending or in the part, never both
                    parts.add(part);
                    oldest.tenants.remove(tenant);
                }
                buffers.recycle(tenant, streams); // no reader can reach these rows any more
                crashHook.reached(CrashPoint.SEAL_PART_WRITTEN);
            }
            crashHook.reached(CrashPoint.SEAL_PARTS_WRITTEN);
            released += wal.releaseSegmentsBefore(oldest.walSegment + 1);
            crashHook.reached(CrashPoint.SEAL_WAL_RELEASED);
            releasedThroughSegment = oldest.walSegment;
            synchronized (pending) {
                pending.remove(0);
            }
        }
        if (idleThrough > releasedThroughSegment) {
            released += wal.releaseSegmentsBefore(idleThrough + 1);
            crashHook.reached(CrashPoint.SEAL_WAL_RELEASED);
            releasedThroughSegment = idleThrough;
        }
        int left;
        synchronized (pending) {
            left = pending.size();
        }
        return new Outcome(rows, written, released, left);
    }

    /**
     * The newest WAL segment whose seal is fully written and whose segments are released: a part
     * covering no later segment can leave the disk (be merged and uploaded) without replay ever
     * bringing its rows back.
     */
    long releasedThroughSegment() {
        return releasedThroughSegment;
    }

    /** Heap bytes the rows of seals not yet fully written hold. */
    long pendingBytes() {
        synchronized (pending) {
            long total = 0;
            for (Pending p : pending) {
                for (Map<Labels, ColumnarRows> streams : p.tenants.values()) {
                    for (ColumnarRows rows : streams.values()) {
                        total += rows.retainedBytes();
                    }
                }
            }
            return total;
        }
    }

    /**
     * Bytes not yet in the object store: the buffers' and pending seals' rows (heap bytes) and the
     * parts on disk, taken under the lock seals move rows with, so no row is counted twice or missed.
     */
    long unmergedBytes() {
        synchronized (pending) {
            return pendingBytes() + buffers.retainedBytes() + parts.sizeBytes();
        }
    }

    /** Seals taken but not yet fully written. */
    int pendingSeals() {
        synchronized (pending) {
            return pending.size();
        }
    }

    /** What a query reads of one tenant below the object store, taken atomically with respect to seals. */
    record Unflushed(Map<Labels, List<LogEntry>> rows, List<LocalParts.Part> parts) {}

    /**
     * Copies of {@code tenant}'s rows in the buffers and in pending seals, for streams matching
     * {@code matchers} with timestamps in [fromNanos, throughNanos), per stream; and the tenant's
     * parts, pinned ({@link LocalParts#pinnedParts}: the caller unpins them). Taken under the lock seals move
     * rows with, so every row is in exactly one of the two.
     */
    Unflushed snapshot(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        synchronized (pending) {
            Map<Labels, List<LogEntry>> out = new HashMap<>();
            for (Pending p : pending) {
                Map<Labels, ColumnarRows> streams = p.tenants.get(tenant);
                if (streams == null) {
                    continue;
                }
                for (Map.Entry<Labels, ColumnarRows> e : streams.entrySet()) {
                    if (!matchers.stream().allMatch(m -> m.matches(e.getKey()))) {
                        continue;
                    }
                    ColumnarRows rows = e.getValue();
                    for (int row = 0; row < rows.size(); row++) {
                        long ts = rows.timestampNanos(row);
                        if (ts >= fromNanos && ts < throughNanos) {
                            out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(rows.entry(row));
                        }
                    }
                }
            }
            buffers.read(tenant, matchers, fromNanos, throughNanos)
                    .forEach((labels, entries) -> out.computeIfAbsent(labels, k -> new ArrayList<>()).addAll(entries));
            return new Unflushed(out, parts.pinnedParts(tenant)); // the caller unpins them
        }
    }
}
