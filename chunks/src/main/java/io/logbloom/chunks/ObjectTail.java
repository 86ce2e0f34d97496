package io.logbloom.chunks;

import java.util.Objects;

/**
 * The last bytes of a stored object and the object's whole size, as one suffix read returns them (a ranged GET
 * with {@code Range: bytes=-n} on S3 answers both, so a reader opening an object needs no separate size request).
 * The array is not copied.
 *
 * @param bytes the object's last {@code min(n, objectSize)} bytes
 * @param objectSize the object's size in bytes
 */
public record ObjectTail(byte[] bytes, long objectSize) {
    public ObjectTail {
        Objects.requireNonNull(bytes, "bytes is null");
        if (bytes.length > objectSize) {
            throw new IllegalArgumentException("tail of " + bytes.length + " bytes exceeds the object's " + objectSize);
        }
    }

    /** Offset in the object of the tail's first byte. */
    public long offset() {
        return objectSize - bytes.length;
    }
}
