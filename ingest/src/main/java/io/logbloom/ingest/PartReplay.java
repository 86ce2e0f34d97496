package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * WAL replay for the LSM-style write path: restores into the buffers exactly the acknowledged rows
 * that no part holds. A tenant's records in segments up to the newest segment its parts cover
 * ({@link LocalParts#coveredWalSegment}) are already in parts and are skipped; every later record is
 * appended to {@link TenantBuffers}, where the next seal writes it. Flush markers of the row-chunk
 * engine carry nothing for this path and are ignored.
 *
 * <p>Not thread-safe: used by the one thread that opens the WAL.
 */
final class PartReplay implements Wal.SegmentReplay {
    private final LocalParts parts;
    private final Restorer restorer;
    private final Map<String, OptionalLong> covered = new HashMap<>();
    private final Map<String, Labels> labelsCache = new HashMap<>();
    private long rowsRestored;
    private long rowsSkipped;

    /** Receives each acknowledged row no part holds. */
    @FunctionalInterface
    interface Restorer {
        void restore(String tenant, Labels labels, LogEntry entry);
    }

    PartReplay(LocalParts parts, Restorer restorer) {
        this.parts = Objects.requireNonNull(parts, "parts is null");
        this.restorer = Objects.requireNonNull(restorer, "restorer is null");
    }

    PartReplay(LocalParts parts, TenantBuffers buffers) {
        this(parts, buffers::append);
    }

    @Override
    public void accept(long segmentId, WalRecord record) {
        if (!(record instanceof WalRecord.Entries entries)) {
            return;
        }
        OptionalLong coveredThrough = covered.computeIfAbsent(entries.tenant(), parts::coveredWalSegment);
        for (WalRecord.StreamEntries stream : entries.streams()) {
            if (coveredThrough.isPresent() && segmentId <= coveredThrough.getAsLong()) {
                rowsSkipped += stream.entries().size();
                continue;
            }
            Labels labels = labelsCache.computeIfAbsent(stream.labels(), s -> Labels.of(LabelsParser.parse(s)));
            for (LogEntry entry : stream.entries()) {
                restorer.restore(entries.tenant(), labels, entry);
                rowsRestored++;
            }
        }
    }

    /** Rows appended to the buffers. */
    long rowsRestored() {
        return rowsRestored;
    }

    /** Rows skipped because a part holds them. */
    long rowsSkipped() {
        return rowsSkipped;
    }
}
