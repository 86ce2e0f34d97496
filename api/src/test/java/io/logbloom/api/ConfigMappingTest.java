package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.index.IndexConfig;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.WalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ConfigMappingTest {
    @Test
    void maxMemory_zeroMeansAQuarterOfTheMaxHeap_elseTheConfiguredBytes() {
        assertThat(ConfigMapping.maxMemoryBytes(0, 512L << 20)).isEqualTo(128L << 20);
        assertThat(ConfigMapping.maxMemoryBytes(0, 6L << 30)).isEqualTo(1536L << 20);
        assertThat(ConfigMapping.maxMemoryBytes(0, 1L << 20)).isEqualTo(1L << 20); // never below the minimum
        assertThat(ConfigMapping.maxMemoryBytes(64L << 20, 6L << 30)).isEqualTo(64L << 20);
        assertThat(ConfigMapping.ingestConfig(LogbloomConfig.parse("", java.util.Map.of())).budget().maxMemoryBytes())
                .isEqualTo(Runtime.getRuntime().maxMemory() / 4);
    }

    @Test
    void autoCacheSizes_areHeapShares_cappedAtTheFormerFixedSizes_explicitSizesKept() {
        LogbloomConfig auto = LogbloomConfig.parse("", Map.of());
        long small = 512L << 20;
        assertThat(ConfigMapping.querierConfig(auto, small).chunkCacheBytes()).isEqualTo(64L << 20);
        assertThat(ConfigMapping.querierConfig(auto, small).bloomCacheBytes()).isEqualTo(32L << 20);
        assertThat(ConfigMapping.resultsCacheConfig(auto, small).maxBytes()).isEqualTo(32L << 20);
        assertThat(ConfigMapping.indexConfig(auto, small).fileCacheMaxBytes()).isEqualTo(32L << 20);
        long large = 24L << 30;
        assertThat(ConfigMapping.querierConfig(auto, large).chunkCacheBytes()).isEqualTo(256L << 20);
        assertThat(ConfigMapping.querierConfig(auto, large).bloomCacheBytes()).isEqualTo(128L << 20);
        assertThat(ConfigMapping.resultsCacheConfig(auto, large).maxBytes()).isEqualTo(128L << 20);
        assertThat(ConfigMapping.indexConfig(auto, large).fileCacheMaxBytes()).isEqualTo(256L << 20);
        long tiny = 4L << 20; // never below one MB, so a cache still holds a block
        assertThat(ConfigMapping.querierConfig(auto, tiny).bloomCacheBytes()).isEqualTo(1L << 20);

        LogbloomConfig fixed = LogbloomConfig.parse("""
                querier: { chunk_cache_size: 3MB, bloom_cache_size: 0, results_cache_size: 5MB, index_cache_size: 7MB }
                """, Map.of());
        assertThat(ConfigMapping.querierConfig(fixed, large).chunkCacheBytes()).isEqualTo(3L << 20);
        assertThat(ConfigMapping.querierConfig(fixed, large).bloomCacheBytes()).isZero();
        assertThat(ConfigMapping.resultsCacheConfig(fixed, large).maxBytes()).isEqualTo(5L << 20);
        assertThat(ConfigMapping.indexConfig(fixed, large).fileCacheMaxBytes()).isEqualTo(7L << 20);
        assertThat(ConfigMapping.indexConfig(fixed, large).period()).isEqualTo(IndexConfig.DEFAULT_PERIOD);
    }

    @Test
    void indexReadsOfARemoteStore_asManyAtOnceAsTheQuerierFetches() {
        assertThat(ConfigMapping.indexConfig(LogbloomConfig.parse("", Map.of())).parallelReads())
                .isEqualTo(IndexConfig.DEFAULT_PARALLEL_READS);
        LogbloomConfig wide = LogbloomConfig.parse("querier: { max_concurrent_fetches: 32 }", Map.of());
        assertThat(ConfigMapping.indexConfig(wide).parallelReads()).isEqualTo(32);
        // the ingester's index, which target all queries too, reads as widely
        assertThat(ConfigMapping.ingestConfig(wide).index().parallelReads()).isEqualTo(32);
    }

    @Test
    void heapShares_ofAHalfGigabyteHeap_leaveRoomForRequestsAndGarbage() {
        long heap = 512L << 20;
        long caches = HeapShares.CHUNK_CACHE.bytes(HeapShares.AUTO, heap) + HeapShares.BLOOM_CACHE.bytes(HeapShares.AUTO, heap)
                + HeapShares.RESULTS_CACHE.bytes(HeapShares.AUTO, heap) + HeapShares.INDEX_CACHE.bytes(HeapShares.AUTO, heap);
        long ingest = ConfigMapping.maxMemoryBytes(0, heap);
        assertThat(caches + ingest).isLessThanOrEqualTo(heap * 9 / 16);
    }

    @Test
    void ingestConfig_everyYamlKeyReachesTheIngester() {
        LogbloomConfig c = LogbloomConfig.parse("""
                wal: { fsync: interval, fsync_interval: 250ms, segment_size: 1MB }
                ingester: { chunk_block_size: 64KB, chunk_target_size: 512KB, chunk_encoding: zstd,
                            chunk_idle_period: 5m, max_chunk_age: 1h, flush_check_period: 2s }
                limits: { ingestion_rate_mb: 2, ingestion_burst_size_mb: 3, max_line_size: 1KB,
                          max_label_names_per_series: 7, max_label_name_length: 8, max_label_value_length: 9,
                          reject_old_samples: false, reject_old_samples_max_age: 2h, creation_grace_period: 1m,
                          max_global_streams_per_user: 11, max_new_series_per_hour: 12, max_new_series_per_day: 13,
                          unordered_writes: false }
                bloom: { enabled: true, error_rate: 0.02, expansion: 3, tightening: 0.7, max_size_per_series: 2MB,
                         ngram_length: 5, ngram_skip: 1, ngram_enabled: true, word_tokens_enabled: false }
                """, Map.of()).withOverrides(null, null, Path.of("/d"));
        IngestConfig i = ConfigMapping.ingestConfig(c);
        assertThat(i.wal()).isEqualTo(new WalConfig(Path.of("/d/wal"), WalConfig.FsyncPolicy.INTERVAL,
                Duration.ofMillis(250), 1 << 20));
        assertThat(i.chunk().blockSizeBytes()).isEqualTo(64 << 10);
        assertThat(i.chunk().targetSizeBytes()).isEqualTo(512 << 10);
        assertThat(i.chunk().encoding()).isEqualTo(ChunkEncoding.ZSTD);
        assertThat(i.flush().chunkIdlePeriod()).isEqualTo(Duration.ofMinutes(5));
        assertThat(i.flush().maxChunkAge()).isEqualTo(Duration.ofHours(1));
        assertThat(i.flush().flushCheckPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(i.limits()).isEqualTo(new io.logbloom.ingest.LimitsConfig(2, 3, 1024, 7, 8, 9, false,
                Duration.ofHours(2), Duration.ofMinutes(1), 11, 12, 13, false));
        assertThat(i.tokenizer()).isEqualTo(new io.logbloom.tokens.BloomTokenizerConfig(true, true, 5, 1, false));
        assertThat(i.bloom().errorRate()).isEqualTo(0.02);
        assertThat(i.bloom().expansion()).isEqualTo(3.0);
        assertThat(i.bloom().tightening()).isEqualTo(0.7);
        assertThat(i.bloom().maxSizeBytes()).isEqualTo(2 << 20);
    }

    @Test
    void ingestConfig_componentRejectsValue_namedAsConfigError() {
        LogbloomConfig c = LogbloomConfig.parse("bloom: { ngram_length: 99 }", Map.of());
        assertThatThrownBy(() -> ConfigMapping.ingestConfig(c)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ngram_length").hasMessageContaining("99");
        LogbloomConfig huge = LogbloomConfig.parse("ingester: { chunk_target_size: 3GB }", Map.of());
        assertThatThrownBy(() -> ConfigMapping.ingestConfig(huge)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("ingester.chunk_target_size must be below 2GB");
    }

    @Test
    void s3Config_emptyKeysMeanDefaultChain_badEndpointNamed() {
        assertThat(ConfigMapping.s3Config(new LogbloomConfig.S3("", "b", "us-east-1", "", "", true)).accessKey())
                .isNull();
        assertThatThrownBy(() -> ConfigMapping.s3Config(new LogbloomConfig.S3("http://bad host", "b", "r", "", "", true)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("storage.s3.endpoint: invalid URI 'http://bad host'");
    }
}
