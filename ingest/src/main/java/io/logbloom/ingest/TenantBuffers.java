package io.logbloom.ingest;

import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The rows accepted since the last seal, per tenant and stream, in columnar form (no object per
 * row): the small in-memory level of the LSM-style write path. {@link #seal()} hands every buffer
 * over at once and starts empty ones, so the sealer writes what a WAL segment range holds while
 * pushes go on into the new buffers.
 *
 * <p>Memory is accounted as the heap the row arrays hold ({@link #retainedBytes()}, capacity) and as
 * the heap the rows take in them ({@link #usedBytes()}); the owner seals when {@link #sealPressureBytes()}
 * (the rows, or the arrays grown since the last seal if more) passes a bound, which keeps unflushed data in
 * heap to about one seal's worth.
 *
 * <p><b>Recycling.</b> Once a seal's rows are written, the sealer hands their buffers back
 * ({@link #recycle}); emptied, they become spares that the same stream takes again after the next
 * seal, so a steady push fills arrays of the size it needs instead of growing new ones by doubling
 * after every seal (a third of what a push allocated). Spares are bounded ({@code maxSpareBytes}),
 * dropped when no push took them for a whole seal interval, and dropped on demand
 * ({@link #dropSpares()}) when memory is short; {@link #spareBytes()} is what they hold.
 *
 * <p>Thread-safe: every method synchronizes on this object. Readers copy the rows they need under
 * that lock; rows are small (one seal interval), so the copy is short.
 */
public final class TenantBuffers {
    /** Everything one seal took: tenant → stream → rows. */
    public record Sealed(Map<String, Map<Labels, ColumnarRows>> tenants, long rows, long rawBytes) {
        /** Validates. */
        public Sealed {
            Objects.requireNonNull(tenants, "tenants is null");
        }

        /** Whether the seal took no row. */
        public boolean isEmpty() {
            return rows == 0;
        }
    }

    private final long maxSpareBytes;
    private Map<String, Map<Labels, ColumnarRows>> tenants = new HashMap<>();
    private long rows;
    private long rawBytes;
    private long retainedBytes;
    private long usedBytes;
    /** Capacity the spares taken into use since the last seal brought with them. */
    private long takenSpareBytes;
    /** Emptied buffers handed back since the last seal, per tenant and stream. */
    private Map<String, Map<Labels, ColumnarRows>> spares = new HashMap<>();
    /** Spares handed back before the last seal: dropped at the next one if no push took them. */
    private Map<String, Map<Labels, ColumnarRows>> agedSpares = new HashMap<>();
    private long spareBytes;

    /** Buffers that keep no spares: every stream's buffer after a seal starts empty and small. */
    public TenantBuffers() {
        this(0);
    }

    /** Buffers that keep spares of at most {@code maxSpareBytes} heap bytes in all. */
    public TenantBuffers(long maxSpareBytes) {
        if (maxSpareBytes < 0) {
            throw new IllegalArgumentException("maxSpareBytes must not be negative: " + maxSpareBytes);
        }
        this.maxSpareBytes = maxSpareBytes;
    }

    /** Appends rows of one stream: what {@link #append(String, Labels, RowWriter)} hands {@code writer}. */
    @FunctionalInterface
    public interface RowWriter {
        /** Appends rows to {@code rows}. */
        void appendTo(ColumnarRows rows);
    }

    /**
     * Appends rows of {@code tenant}'s stream {@code labels}: {@code writer} appends them to the stream's
     * buffer under this object's lock, so a push takes the lock and finds the buffer once per stream, not
     * once per row.
     */
    public synchronized void append(String tenant, Labels labels, RowWriter writer) {
        Map<Labels, ColumnarRows> streams = tenants.computeIfAbsent(tenant, t -> new HashMap<>());
        ColumnarRows stream = streams.get(labels);
        if (stream == null) {
            stream = takeSpare(tenant, labels);
            streams.put(labels, stream);
            retainedBytes += stream.retainedBytes();
        }
        long before = stream.retainedBytes();
        long usedBefore = stream.usedBytes();
        long rawBefore = stream.rawBytes();
        int sizeBefore = stream.size();
        try {
            writer.appendTo(stream);
        } finally { // rows appended before a failure stay: count them
            rows += stream.size() - sizeBefore;
            retainedBytes += stream.retainedBytes() - before;
            usedBytes += stream.usedBytes() - usedBefore;
            rawBytes += stream.rawBytes() - rawBefore;
        }
    }

    private ColumnarRows takeSpare(String tenant, Labels labels) {
        ColumnarRows spare = removeSpare(spares, tenant, labels);
        if (spare == null) {
            spare = removeSpare(agedSpares, tenant, labels);
        }
        if (spare == null) {
            return new ColumnarRows();
        }
        spareBytes -= spare.retainedBytes();
        takenSpareBytes += spare.retainedBytes();
        return spare;
    }

    private static ColumnarRows removeSpare(Map<String, Map<Labels, ColumnarRows>> spares, String tenant,
            Labels labels) {
        Map<Labels, ColumnarRows> streams = spares.get(tenant);
        return streams == null ? null : streams.remove(labels);
    }

    /**
     * Takes back the buffers of {@code tenant}'s streams that a seal took, once nothing reads them any
     * more (their rows are in a part): they are emptied and kept as spares for the same streams while
     * they fit in {@code maxSpareBytes}. The caller must not use them after this.
     */
    public synchronized void recycle(String tenant, Map<Labels, ColumnarRows> sealedStreams) {
        for (Map.Entry<Labels, ColumnarRows> e : sealedStreams.entrySet()) {
            ColumnarRows buffer = e.getValue();
            buffer.clear();
            long bytes = buffer.retainedBytes();
            if (spareBytes + bytes > maxSpareBytes) {
                continue;
            }
            ColumnarRows replaced = spares.computeIfAbsent(tenant, t -> new HashMap<>()).put(e.getKey(), buffer);
            spareBytes += bytes - (replaced == null ? 0 : replaced.retainedBytes());
        }
    }

    /** Drops every spare (memory is short): the next seal's buffers start small again. */
    public synchronized void dropSpares() {
        spares = new HashMap<>();
        agedSpares = new HashMap<>();
        spareBytes = 0;
    }

    /** Heap bytes the spares hold. */
    public synchronized long spareBytes() {
        return spareBytes;
    }

    /** Appends {@code entry} to {@code tenant}'s stream {@code labels}. */
    public void append(String tenant, Labels labels, LogEntry entry) {
        append(tenant, labels, rows -> rows.append(entry));
    }

    /** Takes every buffered row and leaves empty buffers. */
    public synchronized Sealed seal() {
        Sealed sealed = new Sealed(tenants, rows, rawBytes);
        tenants = new HashMap<>();
        rows = 0;
        rawBytes = 0;
        retainedBytes = 0;
        usedBytes = 0;
        takenSpareBytes = 0;
        for (Map<Labels, ColumnarRows> streams : agedSpares.values()) { // no push took them for a whole interval
            for (ColumnarRows spare : streams.values()) {
                spareBytes -= spare.retainedBytes();
            }
        }
        agedSpares = spares;
        spares = new HashMap<>();
        return sealed;
    }

    /** Rows buffered. */
    public synchronized long rows() {
        return rows;
    }

    /** Raw bytes buffered (lines and metadata). */
    public synchronized long rawBytes() {
        return rawBytes;
    }

    /** Heap bytes the buffers in use hold (their arrays' capacity; spares are apart, {@link #spareBytes()}). */
    public synchronized long retainedBytes() {
        return retainedBytes;
    }

    /** Heap bytes the buffered rows take in their arrays ({@link ColumnarRows#usedBytes()}). */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    /**
     * What seals are sized by: the bytes the buffered rows take, or, if more, the heap the buffers' arrays grew
     * since the last seal (their capacity less what the spares they took already held). Fresh buffers are thus
     * bounded by their capacity as before spares existed, while a spare's capacity, allocated by an earlier
     * seal, does not count again and cannot trigger a seal as soon as it is taken.
     */
    public synchronized long sealPressureBytes() {
        return Math.max(usedBytes, retainedBytes - takenSpareBytes);
    }

    /**
     * Copies of {@code tenant}'s buffered rows of streams matching {@code matchers} with timestamps in
     * [fromNanos, throughNanos), per stream, in arrival order.
     */
    public synchronized Map<Labels, List<LogEntry>> read(String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) {
        Map<Labels, ColumnarRows> streams = tenants.get(tenant);
        if (streams == null) {
            return Map.of();
        }
        Map<Labels, List<LogEntry>> out = new HashMap<>();
        for (Map.Entry<Labels, ColumnarRows> e : streams.entrySet()) {
            if (!matchers.stream().allMatch(m -> m.matches(e.getKey()))) {
                continue;
            }
            ColumnarRows rowsOfStream = e.getValue();
            List<LogEntry> entries = new ArrayList<>();
            for (int row = 0; row < rowsOfStream.size(); row++) {
                long ts = rowsOfStream.timestampNanos(row);
                if (ts >= fromNanos && ts < throughNanos) {
                    entries.add(rowsOfStream.entry(row));
                }
            }
            if (!entries.isEmpty()) {
                out.put(e.getKey(), entries);
            }
        }
        return out;
    }
}
