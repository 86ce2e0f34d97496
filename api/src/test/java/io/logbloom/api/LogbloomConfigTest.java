package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.ingest.OtlpConfig;
import io.logbloom.ingest.PushEnrichmentConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class LogbloomConfigTest {
    @Test
    void defaults_matchLokiAndDocumentedValues() {
        LogbloomConfig c = LogbloomConfig.defaults();
        assertThat(c.server()).isEqualTo(new LogbloomConfig.Server("127.0.0.1", 3100, 100L << 20, 20_000, 16));
        assertThat(c.authEnabled()).isFalse();
        assertThat(c.storage().backend()).isEqualTo(LogbloomConfig.Backend.FILESYSTEM);
        assertThat(c.storage().filesystemDirectory()).isEqualTo(Path.of("./data"));
        assertThat(c.storage().s3()).isEqualTo(new LogbloomConfig.S3("", "", "us-east-1", "", "", true));
        assertThat(c.wal()).isEqualTo(new LogbloomConfig.Wal(null, LogbloomConfig.FsyncPolicy.PER_REQUEST, Duration.ofSeconds(1), 64L << 20));
        assertThat(c.walDirectory()).isEqualTo(Path.of("./data/wal"));
        assertThat(c.ingester()).isEqualTo(new LogbloomConfig.Ingester(1 << 20, 1536 << 10, "zstd",
                Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofSeconds(10), 0, Duration.ofMinutes(5)));
        assertThat(c.limits()).isEqualTo(new LogbloomConfig.Limits(4, 6, 256 << 10, 15, 1024, 2048, true,
                Duration.ofDays(7), Duration.ofMinutes(10), 5000, 0, 0, true, 5000, 500, Duration.ofMinutes(1), 0,
                PushEnrichmentConfig.DEFAULT_SERVICE_NAME_LABELS, true, PushEnrichmentConfig.DEFAULT_LOG_LEVEL_FIELDS,
                true, 1000, OtlpConfig.defaults()));
        assertThat(c.patternIngester()).isEqualTo(new LogbloomConfig.PatternIngester(false, Duration.ofHours(3), 300));
        assertThat(c.bloom()).isEqualTo(new LogbloomConfig.Bloom(true, 0.001, 2, 0.5, 64L << 20, 4, 0, false, true));
        assertThat(c.querier()).isEqualTo(new LogbloomConfig.Querier(true, 8, HeapShares.AUTO, HeapShares.AUTO, 32,
                HeapShares.AUTO, java.time.Duration.ofHours(1), java.time.Duration.ofMinutes(10), HeapShares.AUTO,
                LogbloomConfig.Querier.DEFAULT_INDEX_LISTING_TTL));
    }

    @Test
    void parse_everyKey_mapped() {
        String yaml = """
                server: { http_listen_address: 0.0.0.0, http_listen_port: 3200, max_recv_msg_size: 8MB, warmup_lines: 5000,
                          warmup_settle_seconds: 3 }
                auth_enabled: true
                storage:
                  backend: s3
                  filesystem: { directory: /var/lib/logbloom }
                  s3: { endpoint: "http://127.0.0.1:9000", bucket: logs, region: eu-west-1, access_key_id: ak,
                        secret_access_key: sk, force_path_style: false, http_config: { response_header_timeout: 5s } }
                wal: { directory: /wal, fsync: interval, fsync_interval: 200ms, segment_size: 1MB }
                ingester: { chunk_block_size: 64KB, chunk_target_size: 1.5MB, chunk_encoding: zstd,
                            chunk_idle_period: 1h30m, max_chunk_age: 3h, flush_check_period: 500ms,
                            max_memory: 64MB, flush_retry_budget: 30s, seal_interval: 2s, merge_min_bytes: 4MB,
                            max_unmerged_bytes: 512MB, merge_concurrency: 3 }
                limits: { ingestion_rate_mb: 8.5, ingestion_burst_size_mb: 12, max_line_size: 1MB,
                          max_label_names_per_series: 30, max_label_name_length: 100, max_label_value_length: 200,
                          reject_old_samples: false, reject_old_samples_max_age: 1w, creation_grace_period: 5m,
                          max_global_streams_per_user: 10, max_new_series_per_hour: 7, max_new_series_per_day: 70,
                          unordered_writes: false, max_entries_limit_per_query: 100, max_query_series: 50,
                          query_timeout: 2m, max_query_bytes_read: 1GB, discover_service_name: [app, job],
                          discover_log_levels: false, log_level_fields: [lvl], volume_enabled: false,
                          volume_max_series: 9,
                          otlp_config: { resource_attributes: { ignore_defaults: true, attributes_config: [
                                           { action: index_label, attributes: [host.name] },
                                           { action: drop, regex: 'process\\..*' } ] },
                                         scope_attributes: [ { action: drop, attributes: [a] } ],
                                         log_attributes: [ { regex: "x.*" } ], severity_text_as_label: true } }
                pattern_ingester: { enabled: false, retain_for: 1h, max_clusters: 50 }
                bloom: { enabled: false, error_rate: 0.001, expansion: 4, tightening: 0.8, max_size_per_series: 1MB,
                         ngram_length: 3, ngram_skip: 1, ngram_enabled: true, word_tokens_enabled: false }
                querier: { blooms_enabled: false, max_concurrent_fetches: 2, chunk_cache_size: 1MB, bloom_cache_size: 2MB,
                           results_cache_size: 0, index_cache_size: AUTO, index_listing_ttl: 0s }
                """;
        LogbloomConfig c = LogbloomConfig.parse(yaml, Map.of());
        assertThat(c.server()).isEqualTo(new LogbloomConfig.Server("0.0.0.0", 3200, 8L << 20, 5000, 3));
        assertThat(c.authEnabled()).isTrue();
        assertThat(c.storage()).isEqualTo(new LogbloomConfig.Storage(LogbloomConfig.Backend.S3,
                Path.of("/var/lib/logbloom"),
                new LogbloomConfig.S3("http://127.0.0.1:9000", "logs", "eu-west-1", "ak", "sk", false,
                        Duration.ofSeconds(5))));
        assertThat(c.walDirectory()).isEqualTo(Path.of("/wal"));
        assertThat(c.wal()).isEqualTo(new LogbloomConfig.Wal(Path.of("/wal"), LogbloomConfig.FsyncPolicy.INTERVAL,
                Duration.ofMillis(200), 1 << 20));
        assertThat(c.ingester()).isEqualTo(new LogbloomConfig.Ingester(64 << 10, (long) (1.5 * (1 << 20)), "zstd",
                Duration.ofMinutes(90), Duration.ofHours(3), Duration.ofMillis(500), 64L << 20, Duration.ofSeconds(30),
                Duration.ofSeconds(2), 4L << 20, 512L << 20, 3));
        assertThat(c.limits()).isEqualTo(new LogbloomConfig.Limits(8.5, 12, 1 << 20, 30, 100, 200, false,
                Duration.ofDays(7), Duration.ofMinutes(5), 10, 7, 70, false, 100, 50, Duration.ofMinutes(2), 1L << 30,
                List.of("app", "job"), false, List.of("lvl"), false, 9, OtlpConfig.of(true, List.of(
                        new OtlpConfig.Rule(OtlpConfig.Action.INDEX_LABEL, List.of("host.name"), null),
                        new OtlpConfig.Rule(OtlpConfig.Action.DROP, List.of(), Pattern.compile("process\\..*"))),
                        List.of(new OtlpConfig.Rule(OtlpConfig.Action.DROP, List.of("a"), null)),
                        List.of(new OtlpConfig.Rule(OtlpConfig.Action.STRUCTURED_METADATA, List.of(), Pattern.compile("x.*"))),
                        true)));
        assertThat(c.patternIngester()).isEqualTo(new LogbloomConfig.PatternIngester(false, Duration.ofHours(1), 50));
        assertThat(c.bloom()).isEqualTo(new LogbloomConfig.Bloom(false, 0.001, 4, 0.8, 1 << 20, 3, 1, true, false));
        assertThat(c.querier()).isEqualTo(new LogbloomConfig.Querier(false, 2, 1 << 20, 2 << 20, 32, 0,
                java.time.Duration.ofHours(1), java.time.Duration.ofMinutes(10), HeapShares.AUTO,
                java.time.Duration.ZERO));
        assertThat(c.storage().s3().toString()).doesNotContain("sk");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "serverx: {}|config serverx: unknown key",
            "server: { port: 1 }|config server.port: unknown key",
            "storage: { s3: { bucket_name: b } }|config storage.s3.bucket_name: unknown key",
            "limits: { max_line_size: 12XB }|config limits.max_line_size: invalid size unit 'XB'",
            "limits: { query_timeout: 5 minutes }|config limits.query_timeout: invalid duration '5 minutes'",
            "limits: { max_query_series: many }|config limits.max_query_series: expected an integer, got 'many'",
            "auth_enabled: maybe|config auth_enabled: expected true or false, got 'maybe'",
            "server: { http_listen_port: 70000 }|server.http_listen_port must be in 0..65535, got 70000",
            "server: { warmup_lines: -1 }|server.warmup_lines must be in 0..10000000 (0 turns the warm-up off), got -1",
            "server: { warmup_settle_seconds: 601 }|server.warmup_settle_seconds must be in 0..600 (0 skips settling), got 601",
            "storage: { backend: gcs }|config storage.backend: unknown backend 'gcs'",
            "storage: { backend: s3 }|storage.s3.bucket must be set when storage.backend is s3",
            "wal: { fsync: never }|config wal.fsync: unknown policy 'never'",
            "ingester: { chunk_encoding: lz4 }|ingester.chunk_encoding: unknown encoding 'lz4'",
            "bloom: { error_rate: 1.5 }|bloom.error_rate must be in (0, 1), got 1.5",
            "server: 3100|config server: expected a mapping of keys, got '3100'",
            "server: [|config is not valid YAML",
            "limits: { otlp_config: { log_attributes: [ { action: index_label, attributes: [a] } ] } }|config limits.otlp_config.log_attributes[0].action: index_label action is only supported for resource_attributes",
            "limits: { otlp_config: { scope_attributes: [ { action: keep, attributes: [a] } ] } }|unsupported action 'keep'",
            "limits: { otlp_config: { log_attributes: [ { action: drop } ] } }|config limits.otlp_config.log_attributes[0]: exactly one of attributes or regex must be set",
            "limits: { otlp_config: { log_attributes: [ { regex: \"(\" } ] } }|log_attributes[0].regex: invalid regex",
            "limits: { otlp_config: { resource_attributes: { defaults: true } } }|config limits.otlp_config.resource_attributes.defaults: unknown key",
            "pattern_ingester: { retain: 1h }|config pattern_ingester.retain: unknown key",
            "querier: { bloom_cache_size: lots }|config querier.bloom_cache_size: invalid size 'lots'",
            "querier: { index_listing_ttl: -1s }|config querier.index_listing_ttl: invalid duration '-1s'",
            // a number as Go reads one: Java's own parser would take 4d as 4
            "limits: { ingestion_rate_mb: 4d }|config limits.ingestion_rate_mb: expected a number, got '4d'",
    })
    void parse_badInput_namesKeyPathAndValue(String yaml, String message) {
        assertThatThrownBy(() -> LogbloomConfig.parse(yaml, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource({"1024,1024", "1KB,1024", "1k,1024", "256KB,262144", "1.5MB,1572864", "2GiB,2147483648", "10 B,10"})
    void parseBytes_units(String text, long bytes) {
        assertThat(ConfigNode.parseBytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource({"30s,PT30S", "1h30m,PT1H30M", "1.5h,PT1H30M", "250ms,PT0.25S", "1w,PT168H", "2d,PT48H", "0,PT0S",
            "168h,PT168H"})
    void parseDuration_units(String text, String iso) {
        assertThat(ConfigNode.parseDuration(text)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void parse_sealIntervalAndMergeSize_mappedIntoTheIngestConfig_andValidated() {
        LogbloomConfig c = LogbloomConfig.parse("ingester:\n  seal_interval: 250ms\n  merge_min_bytes: 8MB\n", Map.of());
        assertThat(c.ingester().sealInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.ingester().mergeMinBytes()).isEqualTo(8L << 20);
        io.logbloom.ingest.FlushConfig flush = ConfigMapping.ingestConfig(c).flush();
        assertThat(flush.sealInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(flush.mergeMinBytes()).isEqualTo(8L << 20);
        assertThat(LogbloomConfig.defaults().ingester().sealInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  seal_interval: 0s\n", Map.of()))
                .hasMessageContaining("ingester.seal_interval must be > 0");
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  merge_min_bytes: 0\n", Map.of()))
                .hasMessageContaining("ingester.merge_min_bytes must be > 0");
    }

    @Test
    void parse_maxUnmergedBytes_mappedIntoTheBudget_defaultedAndValidated() {
        LogbloomConfig c = LogbloomConfig.parse("ingester:\n  max_unmerged_bytes: 300MB\n", Map.of());
        assertThat(ConfigMapping.ingestConfig(c).budget().maxUnmergedBytes()).isEqualTo(300L << 20);
        assertThat(ConfigMapping.ingestConfig(LogbloomConfig.defaults()).budget().maxUnmergedBytes())
                .isEqualTo(io.logbloom.ingest.BudgetConfig.DEFAULT_MAX_UNMERGED_BYTES);
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  max_unmerged_bytes: 1KB\n", Map.of()))
                .hasMessageContaining("ingester.max_unmerged_bytes must be at least 1048576 bytes, got 1024");
    }

    @Test
    void parse_mergeConcurrency_mappedIntoTheFlushConfig_defaultedToTheCores_andValidated() {
        LogbloomConfig c = LogbloomConfig.parse("ingester:\n  merge_concurrency: 5\n", Map.of());
        assertThat(ConfigMapping.ingestConfig(c).flush().mergeConcurrency()).isEqualTo(5);
        assertThat(LogbloomConfig.defaults().ingester().mergeConcurrency()).isZero();
        assertThat(ConfigMapping.ingestConfig(LogbloomConfig.defaults()).flush().mergeConcurrency())
                .isEqualTo(Math.min(64, Math.max(1, Runtime.getRuntime().availableProcessors() / 2)));
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  merge_concurrency: -1\n", Map.of()))
                .hasMessageContaining("ingester.merge_concurrency must be 0 (half the cores) or 1 to 64, got -1");
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  merge_concurrency: 65\n", Map.of()))
                .hasMessageContaining("ingester.merge_concurrency must be 0 (half the cores) or 1 to 64, got 65");
        assertThatThrownBy(() -> LogbloomConfig.parse("ingester:\n  merge_concurrency: two\n", Map.of()))
                .hasMessageContaining("expected an integer, got 'two'");
    }

    @Test
    void parse_s3ResponseHeaderTimeout_mappedIntoTheStoreConfig_defaultedAndValidated() {
        LogbloomConfig c = LogbloomConfig.parse(
                "storage:\n  s3:\n    http_config:\n      response_header_timeout: 2s\n", Map.of());
        assertThat(ConfigMapping.s3Config(new LogbloomConfig.S3("", "b", "r", "", "", true,
                c.storage().s3().responseHeaderTimeout())).responseHeaderTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(LogbloomConfig.defaults().storage().s3().responseHeaderTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(LogbloomConfig.parse("storage:\n  s3:\n    http_config:\n      response_header_timeout: 0s\n",
                Map.of()).storage().s3().responseHeaderTimeout()).isZero();
        assertThatThrownBy(() -> LogbloomConfig.parse(
                "storage:\n  s3:\n    http_config:\n      idle_conn_timeout: 90s\n", Map.of()))
                .hasMessageContaining("idle_conn_timeout");
        assertThatThrownBy(() -> new LogbloomConfig.S3("", "b", "r", "", "", true, Duration.ofSeconds(-1)))
                .hasMessageContaining(
                        "storage.s3.http_config.response_header_timeout must be 0 (no limit) or positive");
    }

    @Test
    void parseDuration_garbage_rejected() {
        assertThatThrownBy(() -> ConfigNode.parseDuration("1h-5m")).hasMessageContaining("invalid duration '1h-5m'");
        assertThatThrownBy(() -> ConfigNode.parseDuration("")).hasMessageContaining("invalid duration");
        assertThatThrownBy(() -> ConfigNode.parseDuration("10")).hasMessageContaining("invalid duration '10'");
    }

    @Test
    void parse_envReferences_expanded() {
        String yaml = """
                server: { http_listen_port: ${PORT}, http_listen_address: "${BIND:-0.0.0.0}" }
                storage: { filesystem: { directory: "${DATA:-/tmp/x}" }, s3: { access_key_id: k, secret_access_key: "a$$b" } }
                """;
        LogbloomConfig c = LogbloomConfig.parse(yaml, Map.of("PORT", "4100", "DATA", ""));
        assertThat(c.server().httpListenPort()).isEqualTo(4100);
        assertThat(c.server().httpListenAddress()).isEqualTo("0.0.0.0");
        assertThat(c.storage().filesystemDirectory()).isEqualTo(Path.of("/tmp/x"));
        assertThat(c.storage().s3().secretAccessKey()).isEqualTo("a$b");
    }

    @Test
    void expand_unsetVariable_namesItAndLine() {
        assertThatThrownBy(() -> new EnvExpander(Map.of()).expand("a: 1\nb: ${NOPE}\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("config line 2: environment variable NOPE is not set (use ${NOPE:-default} to give a default)");
        assertThatThrownBy(() -> new EnvExpander(Map.of()).expand("b: ${1X}"))
                .hasMessageContaining("invalid environment variable name '1X'");
        assertThatThrownBy(() -> new EnvExpander(Map.of()).expand("b: ${X\n}"))
                .hasMessageContaining("unterminated environment reference");
        assertThat(new EnvExpander(Map.of()).expand("cost: $5 and $HOME")).isEqualTo("cost: $5 and $HOME");
    }

    @Test
    void withOverrides_flagsWinAndWalFollowsData() {
        LogbloomConfig file = LogbloomConfig.parse("server: { http_listen_port: 9 }", Map.of());
        LogbloomConfig c = file.withOverrides(0, "0.0.0.0", Path.of("/d"));
        assertThat(c.server().httpListenPort()).isZero();
        assertThat(c.server().httpListenAddress()).isEqualTo("0.0.0.0");
        assertThat(c.storage().filesystemDirectory()).isEqualTo(Path.of("/d"));
        assertThat(c.walDirectory()).isEqualTo(Path.of("/d/wal"));
        LogbloomConfig explicitWal = LogbloomConfig.parse("wal: { directory: /w }", Map.of())
                .withOverrides(null, null, Path.of("/d"));
        assertThat(explicitWal.walDirectory()).isEqualTo(Path.of("/w"));
        assertThat(file.withOverrides(null, null, null)).isEqualTo(file);
    }

    @Test
    void toYaml_roundTripsEveryKey_hidesSecret() {
        String yaml = """
                server: { http_listen_address: 0.0.0.0, http_listen_port: 3200, max_recv_msg_size: 8MB, warmup_lines: 7,
                          warmup_settle_seconds: 0 }
                auth_enabled: true
                storage: { backend: s3, filesystem: { directory: "/var/lib/a$$b" },
                           s3: { endpoint: "http://h:9000", bucket: logs, region: r, access_key_id: ak, secret_access_key: sk } }
                wal: { directory: /wal, fsync: interval, fsync_interval: 1500ms }
                ingester: { chunk_idle_period: 1h30m, max_chunk_age: 90s, chunk_encoding: gzip }
                limits: { ingestion_rate_mb: 0.5, reject_old_samples_max_age: 1w, creation_grace_period: 0 }
                bloom: { ngram_enabled: true, ngram_skip: 2, error_rate: 0.001 }
                querier: { blooms_enabled: false, chunk_cache_size: 3MB, results_cache_size: 0 }
                pattern_ingester: { retain_for: 30m }
                """;
        LogbloomConfig c = LogbloomConfig.parse(yaml.replace("creation_grace_period: 0 }", "creation_grace_period: 0,"
                + " discover_service_name: [], otlp_config: { log_attributes: [ { action: drop, regex: \"a.*\" } ] } }"),
                Map.of());
        assertThat(c.limits().discoverServiceName()).isEmpty();
        String printed = c.toYaml();
        assertThat(printed).doesNotContain("sk\"").contains("secret_access_key: \"<hidden>\"");
        LogbloomConfig back = LogbloomConfig.parse(printed, Map.of());
        assertThat(back.storage().s3().secretAccessKey()).isEqualTo("<hidden>");
        assertThat(new LogbloomConfig(back.server(), back.authEnabled(), new LogbloomConfig.Storage(
                back.storage().backend(), back.storage().filesystemDirectory(), c.storage().s3()), back.wal(),
                back.ingester(), back.limits(), back.bloom(), back.querier(), back.patternIngester(), back.operations())).isEqualTo(c);
        assertThat(LogbloomConfig.parse(LogbloomConfig.defaults().toYaml(), Map.of()))
                .isEqualTo(LogbloomConfig.defaults());
    }

    @ParameterizedTest
    @CsvSource({"PT0S,0s", "PT1H30M,1h30m", "PT0.25S,250ms", "PT168H,168h", "PT1M0.5S,1m500ms", "PT0.000001S,1000ns"})
    void formatDuration_parsesBack(String iso, String text) {
        assertThat(ConfigNode.formatDuration(Duration.parse(iso))).isEqualTo(text);
        assertThat(ConfigNode.parseDuration(text)).isEqualTo(Duration.parse(iso));
    }
}
