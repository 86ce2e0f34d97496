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
 * <p>Memory is accounted as the heap the row arrays hold ({@link #retainedBytes()}); the owner
 * seals when it passes a bound, which keeps unflushed data in heap to about one seal's worth.
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

    private Map<String, Map<Labels, ColumnarRows>> tenants = new HashMap<>();
    private long rows;
    private long rawBytes;
    private long retainedBytes;

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
        ColumnarRows stream = tenants.computeIfAbsent(tenant, t -> new HashMap<>())
                .computeIfAbsent(labels, l -> new ColumnarRows());
        long before = stream.retainedBytes();
        long rawBefore = stream.rawBytes();
        int sizeBefore = stream.size();
        try {
            writer.appendTo(stream);
        } finally { // rows appended before a failure stay: count them
            rows += stream.size() - sizeBefore;
            retainedBytes += stream.retainedBytes() - before;
            rawBytes += stream.rawBytes() - rawBefore;
        }
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

    /** Heap bytes the buffered rows hold. */
    public synchronized long retainedBytes() {
        return retainedBytes;
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
