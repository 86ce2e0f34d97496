package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;

/**
 * The uncompressed layout of one block: entries sorted by time, each as
 *
 * <pre>
 * uvarint  timestamp delta (to the previous entry; the first to the block's min time)
 * uvarint  line length, then the line's UTF-8 bytes
 * uvarint  metadata pair count, then per pair: uvarint name symbol id, uvarint value symbol id
 * </pre>
 *
 * Deltas are unsigned 64-bit and wrap, so any sorted {@code long} timestamps round-trip.
 * Thread-safe (stateless).
 */
final class BlockCodec {
    private BlockCodec() {}

    /** Appends {@code sorted} to {@code sink}; names and values are interned in {@code symbols}. */
    static void write(List<LogEntry> sorted, SymbolTable symbols, ByteSink sink) {
        long previous = sorted.get(0).timestampNanos();
        for (LogEntry entry : sorted) {
            sink.writeUvarint(entry.timestampNanos() - previous);
            previous = entry.timestampNanos();
            sink.writeString(entry.line());
            List<Label> metadata = entry.metadata();
            sink.writeUvarint(metadata.size());
            for (Label label : metadata) {
                sink.writeUvarint(symbols.intern(label.name()));
                sink.writeUvarint(symbols.intern(label.value()));
            }
        }
    }

    /**
     * Decodes a block's entries with timestamps in [fromNanos, throughNanos), in time order, and
     * checks them against the block's metadata. Entries outside the range are parsed (so the whole
     * block is validated) but no strings are built for them.
     */
    static List<LogEntry> read(byte[] data, ChunkBlock meta, String[] symbols, long fromNanos, long throughNanos,
            String section) throws ChunkFormatException {
        ByteSource in = new ByteSource(data, 0, data.length, section);
        List<LogEntry> out = new ArrayList<>();
        long timestamp = meta.minTimeNanos();
        for (int i = 0; i < meta.entries(); i++) {
            timestamp += in.readUvarint();
            if (Long.compareUnsigned(timestamp - meta.minTimeNanos(), meta.maxTimeNanos() - meta.minTimeNanos()) > 0) {
                throw new ChunkFormatException(section + ": entry " + i + " timestamp " + timestamp
                        + " outside block range [" + meta.minTimeNanos() + ", " + meta.maxTimeNanos() + "]");
            }
            boolean inRange = timestamp >= fromNanos && timestamp < throughNanos;
            String line = inRange ? in.readString("line of entry " + i) : null;
            if (!inRange) {
                in.skipString("line of entry " + i);
            }
            int pairs = in.readLength(data.length, "metadata count of entry " + i);
            List<Label> metadata = List.of();
            Label[] labels = inRange && pairs > 0 ? new Label[pairs] : null;
            for (int p = 0; p < pairs; p++) {
                String name = symbol(in, symbols, section);
                String value = symbol(in, symbols, section);
                if (labels != null) {
                    labels[p] = new Label(name, value);
                }
            }
            if (labels != null) {
                metadata = List.of(labels);
            }
            if (inRange) {
                out.add(new LogEntry(timestamp, line, metadata));
            }
        }
        if (timestamp != meta.maxTimeNanos()) {
            throw new ChunkFormatException(section + ": last entry timestamp " + timestamp + " != block max "
                    + meta.maxTimeNanos());
        }
        if (in.hasRemaining()) {
            throw new ChunkFormatException(section + ": " + (data.length - in.position()) + " trailing bytes after "
                    + meta.entries() + " entries");
        }
        return out;
    }

    private static String symbol(ByteSource in, String[] symbols, String section) throws ChunkFormatException {
        int at = in.position();
        long id = in.readUvarint();
        if (id < 0 || id >= symbols.length) {
            throw new ChunkFormatException(section + ": symbol id " + Long.toUnsignedString(id) + " at offset " + at
                    + " is outside the symbol table of " + symbols.length);
        }
        return symbols[(int) id];
    }
}
