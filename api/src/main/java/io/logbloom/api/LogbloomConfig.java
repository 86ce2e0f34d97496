package io.logbloom.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.ingest.OtlpConfig;
import io.logbloom.ingest.PushEnrichmentConfig;
import io.logbloom.kafka.ClusterConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The whole server configuration, one record per YAML section with Loki-like snake_case keys (see
 * the "Config file" section of README.md for the annotated file). {@link #parse} expands {@code ${VAR}} /
 * {@code ${VAR:-default}} references, fills every missing key with its documented default and
 * rejects unknown keys naming their path. Immutable and thread-safe.
 *
 * @param server     {@code server:} listen address, port and request size bound
 * @param authEnabled {@code auth_enabled:} when true a push or query without {@code X-Scope-OrgID} gets 401
 * @param storage    {@code storage:} object store backend
 * @param wal        {@code wal:} write-ahead log
 * @param ingester   {@code ingester:} chunk building and flushing
 * @param limits     {@code limits:} per-tenant validation and limits (Loki's limits_config defaults)
 * @param bloom      {@code bloom:} series blooms built at flush time
 * @param querier    {@code querier:} read path
 * @param patternIngester {@code pattern_ingester:} Drain pattern mining for {@code /loki/api/v1/patterns}
 * @param operations {@code compactor:}, the retention/deletion keys of {@code limits:} and {@code overrides:}
 * @param cluster    {@code target:} (the role of this process) and {@code kafka:} (the scale-out write path)
 */
public record LogbloomConfig(
        Server server, boolean authEnabled, Storage storage, Wal wal, Ingester ingester, Limits limits,
        Bloom bloom, Querier querier, PatternIngester patternIngester, OperationsConfig operations, Cluster cluster) {

    /** Loki's default port. */
    public static final int DEFAULT_PORT = 3100;

    public LogbloomConfig {
        Objects.requireNonNull(server, "server is null");
        Objects.requireNonNull(storage, "storage is null");
        Objects.requireNonNull(wal, "wal is null");
        Objects.requireNonNull(ingester, "ingester is null");
        Objects.requireNonNull(limits, "limits is null");
        Objects.requireNonNull(bloom, "bloom is null");
        Objects.requireNonNull(querier, "querier is null");
        Objects.requireNonNull(patternIngester, "patternIngester is null");
        Objects.requireNonNull(operations, "operations is null");
        Objects.requireNonNull(cluster, "cluster is null");
    }

    /** A single-process config ({@code target: all}, no Kafka). */
    public LogbloomConfig(Server server, boolean authEnabled, Storage storage, Wal wal, Ingester ingester, Limits limits,
            Bloom bloom, Querier querier, PatternIngester patternIngester, OperationsConfig operations) {
        this(server, authEnabled, storage, wal, ingester, limits, bloom, querier, patternIngester, operations,
                Cluster.single());
    }

    /** Every key at its default: filesystem store under {@code ./data}, 127.0.0.1:3100, auth off. */
    public static LogbloomConfig defaults() {
        return parse("", Map.of());
    }

    /** Reads and parses a YAML file; errors name the file and the key path. */
    public static LogbloomConfig load(Path file, Map<String, String> environment) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        try {
            return parse(text, environment);
        } catch (ConfigException e) {
            throw new ConfigException(file + ": " + e.getMessage(), e);
        }
    }

    /** Parses YAML text (empty text means all defaults) after expanding environment references. */
    public static LogbloomConfig parse(String yaml, Map<String, String> environment) {
        String expanded = new EnvExpander(environment).expand(yaml);
        JsonNode tree;
        try {
            tree = new ObjectMapper(new YAMLFactory()).readTree(expanded);
        } catch (JsonProcessingException e) {
            throw new ConfigException("config is not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()), e);
        }
        ConfigNode root = new ConfigNode(tree, "");
        Storage storage = Storage.from(root.section("storage"));
        ConfigNode limits = root.section("limits");
        OperationsConfig operations = OperationsConfig.from(root.section("compactor"), limits, root.section("overrides"),
                storage);
        LogbloomConfig config = new LogbloomConfig(
                Server.from(root.section("server")),
                root.bool("auth_enabled", false),
                storage,
                Wal.from(root.section("wal")),
                Ingester.from(root.section("ingester")),
                Limits.from(limits),
                Bloom.from(root.section("bloom")),
                Querier.from(root.section("querier")),
                PatternIngester.from(root.section("pattern_ingester")),
                operations,
                Cluster.from(root.string("target", "all"), root.section("kafka")));
        root.rejectUnknownKeys();
        return config;
    }

    /** This config with command-line overrides applied (null means "not given"); flags win over the file. */
    public LogbloomConfig withOverrides(Integer port, String bindAddress, Path dataDirectory) {
        return withOverrides(port, bindAddress, dataDirectory, null);
    }

    /** As {@link #withOverrides(Integer, String, Path)}, with {@code --target} too. */
    public LogbloomConfig withOverrides(Integer port, String bindAddress, Path dataDirectory, String target) {
        Server s = new Server(bindAddress != null ? bindAddress : server.httpListenAddress(),
                port != null ? port : server.httpListenPort(), server.maxRecvMsgSizeBytes(), server.warmupLines(),
                server.warmupSettleSeconds());
        Storage st = dataDirectory == null ? storage
                : new Storage(storage.backend(), dataDirectory, storage.s3());
        Cluster c = target == null ? cluster : new Cluster(Target.parse("--target", target), cluster.kafka());
        c.validate();
        return new LogbloomConfig(s, authEnabled, st, wal, ingester, limits, bloom, querier, patternIngester, operations,
                c);
    }

    /** A copy with another {@code server.warmup_lines} (the {@code --warmup-lines} flag). */
    public LogbloomConfig withWarmupLines(int lines) {
        return new LogbloomConfig(server.withWarmupLines(lines), authEnabled, storage, wal, ingester, limits, bloom, querier,
                patternIngester, operations, cluster);
    }

    /** A copy with another {@code target:} and {@code kafka:} (tests wiring a cluster). */
    public LogbloomConfig withCluster(Cluster c) {
        c.validate();
        return new LogbloomConfig(server, authEnabled, storage, wal, ingester, limits, bloom, querier, patternIngester,
                operations, c);
    }

    /**
     * This config as YAML with every key, in the file's own format, so {@link #parse} reads it back to an
     * equal config; the S3 secret key is replaced by {@code <hidden>}. Served by {@code GET /config}.
     */
    public String toYaml() {
        Server sv = server;
        S3 s3 = storage.s3();
        Ingester i = ingester;
        Limits l = limits;
        Bloom b = bloom;
        Querier q = querier;
        return "server:\n"
                + "  http_listen_address: " + quote(sv.httpListenAddress()) + "\n"
                + "  http_listen_port: " + sv.httpListenPort() + "\n"
                + "  max_recv_msg_size: " + sv.maxRecvMsgSizeBytes() + "\n"
                + "  warmup_lines: " + sv.warmupLines() + "\n"
                + "  warmup_settle_seconds: " + sv.warmupSettleSeconds() + "\n"
                + "auth_enabled: " + authEnabled + "\n"
                + "storage:\n"
                + "  backend: " + storage.backend().name().toLowerCase(Locale.ROOT) + "\n"
                + "  filesystem:\n"
                + "    directory: " + quote(storage.filesystemDirectory().toString()) + "\n"
                + "  s3:\n"
                + "    endpoint: " + quote(s3.endpoint()) + "\n"
                + "    bucket: " + quote(s3.bucket()) + "\n"
                + "    region: " + quote(s3.region()) + "\n"
                + "    access_key_id: " + quote(s3.accessKeyId()) + "\n"
                + "    secret_access_key: " + quote(s3.secretAccessKey().isEmpty() ? "" : "<hidden>") + "\n"
                + "    force_path_style: " + s3.forcePathStyle() + "\n"
                + "    http_config:\n"
                + "      response_header_timeout: " + ConfigNode.formatDuration(s3.responseHeaderTimeout()) + "\n"
                + "wal:\n"
                + "  directory: " + quote(wal.directory() == null ? "" : wal.directory().toString()) + "\n"
                + "  fsync: " + wal.fsync().name().toLowerCase(Locale.ROOT) + "\n"
                + "  fsync_interval: " + ConfigNode.formatDuration(wal.fsyncInterval()) + "\n"
                + "  segment_size: " + wal.segmentSizeBytes() + "\n"
                + "ingester:\n"
                + "  chunk_block_size: " + i.chunkBlockSizeBytes() + "\n"
                + "  chunk_target_size: " + i.chunkTargetSizeBytes() + "\n"
                + "  chunk_encoding: " + i.chunkEncoding() + "\n"
                + "  chunk_idle_period: " + ConfigNode.formatDuration(i.chunkIdlePeriod()) + "\n"
                + "  max_chunk_age: " + ConfigNode.formatDuration(i.maxChunkAge()) + "\n"
                + "  flush_check_period: " + ConfigNode.formatDuration(i.flushCheckPeriod()) + "\n"
                + "  max_memory: " + i.maxMemoryBytes() + "\n"
                + "  flush_retry_budget: " + ConfigNode.formatDuration(i.flushRetryBudget()) + "\n"
                + "  seal_interval: " + ConfigNode.formatDuration(i.sealInterval()) + "\n"
                + "  merge_min_bytes: " + i.mergeMinBytes() + "\n"
                + "  max_unmerged_bytes: " + i.maxUnmergedBytes() + "\n"
                + "  merge_concurrency: " + i.mergeConcurrency() + "\n"
                + "limits:\n"
                + "  ingestion_rate_mb: " + l.ingestionRateMb() + "\n"
                + "  ingestion_burst_size_mb: " + l.ingestionBurstSizeMb() + "\n"
                + "  max_line_size: " + l.maxLineSizeBytes() + "\n"
                + "  max_label_names_per_series: " + l.maxLabelNamesPerSeries() + "\n"
                + "  max_label_name_length: " + l.maxLabelNameLength() + "\n"
                + "  max_label_value_length: " + l.maxLabelValueLength() + "\n"
                + "  reject_old_samples: " + l.rejectOldSamples() + "\n"
                + "  reject_old_samples_max_age: " + ConfigNode.formatDuration(l.rejectOldSamplesMaxAge()) + "\n"
                + "  creation_grace_period: " + ConfigNode.formatDuration(l.creationGracePeriod()) + "\n"
                + "  max_global_streams_per_user: " + l.maxGlobalStreamsPerUser() + "\n"
                + "  max_new_series_per_hour: " + l.maxNewSeriesPerHour() + "\n"
                + "  max_new_series_per_day: " + l.maxNewSeriesPerDay() + "\n"
                + "  unordered_writes: " + l.unorderedWrites() + "\n"
                + "  max_entries_limit_per_query: " + l.maxEntriesLimitPerQuery() + "\n"
                + "  max_query_series: " + l.maxQuerySeries() + "\n"
                + "  query_timeout: " + ConfigNode.formatDuration(l.queryTimeout()) + "\n"
                + "  max_query_bytes_read: " + l.maxQueryBytesRead() + "\n"
                + "  discover_service_name: " + quotedList(l.discoverServiceName()) + "\n"
                + "  discover_log_levels: " + l.discoverLogLevels() + "\n"
                + "  log_level_fields: " + quotedList(l.logLevelFields()) + "\n"
                + "  volume_enabled: " + l.volumeEnabled() + "\n"
                + "  volume_max_series: " + l.volumeMaxSeries() + "\n"
                + otlpYaml(l.otlpConfig())
                + operations.limitsYaml()
                + "bloom:\n"
                + "  enabled: " + b.enabled() + "\n"
                + "  error_rate: " + b.errorRate() + "\n"
                + "  expansion: " + b.expansion() + "\n"
                + "  tightening: " + b.tightening() + "\n"
                + "  max_size_per_series: " + b.maxSizePerSeriesBytes() + "\n"
                + "  ngram_length: " + b.ngramLength() + "\n"
                + "  ngram_skip: " + b.ngramSkip() + "\n"
                + "  ngram_enabled: " + b.ngramEnabled() + "\n"
                + "  word_tokens_enabled: " + b.wordTokensEnabled() + "\n"
                + "querier:\n"
                + "  blooms_enabled: " + q.bloomsEnabled() + "\n"
                + "  max_concurrent_fetches: " + q.maxConcurrentFetches() + "\n"
                + "  chunk_cache_size: " + cacheSizeYaml(q.chunkCacheSizeBytes()) + "\n"
                + "  bloom_cache_size: " + cacheSizeYaml(q.bloomCacheSizeBytes()) + "\n"
                + "  max_concurrent: " + q.maxConcurrent() + "\n"
                + "  results_cache_size: " + cacheSizeYaml(q.resultsCacheSizeBytes()) + "\n"
                + "  split_queries_by_interval: " + ConfigNode.formatDuration(q.splitQueriesByInterval()) + "\n"
                + "  max_cache_freshness: " + ConfigNode.formatDuration(q.maxCacheFreshness()) + "\n"
                + "  index_cache_size: " + cacheSizeYaml(q.indexCacheSizeBytes()) + "\n"
                + "  index_listing_ttl: " + ConfigNode.formatDuration(q.indexListingTtl()) + "\n"
                + "pattern_ingester:\n"
                + "  enabled: " + patternIngester.enabled() + "\n"
                + "  retain_for: " + ConfigNode.formatDuration(patternIngester.retainFor()) + "\n"
                + "  max_clusters: " + patternIngester.maxClusters() + "\n"
                + operations.sectionsYaml()
                + cluster.yaml();
    }

    private static String quotedList(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(quote(items.get(i)));
        }
        return sb.append(']').toString();
    }

    /** {@code otlp_config} with every rule spelled out ({@code ignore_defaults: true}, so it re-parses equal). */
    private static String otlpYaml(OtlpConfig o) {
        return "  otlp_config:\n"
                + "    resource_attributes:\n"
                + "      ignore_defaults: true\n"
                + "      attributes_config: " + rulesYaml(o.resourceAttributes()) + "\n"
                + "    scope_attributes: " + rulesYaml(o.scopeAttributes()) + "\n"
                + "    log_attributes: " + rulesYaml(o.logAttributes()) + "\n"
                + "    severity_text_as_label: " + o.severityTextAsLabel() + "\n";
    }

    private static String rulesYaml(List<OtlpConfig.Rule> rules) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < rules.size(); i++) {
            OtlpConfig.Rule r = rules.get(i);
            sb.append(i > 0 ? ", " : "").append("{ action: ").append(r.action().name().toLowerCase(Locale.ROOT));
            if (r.regex() != null) {
                sb.append(", regex: ").append(quote(r.regex().pattern()));
            } else {
                sb.append(", attributes: ").append(quotedList(r.attributes()));
            }
            sb.append(" }");
        }
        return sb.append(']').toString();
    }

    /** A YAML double-quoted scalar; {@code $} is doubled so that re-parsing (with env expansion) yields the same text. */
    private static String cacheSizeYaml(long bytes) {
        return bytes == HeapShares.AUTO ? "auto" : Long.toString(bytes);
    }

    static String quote(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '$' -> sb.append("$$");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /** The WAL directory: {@code wal.directory} when set, else {@code <storage.filesystem.directory>/wal}. */
    public Path walDirectory() {
        return wal.directory() != null ? wal.directory() : storage.filesystemDirectory().resolve("wal");
    }

    /**
     * {@code server:} where to listen and how large a push body may be.
     *
     * @param maxRecvMsgSizeBytes {@code max_recv_msg_size}: bound on a request body, both as received and
     *                            after gzip inflation (so a gzip bomb cannot exhaust memory); Loki's
     *                            distributor default is 100MB
     * @param warmupLines         {@code warmup_lines}: lines a private in-process server is pushed and queried with
     *                            before this one starts, so the JIT has compiled the request paths when the first
     *                            pushes and queries arrive ({@link JitWarmup}); 0 turns the warm-up off
     * @param warmupSettleSeconds {@code warmup_settle_seconds}: after those lines, at most this long pushing and then
     *                            querying until the compilers go quiet ({@link CompilerSettle}); 0 skips it
     */
    public record Server(String httpListenAddress, int httpListenPort, long maxRecvMsgSizeBytes, int warmupLines,
            int warmupSettleSeconds) {
        /**
         * The start-up warm-up is on: 20 000 lines in four push-flush-query rounds and 1 000 queries (750 needles),
         * about 5-7 s on two cores with 400 queries and 7 s more with 1 000 on a slower box, after which the pushes
         * and queries run compiled, most of them by C1 only (the settling below takes them to C2).
         * Two 3 M-line bar runs against the warm-up of 40 queries in one round (2026-11-28, fifth session): needle
         * {@code execTime} right after the load 1.7 / 3.5 against 8.8 / 5.6 ms (round trip 6.1 / 5.5 against 12.6 /
         * 7.5), RSS after the load 303 / 252 against 240 / 242 MB with README's {@code -Xms64m}. 0 turns it off.
         */
        public static final int DEFAULT_WARMUP_LINES = 20_000;
        /**
         * After its rounds the warm-up pushes for up to 8 s and then queries for the rest of 16 s, each until the
         * compilers go quiet: on two cores the one C2 thread needs about that long to compile the push and query paths,
         * which it otherwise compiles during the first load and the first needles after it. Four 3 M-line bar runs
         * (2026-11-28, sixth session) against the rounds alone: push 61.3 / 63.1 / 60.0 / 58.5 against 53.4 / 41.1 /
         * 57.7 / 55.4 MB/s, needle {@code execTime} right after the load 1.6 / 1.6 / 1.7 / 2.0 against 6.7 / 4.4 / 3.9
         * / 3.3 ms (round trip 3.0 / 3.7 / 5.2 / 6.4 against 9.7 / 7.3 / 4.9 / 5.1); start 23-24 s against 5.6-6.8 s.
         * 0 skips it.
         */
        public static final int DEFAULT_WARMUP_SETTLE_SECONDS = 16;

        public Server {
            Objects.requireNonNull(httpListenAddress, "httpListenAddress is null");
            if (httpListenAddress.isBlank()) {
                throw new ConfigException("server.http_listen_address is empty");
            }
            if (httpListenPort < 0 || httpListenPort > 65535) {
                throw new ConfigException("server.http_listen_port must be in 0..65535, got " + httpListenPort);
            }
            if (maxRecvMsgSizeBytes <= 0 || maxRecvMsgSizeBytes > Integer.MAX_VALUE - 8) {
                throw new ConfigException("server.max_recv_msg_size must be in 1B..2GB, got " + maxRecvMsgSizeBytes);
            }
            if (warmupLines < 0 || warmupLines > 10_000_000) {
                throw new ConfigException("server.warmup_lines must be in 0..10000000 (0 turns the warm-up off), got "
                        + warmupLines);
            }
            if (warmupSettleSeconds < 0 || warmupSettleSeconds > 600) {
                throw new ConfigException("server.warmup_settle_seconds must be in 0..600 (0 skips settling), got "
                        + warmupSettleSeconds);
            }
        }

        /** This section with another {@code warmup_lines}. */
        public Server withWarmupLines(int lines) {
            return new Server(httpListenAddress, httpListenPort, maxRecvMsgSizeBytes, lines, warmupSettleSeconds);
        }

        static Server from(ConfigNode n) {
            Server s = new Server(n.string("http_listen_address", "127.0.0.1"),
                    n.integer("http_listen_port", DEFAULT_PORT), n.bytes("max_recv_msg_size", 100L << 20),
                    n.integer("warmup_lines", DEFAULT_WARMUP_LINES),
                    n.integer("warmup_settle_seconds", DEFAULT_WARMUP_SETTLE_SECONDS));
            n.rejectUnknownKeys();
            return s;
        }
    }

    /** Object store backends. */
    public enum Backend { FILESYSTEM, S3 }

    /** {@code storage:} the object store holding chunks, index files and blooms. */
    public record Storage(Backend backend, Path filesystemDirectory, S3 s3) {
        public Storage {
            Objects.requireNonNull(backend, "backend is null");
            Objects.requireNonNull(filesystemDirectory, "filesystemDirectory is null");
            Objects.requireNonNull(s3, "s3 is null");
            if (backend == Backend.S3 && s3.bucket().isEmpty()) {
                throw new ConfigException("storage.s3.bucket must be set when storage.backend is s3");
            }
        }

        static Storage from(ConfigNode n) {
            String backendName = n.string("backend", "filesystem");
            Backend backend = switch (backendName.toLowerCase(Locale.ROOT)) {
                case "filesystem" -> Backend.FILESYSTEM;
                case "s3" -> Backend.S3;
                default -> throw new ConfigException("config storage.backend: unknown backend '" + backendName
                        + "' (expected filesystem or s3)");
            };
            ConfigNode fs = n.section("filesystem");
            Path directory = Path.of(fs.string("directory", "./data"));
            fs.rejectUnknownKeys();
            S3 s3 = S3.from(n.section("s3"));
            n.rejectUnknownKeys();
            return new Storage(backend, directory, s3);
        }
    }

    /**
     * {@code storage.s3:} an S3-compatible bucket; empty endpoint means AWS, empty keys mean the default
     * credentials chain.
     */
    public record S3(String endpoint, String bucket, String region, String accessKeyId, String secretAccessKey,
            boolean forcePathStyle, Duration responseHeaderTimeout) {
        /** With the default {@code http_config.response_header_timeout} (30s). */
        public S3(String endpoint, String bucket, String region, String accessKeyId, String secretAccessKey,
                boolean forcePathStyle) {
            this(endpoint, bucket, region, accessKeyId, secretAccessKey, forcePathStyle,
                    io.logbloom.chunks.S3Config.DEFAULT_RESPONSE_HEADER_TIMEOUT);
        }

        public S3 {
            Objects.requireNonNull(endpoint, "endpoint is null");
            Objects.requireNonNull(bucket, "bucket is null");
            Objects.requireNonNull(region, "region is null");
            Objects.requireNonNull(accessKeyId, "accessKeyId is null");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey is null");
            if (accessKeyId.isEmpty() != secretAccessKey.isEmpty()) {
                throw new ConfigException("storage.s3.access_key_id and storage.s3.secret_access_key must be set together");
            }
            Objects.requireNonNull(responseHeaderTimeout, "responseHeaderTimeout is null");
            if (responseHeaderTimeout.isNegative()) {
                throw new ConfigException("storage.s3.http_config.response_header_timeout must be 0 (no limit) or "
                        + "positive, got " + ConfigNode.formatDuration(responseHeaderTimeout));
            }
        }

        static S3 from(ConfigNode n) {
            ConfigNode http = n.section("http_config");
            Duration responseHeaderTimeout = http.duration("response_header_timeout",
                    io.logbloom.chunks.S3Config.DEFAULT_RESPONSE_HEADER_TIMEOUT);
            http.rejectUnknownKeys();
            S3 s3 = new S3(n.string("endpoint", ""), n.string("bucket", ""), n.string("region", "us-east-1"),
                    n.string("access_key_id", ""), n.string("secret_access_key", ""),
                    n.bool("force_path_style", true), responseHeaderTimeout);
            n.rejectUnknownKeys();
            return s3;
        }

        /** Hides the secret so the record can be logged or served by {@code /config}. */
        @Override
        public String toString() {
            return "S3[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + ", accessKeyId="
                    + accessKeyId + ", secretAccessKey=" + (secretAccessKey.isEmpty() ? "" : "<hidden>")
                    + ", forcePathStyle=" + forcePathStyle + ", responseHeaderTimeout="
                    + ConfigNode.formatDuration(responseHeaderTimeout) + "]";
        }
    }

    /** When the WAL is fsynced. */
    public enum FsyncPolicy { PER_REQUEST, INTERVAL }

    /**
     * {@code wal:} the write-ahead log.
     *
     * @param directory        null means {@code <storage.filesystem.directory>/wal}
     * @param fsync            {@code per_request} (default: a 204 means the push is on disk) or {@code interval}
     * @param fsyncInterval    {@code fsync_interval}: period of the {@code interval} policy (default 1s)
     * @param segmentSizeBytes {@code segment_size}: a segment file is rotated past this size (default 64MB)
     */
    public record Wal(Path directory, FsyncPolicy fsync, Duration fsyncInterval, long segmentSizeBytes) {
        public Wal {
            Objects.requireNonNull(fsync, "fsync is null");
            positive("wal.fsync_interval", fsyncInterval);
            positive("wal.segment_size", segmentSizeBytes);
        }

        static Wal from(ConfigNode n) {
            String dir = n.string("directory", null);
            String fsyncName = n.string("fsync", "per_request");
            FsyncPolicy fsync = switch (fsyncName.toLowerCase(Locale.ROOT)) {
                case "per_request" -> FsyncPolicy.PER_REQUEST;
                case "interval" -> FsyncPolicy.INTERVAL;
                default -> throw new ConfigException("config wal.fsync: unknown policy '" + fsyncName
                        + "' (expected per_request or interval)");
            };
            Wal wal = new Wal(dir == null || dir.isEmpty() ? null : Path.of(dir), fsync,
                    n.duration("fsync_interval", Duration.ofSeconds(1)), n.bytes("segment_size", 64L << 20));
            n.rejectUnknownKeys();
            return wal;
        }
    }

    /**
     * {@code ingester:} block size and flush timing (Loki's ingester keys and defaults), plus the write
     * path's {@code seal_interval} (buffers to local parts) and {@code merge_min_bytes} (parts to one
     * stored object) with {@code max_unmerged_bytes} (parts waiting for the store above which pushes get
     * 429), and {@code merge_concurrency} (blocks a merge encodes at once; 0, the default, half the cores, at
     * least one). {@code chunk_target_size} and {@code chunk_encoding} are validated but no longer shape what
     * is written (columnar objects, zstd).
     */
    public record Ingester(long chunkBlockSizeBytes, long chunkTargetSizeBytes, String chunkEncoding,
            Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod, long maxMemoryBytes,
            Duration flushRetryBudget, Duration sealInterval, long mergeMinBytes, long maxUnmergedBytes,
            int mergeConcurrency) {
        /** With the default seal interval and merge size. */
        public Ingester(long chunkBlockSizeBytes, long chunkTargetSizeBytes, String chunkEncoding,
                Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod, long maxMemoryBytes,
                Duration flushRetryBudget) {
            this(chunkBlockSizeBytes, chunkTargetSizeBytes, chunkEncoding, chunkIdlePeriod, maxChunkAge,
                    flushCheckPeriod, maxMemoryBytes, flushRetryBudget, io.logbloom.ingest.FlushConfig.DEFAULT_SEAL_INTERVAL,
                    io.logbloom.ingest.FlushConfig.DEFAULT_MERGE_MIN_BYTES,
                    io.logbloom.ingest.BudgetConfig.DEFAULT_MAX_UNMERGED_BYTES);
        }

        /** With the default merge concurrency (half the cores, at least one). */
        public Ingester(long chunkBlockSizeBytes, long chunkTargetSizeBytes, String chunkEncoding,
                Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod, long maxMemoryBytes,
                Duration flushRetryBudget, Duration sealInterval, long mergeMinBytes, long maxUnmergedBytes) {
            this(chunkBlockSizeBytes, chunkTargetSizeBytes, chunkEncoding, chunkIdlePeriod, maxChunkAge,
                    flushCheckPeriod, maxMemoryBytes, flushRetryBudget, sealInterval, mergeMinBytes, maxUnmergedBytes,
                    AUTO_MERGE_CONCURRENCY);
        }

        public Ingester {
            positive("ingester.seal_interval", sealInterval);
            positive("ingester.merge_min_bytes", mergeMinBytes);
            positive("ingester.chunk_block_size", chunkBlockSizeBytes);
            positive("ingester.chunk_target_size", chunkTargetSizeBytes);
            Objects.requireNonNull(chunkEncoding, "chunkEncoding is null");
            if (!java.util.Set.of("snappy", "gzip", "zstd", "none").contains(chunkEncoding)) {
                throw new ConfigException("ingester.chunk_encoding: unknown encoding '" + chunkEncoding
                        + "' (expected snappy, gzip, zstd or none)");
            }
            positive("ingester.chunk_idle_period", chunkIdlePeriod);
            positive("ingester.max_chunk_age", maxChunkAge);
            positive("ingester.flush_check_period", flushCheckPeriod);
            if (maxMemoryBytes != AUTO_MAX_MEMORY && maxMemoryBytes < io.logbloom.ingest.BudgetConfig.MIN_MAX_MEMORY_BYTES) {
                throw new ConfigException("ingester.max_memory must be 0 (a quarter of the maximum heap) or at least "
                        + io.logbloom.ingest.BudgetConfig.MIN_MAX_MEMORY_BYTES + " bytes, got " + maxMemoryBytes);
            }
            positive("ingester.flush_retry_budget", flushRetryBudget);
            if (maxUnmergedBytes < io.logbloom.ingest.BudgetConfig.MIN_MAX_UNMERGED_BYTES) {
                throw new ConfigException("ingester.max_unmerged_bytes must be at least "
                        + io.logbloom.ingest.BudgetConfig.MIN_MAX_UNMERGED_BYTES + " bytes, got " + maxUnmergedBytes);
            }
            if (mergeConcurrency < 0 || mergeConcurrency > io.logbloom.ingest.FlushConfig.MAX_MERGE_CONCURRENCY) {
                throw new ConfigException("ingester.merge_concurrency must be 0 (half the cores) or 1 to "
                        + io.logbloom.ingest.FlushConfig.MAX_MERGE_CONCURRENCY + ", got " + mergeConcurrency);
            }
        }

        /**
         * {@code merge_concurrency: 0}, the default: half the cores the JVM sees, at least one (see
         * {@link ConfigMapping}).
         */
        static final int AUTO_MERGE_CONCURRENCY = 0;

        /**
         * {@code max_memory: 0}, the default: a quarter of the JVM's maximum heap, so the budget
         * follows {@code -Xmx} (a fixed default either refuses pushes on a large heap or comes too
         * late on a small one); see {@link ConfigMapping}.
         */
        static final long AUTO_MAX_MEMORY = 0;

        static Ingester from(ConfigNode n) {
            Ingester i = new Ingester(n.bytes("chunk_block_size", ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK),
                    n.bytes("chunk_target_size", 1536L << 10),
                    n.string("chunk_encoding", "zstd").toLowerCase(Locale.ROOT),
                    n.duration("chunk_idle_period", Duration.ofMinutes(30)),
                    n.duration("max_chunk_age", Duration.ofHours(2)),
                    n.duration("flush_check_period", Duration.ofSeconds(10)),
                    n.bytes("max_memory", AUTO_MAX_MEMORY),
                    n.duration("flush_retry_budget", io.logbloom.ingest.BudgetConfig.DEFAULT_FLUSH_RETRY_BUDGET),
                    n.duration("seal_interval", io.logbloom.ingest.FlushConfig.DEFAULT_SEAL_INTERVAL),
                    n.bytes("merge_min_bytes", io.logbloom.ingest.FlushConfig.DEFAULT_MERGE_MIN_BYTES),
                    n.bytes("max_unmerged_bytes", io.logbloom.ingest.BudgetConfig.DEFAULT_MAX_UNMERGED_BYTES),
                    n.integer("merge_concurrency", AUTO_MERGE_CONCURRENCY));
            n.rejectUnknownKeys();
            return i;
        }
    }

    /**
     * {@code limits:} per-tenant limits with Loki's limits_config names and defaults; 0 disables
     * {@code max_new_series_per_hour}, {@code max_new_series_per_day} and {@code max_query_bytes_read}.
     * Loki 3's ingest defaults are here too: {@code discover_service_name} (labels tried in order for
     * {@code service_name}; an empty list turns discovery off), {@code discover_log_levels} with
     * {@code log_level_fields}, {@code volume_enabled} with {@code volume_max_series} (the volume endpoints),
     * and {@code otlp_config} (how OTLP attributes map onto labels and metadata).
     */
    public record Limits(double ingestionRateMb, double ingestionBurstSizeMb, long maxLineSizeBytes,
            int maxLabelNamesPerSeries, int maxLabelNameLength, int maxLabelValueLength, boolean rejectOldSamples,
            Duration rejectOldSamplesMaxAge, Duration creationGracePeriod, int maxGlobalStreamsPerUser,
            int maxNewSeriesPerHour, int maxNewSeriesPerDay, boolean unorderedWrites, int maxEntriesLimitPerQuery,
            int maxQuerySeries, Duration queryTimeout, long maxQueryBytesRead, List<String> discoverServiceName,
            boolean discoverLogLevels, List<String> logLevelFields, boolean volumeEnabled, int volumeMaxSeries,
            OtlpConfig otlpConfig) {
        public Limits {
            discoverServiceName = List.copyOf(discoverServiceName);
            logLevelFields = List.copyOf(logLevelFields);
            Objects.requireNonNull(otlpConfig, "otlpConfig is null");
            positive("limits.volume_max_series", volumeMaxSeries);
            if (!(ingestionRateMb > 0)) {
                throw new ConfigException("limits.ingestion_rate_mb must be > 0, got " + ingestionRateMb);
            }
            if (!(ingestionBurstSizeMb > 0)) {
                throw new ConfigException("limits.ingestion_burst_size_mb must be > 0, got " + ingestionBurstSizeMb);
            }
            positive("limits.max_line_size", maxLineSizeBytes);
            positive("limits.max_label_names_per_series", maxLabelNamesPerSeries);
            positive("limits.max_label_name_length", maxLabelNameLength);
            positive("limits.max_label_value_length", maxLabelValueLength);
            positive("limits.reject_old_samples_max_age", rejectOldSamplesMaxAge);
            notNegative("limits.creation_grace_period", creationGracePeriod);
            positive("limits.max_global_streams_per_user", maxGlobalStreamsPerUser);
            notNegative("limits.max_new_series_per_hour", maxNewSeriesPerHour);
            notNegative("limits.max_new_series_per_day", maxNewSeriesPerDay);
            positive("limits.max_entries_limit_per_query", maxEntriesLimitPerQuery);
            positive("limits.max_query_series", maxQuerySeries);
            positive("limits.query_timeout", queryTimeout);
            notNegative("limits.max_query_bytes_read", maxQueryBytesRead);
        }

        static Limits from(ConfigNode n) {
            Limits l = new Limits(n.decimal("ingestion_rate_mb", 4), n.decimal("ingestion_burst_size_mb", 6),
                    n.bytes("max_line_size", 256L << 10), n.integer("max_label_names_per_series", 15),
                    n.integer("max_label_name_length", 1024), n.integer("max_label_value_length", 2048),
                    n.bool("reject_old_samples", true),
                    n.duration("reject_old_samples_max_age", Duration.ofDays(7)),
                    n.duration("creation_grace_period", Duration.ofMinutes(10)),
                    n.integer("max_global_streams_per_user", 5000), n.integer("max_new_series_per_hour", 0),
                    n.integer("max_new_series_per_day", 0), n.bool("unordered_writes", true),
                    n.integer("max_entries_limit_per_query", 5000), n.integer("max_query_series", 500),
                    n.duration("query_timeout", Duration.ofMinutes(1)), n.bytes("max_query_bytes_read", 0),
                    n.strings("discover_service_name", PushEnrichmentConfig.DEFAULT_SERVICE_NAME_LABELS),
                    n.bool("discover_log_levels", true),
                    n.strings("log_level_fields", PushEnrichmentConfig.DEFAULT_LOG_LEVEL_FIELDS),
                    n.bool("volume_enabled", true), n.integer("volume_max_series", 1000),
                    otlp(n.section("otlp_config")));
            n.rejectUnknownKeys();
            return l;
        }

        /** The ingest-side enrichment settings of these limits. */
        public PushEnrichmentConfig enrichment() {
            return new PushEnrichmentConfig(discoverServiceName, discoverLogLevels, logLevelFields, otlpConfig);
        }

        private static OtlpConfig otlp(ConfigNode n) {
            ConfigNode resource = n.section("resource_attributes");
            boolean ignoreDefaults = resource.bool("ignore_defaults", false);
            List<OtlpConfig.Rule> resourceRules = rules(resource.sections("attributes_config"), true);
            resource.rejectUnknownKeys();
            List<OtlpConfig.Rule> scope = rules(n.sections("scope_attributes"), false);
            List<OtlpConfig.Rule> log = rules(n.sections("log_attributes"), false);
            boolean severityTextAsLabel = n.bool("severity_text_as_label", false);
            n.rejectUnknownKeys();
            return OtlpConfig.of(ignoreDefaults, resourceRules, scope, log, severityTextAsLabel);
        }

        private static List<OtlpConfig.Rule> rules(List<ConfigNode> nodes, boolean indexAllowed) {
            List<OtlpConfig.Rule> out = new ArrayList<>();
            for (ConfigNode r : nodes) {
                String actionText = r.string("action", "structured_metadata");
                OtlpConfig.Action action = switch (actionText) {
                    case "index_label" -> OtlpConfig.Action.INDEX_LABEL;
                    case "structured_metadata" -> OtlpConfig.Action.STRUCTURED_METADATA;
                    case "drop" -> OtlpConfig.Action.DROP;
                    default -> throw new ConfigException("config " + r.path()
                            + ".action: unsupported action '" + actionText
                            + "', it must be one of: drop, index_label, structured_metadata");
                };
                if (action == OtlpConfig.Action.INDEX_LABEL && !indexAllowed) {
                    throw new ConfigException("config " + r.path()
                            + ".action: index_label action is only supported for resource_attributes");
                }
                List<String> attributes = r.strings("attributes", List.of());
                String regex = r.string("regex", "");
                r.rejectUnknownKeys();
                if (attributes.isEmpty() == regex.isEmpty()) {
                    throw new ConfigException("config " + r.path() + ": exactly one of attributes or regex must be set");
                }
                Pattern pattern;
                try {
                    pattern = regex.isEmpty() ? null : Pattern.compile(regex);
                } catch (PatternSyntaxException e) {
                    throw new ConfigException("config " + r.path() + ".regex: invalid regex: " + e.getDescription(), e);
                }
                out.add(new OtlpConfig.Rule(action, attributes, pattern));
            }
            return out;
        }
    }

    /**
     * {@code pattern_ingester:} Drain pattern mining on the push path for Grafana Logs Drilldown's patterns
     * tab (on by default here, unlike Loki, since it runs in-process).
     *
     * @param enabled     whether pushes are mined and {@code /loki/api/v1/patterns} answers
     * @param retainFor   how long patterns are kept (Loki's {@code retain_for}, 3h)
     * @param maxClusters most patterns per stream and level (Loki's Drain default 300)
     */
    public record PatternIngester(boolean enabled, Duration retainFor, int maxClusters) {
        public PatternIngester {
            positive("pattern_ingester.retain_for", retainFor);
            positive("pattern_ingester.max_clusters", maxClusters);
        }

        static PatternIngester from(ConfigNode n) {
            PatternIngester p = new PatternIngester(n.bool("enabled", false), n.duration("retain_for", Duration.ofHours(3)),
                    n.integer("max_clusters", 300));
            n.rejectUnknownKeys();
            return p;
        }
    }

    /** {@code bloom:} the series blooms written at flush (Loki/Valkey sizing knobs, word tokens on and n-gram mode off by default). */
    public record Bloom(boolean enabled, double errorRate, int expansion, double tightening,
            long maxSizePerSeriesBytes, int ngramLength, int ngramSkip, boolean ngramEnabled,
            boolean wordTokensEnabled) {
        public Bloom {
            if (!(errorRate > 0 && errorRate < 1)) {
                throw new ConfigException("bloom.error_rate must be in (0, 1), got " + errorRate);
            }
            if (expansion < 1) {
                throw new ConfigException("bloom.expansion must be >= 1, got " + expansion);
            }
            if (!(tightening > 0 && tightening < 1)) {
                throw new ConfigException("bloom.tightening must be in (0, 1), got " + tightening);
            }
            positive("bloom.max_size_per_series", maxSizePerSeriesBytes);
            positive("bloom.ngram_length", ngramLength);
            notNegative("bloom.ngram_skip", ngramSkip);
        }

        static Bloom from(ConfigNode n) {
            Bloom b = new Bloom(n.bool("enabled", true), n.decimal("error_rate", io.logbloom.ingest.IngestConfig.DEFAULT_BLOOM_ERROR_RATE), n.integer("expansion", 2),
                    n.decimal("tightening", 0.5), n.bytes("max_size_per_series", 64L << 20),
                    n.integer("ngram_length", 4), n.integer("ngram_skip", 0), n.bool("ngram_enabled", false),
                    n.bool("word_tokens_enabled", true));
            n.rejectUnknownKeys();
            return b;
        }
    }

    /** The role of a process ({@code target:} / {@code --target}), as Loki's targets. */
    public enum Target {
        /** Everything in one process, no Kafka (the default). */
        ALL,
        /** Push routes: validate, limit, write to Kafka. */
        DISTRIBUTOR,
        /** Consume Kafka partitions, build and upload objects, serve unflushed data to queriers. */
        INGESTER,
        /** Query routes over the bucket and the ingesters' unflushed data; compactor and delete API. */
        QUERIER,
        /** Compactor loop (retention, compaction, deletes) and the delete API over the bucket, no Kafka. */
        COMPACTOR;

        static Target parse(String key, String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(key + ": unknown target '" + text
                        + "' (expected all, distributor, ingester, querier or compactor)");
            }
        }

        /** The lower-case name used in config, flags and announcements. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code target:} and {@code kafka:}: which role this process plays and, for the scale-out roles,
     * the Kafka write path (see {@link ClusterConfig} for each key).
     */
    public record Cluster(Target target, ClusterConfig kafka) {
        public Cluster {
            Objects.requireNonNull(target, "target is null");
            Objects.requireNonNull(kafka, "kafka is null");
        }

        /** {@code target: all} with Kafka's defaults (unused). */
        public static Cluster single() {
            return new Cluster(Target.ALL, ClusterConfig.defaults());
        }

        /** Whether this role needs Kafka. */
        public boolean usesKafka() {
            return target != Target.ALL && target != Target.COMPACTOR;
        }

        void validate() {
            if (usesKafka() && kafka.bootstrapServers().isBlank()) {
                throw new ConfigException("kafka.bootstrap_servers must be set for target " + target.label());
            }
        }

        static Cluster from(String target, ConfigNode n) {
            ClusterConfig d = ClusterConfig.defaults();
            ClusterConfig k;
            try {
                long maxRecord = n.bytes("max_record_size", d.maxRecordBytes());
                k = new ClusterConfig(n.string("bootstrap_servers", d.bootstrapServers()), n.string("topic", d.topic()),
                        n.integer("partitions", d.partitions()),
                        (short) n.integer("replication_factor", d.replicationFactor()),
                        n.string("members_topic", d.membersTopic()), n.string("consumer_group", d.consumerGroup()),
                        (int) Math.min(Integer.MAX_VALUE, maxRecord),
                        n.duration("commit_interval", d.commitInterval()),
                        n.duration("produce_timeout", d.produceTimeout()),
                        n.duration("announce_interval", d.announceInterval()),
                        n.duration("session_timeout", d.sessionTimeout()),
                        n.string("advertise_address", d.advertiseAddress()),
                        n.integer("distributors", d.distributors()),
                        n.string("read_consistency", d.readConsistency()));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
            n.rejectUnknownKeys();
            Cluster c = new Cluster(Target.parse("target", target), k);
            c.validate();
            return c;
        }

        String yaml() {
            return "target: " + target.label() + "\n"
                    + "kafka:\n"
                    + "  bootstrap_servers: " + quote(kafka.bootstrapServers()) + "\n"
                    + "  topic: " + quote(kafka.topic()) + "\n"
                    + "  partitions: " + kafka.partitions() + "\n"
                    + "  replication_factor: " + kafka.replicationFactor() + "\n"
                    + "  members_topic: " + quote(kafka.membersTopic()) + "\n"
                    + "  consumer_group: " + quote(kafka.consumerGroup()) + "\n"
                    + "  max_record_size: " + kafka.maxRecordBytes() + "\n"
                    + "  commit_interval: " + ConfigNode.formatDuration(kafka.commitInterval()) + "\n"
                    + "  produce_timeout: " + ConfigNode.formatDuration(kafka.produceTimeout()) + "\n"
                    + "  announce_interval: " + ConfigNode.formatDuration(kafka.announceInterval()) + "\n"
                    + "  session_timeout: " + ConfigNode.formatDuration(kafka.sessionTimeout()) + "\n"
                    + "  advertise_address: " + quote(kafka.advertiseAddress()) + "\n"
                    + "  distributors: " + kafka.distributors() + "\n"
                    + "  read_consistency: " + kafka.readConsistency() + "\n";
        }
    }

    /**
     * {@code querier:} bloom use, fetch parallelism, cache sizes of the read path, and how many queries run at
     * once ({@code max_concurrent}, Loki's name; the time a query waits for a slot is its stats' queueTime).
     * A cache size is bytes (0 = no cache) or {@code auto} (the default, {@link HeapShares#AUTO} here): a share
     * of the maximum heap, resolved by {@link ConfigMapping}.
     */
    public record Querier(boolean bloomsEnabled, int maxConcurrentFetches, long chunkCacheSizeBytes,
            long bloomCacheSizeBytes, int maxConcurrent, long resultsCacheSizeBytes,
            java.time.Duration splitQueriesByInterval, java.time.Duration maxCacheFreshness, long indexCacheSizeBytes,
            java.time.Duration indexListingTtl) {
        /**
         * How long targets {@code all} and {@code querier} keep their listings of index files (see "Bloom skipping" in
         * README); a cluster querier keeps them only while ingesters remember their uploads that far back
         * ({@code RecentIndexFiles.KEPT}, less a minute for clocks apart).
         */
        public static final java.time.Duration DEFAULT_INDEX_LISTING_TTL = java.time.Duration.ofMinutes(1);

        public Querier {
            positive("querier.max_concurrent_fetches", maxConcurrentFetches);
            positive("querier.max_concurrent", maxConcurrent);
            cacheSize("querier.chunk_cache_size", chunkCacheSizeBytes);
            cacheSize("querier.bloom_cache_size", bloomCacheSizeBytes);
            cacheSize("querier.results_cache_size", resultsCacheSizeBytes);
            cacheSize("querier.index_cache_size", indexCacheSizeBytes);
            positive("querier.split_queries_by_interval", splitQueriesByInterval.toNanos());
            notNegative("querier.max_cache_freshness", maxCacheFreshness.toNanos());
            notNegative("querier.index_listing_ttl", indexListingTtl);
        }

        static Querier from(ConfigNode n) {
            io.logbloom.querier.ResultsCacheConfig d = io.logbloom.querier.ResultsCacheConfig.defaults();
            Querier q = new Querier(n.bool("blooms_enabled", true), n.integer("max_concurrent_fetches", 8),
                    n.bytesOrAuto("chunk_cache_size", HeapShares.AUTO), n.bytesOrAuto("bloom_cache_size", HeapShares.AUTO),
                    // a single process serves every query: a higher bound than a Loki querier's 4 workers
                    n.integer("max_concurrent", 32), n.bytesOrAuto("results_cache_size", HeapShares.AUTO),
                    n.duration("split_queries_by_interval", d.splitInterval()),
                    n.duration("max_cache_freshness", d.maxFreshness()),
                    n.bytesOrAuto("index_cache_size", HeapShares.AUTO),
                    n.duration("index_listing_ttl", DEFAULT_INDEX_LISTING_TTL));
            n.rejectUnknownKeys();
            return q;
        }

        private static void cacheSize(String key, long bytes) {
            if (bytes < 0 && bytes != HeapShares.AUTO) {
                throw new ConfigException(key + " must be >= 0 or auto, got " + bytes);
            }
        }
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new ConfigException(key + " must be > 0, got " + value);
        }
    }

    private static void notNegative(String key, long value) {
        if (value < 0) {
            throw new ConfigException(key + " must be >= 0, got " + value);
        }
    }

    private static void positive(String key, Duration value) {
        Objects.requireNonNull(value, key + " is null");
        if (value.isZero() || value.isNegative()) {
            throw new ConfigException(key + " must be > 0, got " + value);
        }
    }

    private static void notNegative(String key, Duration value) {
        Objects.requireNonNull(value, key + " is null");
        if (value.isNegative()) {
            throw new ConfigException(key + " must be >= 0, got " + value);
        }
    }
}
