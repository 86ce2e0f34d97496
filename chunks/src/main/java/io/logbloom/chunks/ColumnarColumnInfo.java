package io.logbloom.chunks;

import java.util.Objects;

/**
 * Where one column of one block lies in a columnar object and how to decode it: its kind (and
 * metadata key), encoding, zstd flag, byte range, CRC32C of the stored bytes and decoded payload size.
 * Immutable.
 *
 * @param kind timestamps, lines or one metadata key
 * @param key the metadata key for {@link Kind#METADATA}, else the empty string
 * @param encoding the payload layout
 * @param zstd whether the stored bytes are the zstd-compressed payload
 * @param offset first byte of the stored column in the object
 * @param length stored bytes
 * @param crc32c CRC32C of the stored bytes
 * @param decodedSize payload bytes after decompression
 */
public record ColumnarColumnInfo(Kind kind, String key, ColumnarEncoding encoding, boolean zstd, long offset,
        int length, int crc32c, int decodedSize) {
    /** What a column holds. */
    public enum Kind {
        /** Row timestamps in nanoseconds. */
        TIMESTAMPS,
        /** Log lines. */
        LINES,
        /** Values of one structured-metadata key. */
        METADATA
    }

    public ColumnarColumnInfo {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(encoding, "encoding is null");
    }

    /** A name for messages: "timestamps", "lines" or "metadata 'key'". */
    public String displayName() {
        return switch (kind) {
            case TIMESTAMPS -> "timestamps";
            case LINES -> "lines";
            case METADATA -> "metadata '" + key + "'";
        };
    }
}
