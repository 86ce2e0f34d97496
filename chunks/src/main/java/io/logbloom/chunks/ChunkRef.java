package io.logbloom.chunks;

import java.util.Objects;

/**
 * Where a flushed chunk lives and what it covers: tenant, series fingerprint, time range
 * [fromNanos, throughNanos] inclusive of both ends' entries, checksum of the encoded bytes, encoded
 * size and entry count. The object key is derived from it.
 */
public record ChunkRef(
        String tenant, long fingerprint, long fromNanos, long throughNanos, int checksum, int sizeBytes, int entries) {
    public ChunkRef {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        if (throughNanos < fromNanos) {
            throw new IllegalArgumentException("chunk through " + throughNanos + " is before from " + fromNanos);
        }
    }

    /** The object-store key: {@code tenant/fingerprint-hex/from-through-checksum} (hex fields). */
    public String objectKey() {
        return tenant + "/" + String.format("%016x/%x-%x-%08x", fingerprint, fromNanos, throughNanos, checksum);
    }

    /** Whether the chunk's time range overlaps [fromNanos, throughNanos). */
    public boolean overlaps(long queryFromNanos, long queryThroughNanos) {
        return fromNanos < queryThroughNanos && throughNanos >= queryFromNanos;
    }
}
