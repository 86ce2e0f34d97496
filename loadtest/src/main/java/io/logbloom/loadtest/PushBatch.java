package io.logbloom.loadtest;

import java.util.List;

/**
 * The streams of one push request, plus the entry the harness keeps as a needle to query later.
 *
 * <p>Immutable and thread-safe.
 *
 * @param streams streams of the request
 * @param needle one entry of the batch with its stream's labels, queried by trace id afterwards
 */
public record PushBatch(List<LogStream> streams, Needle needle) {
    /** Copies the stream list. */
    public PushBatch {
        streams = List.copyOf(streams);
        java.util.Objects.requireNonNull(needle, "needle is null");
    }

    /** Returns the number of lines in the batch. */
    public int lineCount() {
        return streams.stream().mapToInt(s -> s.entries().size()).sum();
    }

    /** Returns the sum of the line lengths in UTF-8 bytes (the payload Loki meters). */
    public long lineBytes() {
        long bytes = 0;
        for (LogStream stream : streams) {
            for (LogEntry entry : stream.entries()) {
                bytes += entry.line().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            }
        }
        return bytes;
    }

    /** Returns the earliest timestamp of the batch. */
    public long oldestNanos() {
        return streams.stream().flatMap(s -> s.entries().stream()).mapToLong(LogEntry::timestampNanos).min()
                .orElseThrow(() -> new IllegalStateException("BUG: empty push batch"));
    }

    /** Returns the latest timestamp of the batch. */
    public long newestNanos() {
        return streams.stream().flatMap(s -> s.entries().stream()).mapToLong(LogEntry::timestampNanos).max()
                .orElseThrow(() -> new IllegalStateException("BUG: empty push batch"));
    }
}
