package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WAL replay: collects the records of every segment ({@link #accept}), drops the entries a later
 * {@code Flushed} marker covers, then rebuilds the streams in the {@link StreamStore}
 * ({@link #apply}), bypassing limits (the entries were accepted before the restart).
 *
 * <p>Not thread-safe: used once, by the thread opening the ingester.
 */
final class WalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(WalReplay.class);

    private final Map<String, Map<String, LinkedHashMap<EntryKey, LogEntry>>> data = new LinkedHashMap<>();
    private long records;

    /** Takes one replayed record. */
    void accept(WalRecord record) {
        records++;
        if (record instanceof WalRecord.Entries e) {
            var byStream = data.computeIfAbsent(e.tenant(), t -> new LinkedHashMap<>());
            for (WalRecord.StreamEntries s : e.streams()) {
                var entries = byStream.computeIfAbsent(s.labels(), l -> new LinkedHashMap<>());
                for (LogEntry entry : s.entries()) {
                    entries.putIfAbsent(EntryKey.of(entry), entry);
                }
            }
        } else if (record instanceof WalRecord.Flushed f) {
            var byStream = data.get(f.tenant());
            var entries = byStream == null ? null : byStream.get(f.labels());
            if (entries != null) {
                for (int i = 0; i < f.timestamps().length; i++) {
                    entries.remove(new EntryKey(f.timestamps()[i], f.lineHashes()[i]));
                }
            }
        }
    }

    /** Appends what is left to {@code streams}, as of the oldest WAL segment in {@code walDirectory}. */
    void apply(StreamStore streams, Path walDirectory, long nowNanos) throws IOException {
        if (data.isEmpty()) {
            return;
        }
        List<Long> segments = Wal.segmentIds(walDirectory);
        long firstSegment = segments.isEmpty() ? 0 : segments.get(0);
        long entries = 0;
        for (var t : data.entrySet()) {
            for (var s : t.getValue().entrySet()) {
                if (s.getValue().isEmpty()) {
                    continue;
                }
                Labels labels;
                try {
                    labels = Labels.of(LabelsParser.parse(s.getKey()));
                } catch (IllegalArgumentException e) {
                    throw new WalCorruptionException("WAL holds invalid stream labels " + s.getKey() + ": "
                            + e.getMessage());
                }
                List<LogEntry> sorted = new ArrayList<>(s.getValue().values());
                sorted.sort(Comparator.comparingLong(LogEntry::timestampNanos));
                entries += streams.replay(t.getKey(), labels, sorted, firstSegment, nowNanos);
            }
        }
        LOG.info("replayed {} WAL records: {} entries in memory", records, entries);
    }
}
