package io.logbloom.chunks;

import java.util.Objects;

/**
 * Where a flushed series' rows live and what they cover: tenant, series fingerprint, time range
 * [fromNanos, throughNanos] inclusive of both ends' entries, a checksum, stored size and entry count.
 *
 * <p>Two kinds during the move to chunk format v2: a row chunk (format v1) is one object per series
 * whose key derives from the other fields ({@code columnarObjectKey} null, checksum of the encoded
 * chunk); a series' rows inside a columnar object (format v2, many series per object) carry that
 * object's key explicitly, with the CRC32C of the object's directory as checksum and the series'
 * stored bytes as size.
 */
public record ChunkRef(String tenant, long fingerprint, long fromNanos, long throughNanos, int checksum,
        int sizeBytes, int entries, String columnarObjectKey) {
    public ChunkRef {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        if (throughNanos < fromNanos) {
            throw new IllegalArgumentException("chunk through " + throughNanos + " is before from " + fromNanos);
        }
        if (columnarObjectKey != null && !columnarObjectKey.startsWith(tenant + "/")) {
            throw new IllegalArgumentException("columnar object " + columnarObjectKey + " is outside tenant " + tenant);
        }
    }

    /** The ref of a row chunk (format v1), whose object key derives from these fields. */
    public ChunkRef(String tenant, long fingerprint, long fromNanos, long throughNanos, int checksum, int sizeBytes,
            int entries) {
        this(tenant, fingerprint, fromNanos, throughNanos, checksum, sizeBytes, entries, null);
    }

    /** Whether the rows live in a columnar object (format v2) shared with other series. */
    public boolean isColumnar() {
        return columnarObjectKey != null;
    }

    /**
     * The object-store key: the columnar object's key, or for a row chunk
     * {@code tenant/fingerprint-hex/from-through-checksum} (hex fields).
     */
    public String objectKey() {
        if (columnarObjectKey != null) {
            return columnarObjectKey;
        }
        return tenant + "/" + String.format("%016x/%x-%x-%08x", fingerprint, fromNanos, throughNanos, checksum);
    }

    /** Whether the chunk's time range overlaps [fromNanos, throughNanos). */
    public boolean overlaps(long queryFromNanos, long queryThroughNanos) {
        return fromNanos < queryThroughNanos && throughNanos >= queryFromNanos;
    }
}
