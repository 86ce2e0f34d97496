package io.logbloom.ingest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Write-ahead log settings (YAML section {@code wal}). Immutable.
 *
 * @param directory where segment files live
 * @param fsync when appended records are forced to disk
 * @param fsyncInterval how often the {@link FsyncPolicy#INTERVAL} policy forces (ignored otherwise)
 * @param segmentSizeBytes a segment is rotated once it grows past this size
 */
public record WalConfig(Path directory, FsyncPolicy fsync, Duration fsyncInterval, long segmentSizeBytes) {
    /** When WAL appends are made durable. */
    public enum FsyncPolicy {
        /** fsync before every push is acknowledged: no acknowledged entry is ever lost (default). */
        PER_REQUEST,
        /** fsync on a timer: higher throughput, a crash may lose up to one interval of acknowledged pushes. */
        INTERVAL
    }

    /** Smallest segment size: below it rotation would dominate the cost of appends. */
    static final long MIN_SEGMENT_SIZE_BYTES = 64 * 1024;

    public WalConfig {
        Objects.requireNonNull(directory, "directory is null");
        Objects.requireNonNull(fsync, "fsync is null");
        Objects.requireNonNull(fsyncInterval, "fsyncInterval is null");
        if (fsyncInterval.isNegative() || fsyncInterval.isZero()) {
            throw new IllegalArgumentException("wal fsync interval must be positive: " + fsyncInterval);
        }
        if (segmentSizeBytes < MIN_SEGMENT_SIZE_BYTES) {
            throw new IllegalArgumentException(
                    "wal segment size must be at least " + MIN_SEGMENT_SIZE_BYTES + " bytes: " + segmentSizeBytes);
        }
    }

    /** Per-request fsync, 1 s interval (unused), 64 MiB segments. */
    public static WalConfig defaults(Path directory) {
        return new WalConfig(directory, FsyncPolicy.PER_REQUEST, Duration.ofSeconds(1), 64L << 20);
    }
}
