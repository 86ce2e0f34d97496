package io.logbloom.querier;

import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Data the ingester holds that is not in the object store yet (rows in memory and sealed parts on
 * its local disk), so a push is queryable at once.
 */
@FunctionalInterface
public interface UnflushedSource {
    /**
     * Matching streams with their unflushed rows in [fromNanos, throughNanos), in-memory entries sorted by time. For
     * labels and time ranges: a local part's file may be gone once merged, so rows are read through a {@link
     * #snapshot}, which holds its parts until closed.
     */
    List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos);

    /**
     * The index answer for the selector together with the unflushed data, taken so that every row is
     * in exactly one of the two even while the ingester moves rows into the store. This default reads
     * the index first, then the unflushed data: right for sources whose data never moves.
     */
    default Snapshot snapshot(IndexReader index, String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        List<SeriesChunks> indexed = index.chunks(tenant, matchers, fromNanos, throughNanos);
        return new Snapshot(indexed, unflushed(tenant, matchers, fromNanos, throughNanos));
    }

    /**
     * Whether {@link #snapshot} is answered inside this process (an ingester's memory and local disk), with no
     * network wait that a query's deadline must be able to cut off. False unless a source says otherwise.
     */
    default boolean answersInProcess() {
        return false;
    }

    /**
     * An index answer and the unflushed streams that complete it. Local parts the streams read from stay on disk
     * until the snapshot is closed ({@code release}); a reader closes it when done with them.
     */
    record Snapshot(List<SeriesChunks> indexed, List<Stream> unflushed, Runnable release) implements AutoCloseable {
        /** Copies. */
        public Snapshot {
            indexed = List.copyOf(indexed);
            unflushed = List.copyOf(unflushed);
            Objects.requireNonNull(release, "release is null");
        }

        /** A snapshot holding nothing to hand back (its streams read no local part, or their source keeps them). */
        public Snapshot(List<SeriesChunks> indexed, List<Stream> unflushed) {
            this(indexed, unflushed, () -> {});
        }

        /** Hands back what the snapshot holds. */
        @Override
        public void close() {
            release.run();
        }
    }

    /** One unflushed stream: rows in memory and the stream's part of local columnar files. */
    record Stream(Labels labels, List<LogEntry> entries, List<ColumnarFileStream> parts) {
        /** Copies. */
        public Stream {
            Objects.requireNonNull(labels, "labels is null");
            entries = List.copyOf(entries);
            parts = List.copyOf(parts);
        }

        /** A stream with rows in memory only. */
        public Stream(Labels labels, List<LogEntry> entries) {
            this(labels, entries, List.of());
        }

        /** Whether the stream has a row in [fromNanos, throughNanos) (part blocks by their time bounds). */
        public boolean hasData(long fromNanos, long throughNanos) {
            for (LogEntry e : entries) {
                if (e.timestampNanos() >= fromNanos && e.timestampNanos() < throughNanos) {
                    return true;
                }
            }
            for (ColumnarFileStream p : parts) {
                if (p.blocksIn(fromNanos, throughNanos).length > 0) {
                    return true;
                }
            }
            return false;
        }

        /** Rows and raw bytes in the parts' blocks overlapping [fromNanos, throughNanos): {rows, bytes}. */
        public long[] partTotals(long fromNanos, long throughNanos) {
            long[] totals = new long[2];
            for (ColumnarFileStream p : parts) {
                for (int b : p.blocksIn(fromNanos, throughNanos)) {
                    ColumnarBlockInfo block = p.directory().blocks().get(b);
                    totals[0] += block.rows();
                    totals[1] += block.rawBytes();
                }
            }
            return totals;
        }
    }

    /** A source without unflushed data (for read-only processes): reading it reaches no ingester. */
    UnflushedSource NONE = (tenant, matchers, from, through) -> List.of();

    /** A source without unflushed data (for read-only processes). */
    static UnflushedSource none() {
        return NONE;
    }
}
