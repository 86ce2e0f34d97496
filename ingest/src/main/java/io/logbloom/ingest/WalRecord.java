package io.logbloom.ingest;

import io.logbloom.chunks.LogEntry;
import java.util.List;
import java.util.Objects;

/** One record of the write-ahead log: accepted entries, or a marker that some entries were flushed. */
sealed interface WalRecord permits WalRecord.Entries, WalRecord.Flushed {
    /** Entries of one push that were accepted, per stream (labels in canonical selector form). */
    record Entries(String tenant, List<StreamEntries> streams) implements WalRecord {
        public Entries {
            Objects.requireNonNull(tenant, "tenant is null");
            streams = List.copyOf(streams);
        }
    }

    /** One stream's accepted entries inside an {@link Entries} record. */
    record StreamEntries(String labels, List<LogEntry> entries) {
        public StreamEntries {
            Objects.requireNonNull(labels, "labels is null");
            entries = List.copyOf(entries);
        }
    }

    /**
     * Written after a chunk is durably stored and indexed: replay drops these entries, identified by
     * timestamp and XXH3 of the line, so a crash between flush and segment deletion stores nothing twice.
     */
    record Flushed(String tenant, String labels, long[] timestamps, long[] lineHashes) implements WalRecord {
        public Flushed {
            Objects.requireNonNull(tenant, "tenant is null");
            Objects.requireNonNull(labels, "labels is null");
            if (timestamps.length != lineHashes.length) {
                throw new IllegalArgumentException(
                        "timestamps and line hashes differ in length: " + timestamps.length + " vs " + lineHashes.length);
            }
        }
    }
}
