package io.logbloom.api;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.S3Config;
import io.logbloom.chunks.S3ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import io.logbloom.index.IndexConfig;
import io.logbloom.ingest.BudgetConfig;
import io.logbloom.ingest.FlushConfig;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.LimitsConfig;
import io.logbloom.ingest.WalConfig;
import io.logbloom.tokens.BloomTokenizerConfig;

/**
 * Maps the YAML-level {@link LogbloomConfig} onto the component configs and objects of the lower
 * modules (object store, ingester), so that the file format and the components can evolve apart.
 * Stateless and thread-safe.
 */
final class ConfigMapping {
    private ConfigMapping() {}

    /** The object store of {@code storage}: the filesystem directory, or the S3 bucket. */
    static ObjectStore objectStore(LogbloomConfig.Storage storage) {
        return switch (storage.backend()) {
            case FILESYSTEM -> {
                try {
                    yield new FileSystemObjectStore(storage.filesystemDirectory());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open storage.filesystem.directory "
                            + storage.filesystemDirectory() + ": " + e.getMessage(), e);
                }
            }
            case S3 -> new S3ObjectStore(s3Config(storage.s3()));
        };
    }

    static S3Config s3Config(LogbloomConfig.S3 s3) {
        URI endpoint = null;
        if (!s3.endpoint().isEmpty()) {
            try {
                endpoint = new URI(s3.endpoint());
            } catch (URISyntaxException e) {
                throw new ConfigException("storage.s3.endpoint: invalid URI '" + s3.endpoint() + "': " + e.getMessage(), e);
            }
        }
        try {
            return new S3Config(endpoint, s3.bucket(), s3.region(),
                    s3.accessKeyId().isEmpty() ? null : s3.accessKeyId(),
                    s3.secretAccessKey().isEmpty() ? null : s3.secretAccessKey(), s3.forcePathStyle(), "");
        } catch (IllegalArgumentException e) {
            throw new ConfigException("storage.s3: " + e.getMessage(), e);
        }
    }

    /** The ingester's config: limits, WAL (directory resolved), flush timing, chunks, tokenizer, bloom sizing. */
    static IngestConfig ingestConfig(LogbloomConfig config) {
        LogbloomConfig.Limits l = config.limits();
        LogbloomConfig.Ingester i = config.ingester();
        LogbloomConfig.Bloom b = config.bloom();
        LogbloomConfig.Wal w = config.wal();
        try {
            FlushConfig defaultFlush = FlushConfig.defaults();
            return new IngestConfig(
                    new LimitsConfig(l.ingestionRateMb(), l.ingestionBurstSizeMb(),
                            toInt("limits.max_line_size", l.maxLineSizeBytes()), l.maxLabelNamesPerSeries(),
                            l.maxLabelNameLength(), l.maxLabelValueLength(), l.rejectOldSamples(),
                            l.rejectOldSamplesMaxAge(), l.creationGracePeriod(), l.maxGlobalStreamsPerUser(),
                            l.maxNewSeriesPerHour(), l.maxNewSeriesPerDay(), l.unorderedWrites()),
                    new WalConfig(config.walDirectory(), w.fsync() == LogbloomConfig.FsyncPolicy.PER_REQUEST
                            ? WalConfig.FsyncPolicy.PER_REQUEST : WalConfig.FsyncPolicy.INTERVAL,
                            w.fsyncInterval(), w.segmentSizeBytes()),
                    new FlushConfig(i.chunkIdlePeriod(), i.maxChunkAge(), i.flushCheckPeriod(),
                            defaultFlush.minRetryBackoff(), defaultFlush.maxRetryBackoff(), i.sealInterval(),
                            i.mergeMinBytes()),
                    new ChunkConfig(toInt("ingester.chunk_block_size", i.chunkBlockSizeBytes()),
                            toInt("ingester.chunk_target_size", i.chunkTargetSizeBytes()),
                            ChunkEncoding.parse(i.chunkEncoding())),
                    new BloomTokenizerConfig(b.enabled(), b.ngramEnabled(), b.ngramLength(), b.ngramSkip(),
                            b.wordTokensEnabled()),
                    new BloomConfig(BloomConfig.DEFAULT_INITIAL_CAPACITY, b.errorRate(), b.expansion(), b.tightening(),
                            b.maxSizePerSeriesBytes(), false),
                    IndexConfig.defaults(),
                    new BudgetConfig(maxMemoryBytes(i.maxMemoryBytes(), Runtime.getRuntime().maxMemory()),
                            i.flushRetryBudget(), i.maxUnmergedBytes()));
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid ingester settings: " + e.getMessage(), e);
        }
    }

    private static int toInt(String key, long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new ConfigException(key + " must be below 2GB, got " + bytes + " bytes");
        }
        return (int) bytes;
    }

    /** The memory budget in force: the configured bytes, or for {@code 0} a quarter of {@code maxHeapBytes}. */
    static long maxMemoryBytes(long configured, long maxHeapBytes) {
        if (configured != LogbloomConfig.Ingester.AUTO_MAX_MEMORY) {
            return configured;
        }
        return Math.max(BudgetConfig.MIN_MAX_MEMORY_BYTES, maxHeapBytes / 4);
    }
}
