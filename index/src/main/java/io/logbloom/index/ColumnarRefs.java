package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarStreamInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The index entries of one stored columnar object: one {@link ChunkRef} per series in it, spanning the
 * series' rows (time range, row count, the bytes of its blocks) with the object's key and the CRC32C of
 * the whole object. The ingester's merger and the compactor's rewrites index their objects through it,
 * so both describe an object the same way. Stateless and thread-safe.
 */
public final class ColumnarRefs {
    private ColumnarRefs() {}

    /** One entry per series of {@code directory}, the directory of {@code object} stored under {@code objectKey}. */
    public static List<SeriesChunks> of(String tenant, String objectKey, byte[] object, ColumnarDirectory directory) {
        CRC32C crc = new CRC32C();
        crc.update(object, 0, object.length);
        return of(tenant, objectKey, (int) crc.getValue(), directory);
    }

    /**
     * One entry per series of {@code directory}, the directory of the object stored under {@code objectKey}
     * whose bytes have the CRC32C {@code objectCrc32c} (for objects written to a file, never held in heap).
     */
    public static List<SeriesChunks> of(String tenant, String objectKey, int objectCrc32c, ColumnarDirectory directory) {
        int checksum = objectCrc32c;
        List<SeriesChunks> series = new ArrayList<>(directory.streams().size());
        for (int s = 0; s < directory.streams().size(); s++) {
            ColumnarStreamInfo stream = directory.streams().get(s);
            long storedBytes = 0;
            for (ColumnarBlockInfo block : directory.blocksOf(s)) {
                storedBytes += block.length();
            }
            series.add(new SeriesChunks(stream.labels(), List.of(new ChunkRef(tenant, stream.labels().fingerprint(),
                    stream.minTimeNanos(), stream.maxTimeNanos(), checksum, (int) Math.min(Integer.MAX_VALUE, storedBytes),
                    (int) Math.min(Integer.MAX_VALUE, stream.rows()), objectKey))));
        }
        return series;
    }
}
