package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One log line of a stream: timestamp in nanoseconds since the epoch, the line, and its structured
 * metadata (ordered name/value pairs, as Loki's push API delivers them). Immutable; equal when time,
 * line and metadata are.
 *
 * <p>An entry decoded from a push holds its line as the UTF-8 bytes it arrived in ({@link #ofUtf8}): the write
 * path hashes, stores and logs those bytes, and the line as a {@code String} is made only when something asks for
 * it ({@link #line()}), such as a live tail. An entry made from a {@code String} encodes it when asked for bytes.
 */
public final class LogEntry {
    private final long timestampNanos;
    private final List<Label> metadata;
    /** The line's UTF-8 bytes when the entry was made from them, else null; never changed (callers only read them). */
    private final byte[] utf8;
    /**
     * The line; for an entry made from bytes, decoded at the first {@link #line()} call. A racing second call may
     * decode it again: the {@code String}s are equal, and a {@code String} is safe to publish through a race.
     */
    private String line;

    /** An entry with {@code line}; {@code metadata} is copied unless already immutable. */
    public LogEntry(long timestampNanos, String line, List<Label> metadata) {
        this(timestampNanos, Objects.requireNonNull(line, "line is null"), null, metadata);
    }

    private LogEntry(long timestampNanos, String line, byte[] utf8, List<Label> metadata) {
        this.timestampNanos = timestampNanos;
        this.line = line;
        this.utf8 = utf8;
        this.metadata = List.copyOf(metadata);
    }

    /** An entry without structured metadata. */
    public static LogEntry of(long timestampNanos, String line) {
        return new LogEntry(timestampNanos, line, List.of());
    }

    /**
     * An entry whose line is {@code utf8Line}, which the caller has checked to be valid UTF-8 and hands over: the
     * array is kept, not copied, and must not change afterwards.
     */
    public static LogEntry ofUtf8(long timestampNanos, byte[] utf8Line, List<Label> metadata) {
        return new LogEntry(timestampNanos, null, Objects.requireNonNull(utf8Line, "utf8Line is null"), metadata);
    }

    /** This entry's time and line with {@code metadata} instead of its own (the line's bytes kept as they are). */
    public LogEntry withMetadata(List<Label> metadata) {
        return new LogEntry(timestampNanos, line, utf8, metadata);
    }

    /** Nanoseconds since the epoch. */
    public long timestampNanos() {
        return timestampNanos;
    }

    /** The line. */
    public String line() {
        String l = line;
        if (l == null) {
            l = new String(utf8, StandardCharsets.UTF_8);
            line = l;
        }
        return l;
    }

    /**
     * The line's UTF-8 bytes: the array the entry was made from (callers must not change it), or a new encoding of
     * its {@code String}.
     */
    public byte[] utf8Line() {
        return utf8 != null ? utf8 : line.getBytes(StandardCharsets.UTF_8);
    }

    /** The number of bytes of the line in UTF-8. */
    public int utf8Length() {
        return utf8 != null ? utf8.length : Utf8.length(line);
    }

    /** The structured metadata, immutable. */
    public List<Label> metadata() {
        return metadata;
    }

    /** The value of the structured-metadata field {@code name}, or null when absent. */
    public String metadataValue(String name) {
        for (Label label : metadata) {
            if (label.name().equals(name)) {
                return label.value();
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogEntry e && timestampNanos == e.timestampNanos && line().equals(e.line())
                && metadata.equals(e.metadata);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(timestampNanos) * 31 + line().hashCode()) * 31 + metadata.hashCode();
    }

    @Override
    public String toString() {
        return "LogEntry[timestampNanos=" + timestampNanos + ", line=" + line() + ", metadata=" + metadata + "]";
    }
}
