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
import io.logbloom.querier.QuerierConfig;
import io.logbloom.querier.ResultsCacheConfig;
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
                    s3.secretAccessKey().isEmpty() ? null : s3.secretAccessKey(), s3.forcePathStyle(), "",
                    s3.responseHeaderTimeout());
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
                            i.mergeMinBytes(), i.mergeConcurrency() == LogbloomConfig.Ingester.AUTO_MERGE_CONCURRENCY
                                    ? FlushConfig.defaultMergeConcurrency() : i.mergeConcurrency()),
                    new ChunkConfig(toInt("ingester.chunk_block_size", i.chunkBlockSizeBytes()),
                            toInt("ingester.chunk_target_size", i.chunkTargetSizeBytes()),
                            ChunkEncoding.parse(i.chunkEncoding())),
                    new BloomTokenizerConfig(b.enabled(), b.ngramEnabled(), b.ngramLength(), b.ngramSkip(),
                            b.wordTokensEnabled()),
                    new BloomConfig(BloomConfig.DEFAULT_INITIAL_CAPACITY, b.errorRate(), b.expansion(), b.tightening(),
                            b.maxSizePerSeriesBytes(), false),
                    indexConfig(config),
                    new BudgetConfig(maxMemoryBytes(i.maxMemoryBytes(), HeapShares.maxHeapBytes()),
                            i.flushRetryBudget(), i.maxUnmergedBytes()));
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid ingester settings: " + e.getMessage(), e);
        }
    }

    /** The querier settings from the server configuration ({@code querier:}, {@code bloom:} and {@code limits:}). */
    static QuerierConfig querierConfig(LogbloomConfig c) {
        return querierConfig(c, HeapShares.maxHeapBytes());
    }

    /** As {@link #querierConfig(LogbloomConfig)}, with {@code auto} cache sizes resolved against {@code maxHeapBytes}. */
    static QuerierConfig querierConfig(LogbloomConfig c, long maxHeapBytes) {
        LogbloomConfig.Querier q = c.querier();
        return new QuerierConfig(q.bloomsEnabled() && c.bloom().enabled(), q.maxConcurrentFetches(),
                HeapShares.CHUNK_CACHE.bytes(q.chunkCacheSizeBytes(), maxHeapBytes),
                HeapShares.BLOOM_CACHE.bytes(q.bloomCacheSizeBytes(), maxHeapBytes),
                c.limits().maxEntriesLimitPerQuery(), c.limits().maxQuerySeries(), c.limits().queryTimeout(),
                c.limits().maxQueryBytesRead());
    }

    /** The results cache of metric range queries ({@code querier:}), an {@code auto} size resolved against this heap. */
    static ResultsCacheConfig resultsCacheConfig(LogbloomConfig c) {
        return resultsCacheConfig(c, HeapShares.maxHeapBytes());
    }

    /** As {@link #resultsCacheConfig(LogbloomConfig)}, with an {@code auto} size resolved against {@code maxHeapBytes}. */
    static ResultsCacheConfig resultsCacheConfig(LogbloomConfig c, long maxHeapBytes) {
        LogbloomConfig.Querier q = c.querier();
        return new ResultsCacheConfig(HeapShares.RESULTS_CACHE.bytes(q.resultsCacheSizeBytes(), maxHeapBytes),
                q.splitQueriesByInterval(), q.maxCacheFreshness());
    }

    /**
     * The index layout (always the default period: every role must agree on it) with the cache of opened files sized,
     * read from a remote store {@code querier.max_concurrent_fetches} requests at a time.
     */
    static IndexConfig indexConfig(LogbloomConfig c) {
        return indexConfig(c, HeapShares.maxHeapBytes());
    }

    /** As {@link #indexConfig(LogbloomConfig)}, with an {@code auto} cache size resolved against {@code maxHeapBytes}. */
    static IndexConfig indexConfig(LogbloomConfig c, long maxHeapBytes) {
        return new IndexConfig(IndexConfig.DEFAULT_PERIOD,
                HeapShares.INDEX_CACHE.bytes(c.querier().indexCacheSizeBytes(), maxHeapBytes),
                c.querier().maxConcurrentFetches());
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
