package io.logbloom.ingest;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.FileRangeSource;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A stream's unflushed data in a queried range: its rows still in memory (sorted by time) and its
 * share of sealed parts on local disk (read lazily). Immutable.
 */
public record StreamSnapshot(Labels labels, List<LogEntry> entries, List<ColumnarFileStream> parts) {
    public StreamSnapshot {
        Objects.requireNonNull(labels, "labels is null");
        entries = List.copyOf(entries);
        parts = List.copyOf(parts);
    }

    /** A stream with rows in memory only. */
    public StreamSnapshot(Labels labels, List<LogEntry> entries) {
        this(labels, entries, List.of());
    }

    /**
     * Every row: in memory and read from the parts' blocks in [fromNanos, throughNanos), sorted by
     * time. Reads files; for tools and tests, queries read the parts block by block.
     */
    public List<LogEntry> allEntries(long fromNanos, long throughNanos) {
        List<LogEntry> all = new ArrayList<>(entries);
        for (ColumnarFileStream part : parts) {
            try (FileRangeSource source = RangeSource.ofFile(part.file())) {
                ColumnarObjectReader reader = new ColumnarObjectReader(source, part.directory());
                for (int b : part.blocksIn(fromNanos, throughNanos)) {
                    ColumnarBlock block = reader.readBlock(b);
                    for (LogEntry e : block.entries()) {
                        if (e.timestampNanos() >= fromNanos && e.timestampNanos() < throughNanos) {
                            all.add(e);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read part " + part.file() + ": " + e.getMessage(), e);
            }
        }
        all.sort(Comparator.comparingLong(LogEntry::timestampNanos));
        return all;
    }

    /** Every row, in memory and in parts, sorted by time. */
    public List<LogEntry> allEntries() {
        return allEntries(Long.MIN_VALUE, Long.MAX_VALUE);
    }
}
