package io.logbloom.api;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexListingCachingStore;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.RecentIndexFiles;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.OtlpMapper;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushEnricher;
import io.logbloom.ingest.PushEnrichmentConfig;
import io.logbloom.ingest.PushListener;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.kafka.ClusterConfig;
import io.logbloom.kafka.KafkaMetrics;
import io.logbloom.kafka.KafkaPartitionOffsets;
import io.logbloom.kafka.KafkaTailFeed;
import io.logbloom.kafka.KafkaUnavailableException;
import io.logbloom.kafka.MemberAnnouncer;
import io.logbloom.kafka.MemberDirectory;
import io.logbloom.kafka.PartitionConsumer;
import io.logbloom.kafka.PartitionSink;
import io.logbloom.kafka.PushProducer;
import io.logbloom.kafka.RemoteUnflushedSource;
import io.logbloom.kafka.TopicSetup;
import io.logbloom.kafka.UnflushedEndpoint;
import io.logbloom.patterns.DrainConfig;
import io.logbloom.patterns.PatternMiner;
import io.logbloom.querier.Querier;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one bootstrap class: builds the object store (filesystem or S3), the Prometheus registry,
 * the {@link Ingester} and the Javalin app with every route, and owns their lifecycle.
 *
 * <p>{@link #start()} binds the port first, so {@code /ready} (503) and {@code /metrics} answer while
 * the ingester replays its WAL; routes that need the ingester answer 503 until then. {@link #close()}
 * is the graceful shutdown (SIGTERM through {@link Main}'s hook): stop taking requests, then close the
 * ingester (which flushes, or leaves what it cannot flush in the WAL), then the store.
 *
 * <p><b>Roles</b> ({@code target:}, {@code --target}): {@code all} wires everything in one process;
 * {@code distributor} serves the push routes into Kafka ({@link DistributorPushTarget});
 * {@code ingester} builds the ingester, consumes its Kafka partitions ({@link PartitionConsumer}),
 * announces itself ({@link MemberAnnouncer}) and serves its unflushed data on
 * {@code POST /internal/unflushed}; {@code querier} serves the query routes, the compactor and the
 * delete API over the bucket and the announced ingesters ({@link RemoteUnflushedSource}); {@code compactor}
 * runs only the compactor loop and the delete API over the bucket (no Kafka). Every role
 * serves {@code /ready}, {@code /metrics}, {@code /config} and build info.
 *
 * <p>Thread-safe: the ingester and role references are volatile and set once by {@code start()};
 * {@code start} and {@code close} synchronize on this object.
 */
public final class LogbloomServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogbloomServer.class);
    /** Metric route label of requests that matched no route (keeps label cardinality bounded). */
    private static final String NO_ROUTE = "other";

    private final LogbloomConfig config;
    private final Clock clock;
    private final PrometheusRegistry registry;
    private final ObjectStore store;
    private final ApiMetrics metrics;
    private final BuildInfo buildInfo;
    private final Javalin app;
    private final LogbloomConfig.Target target;
    /** Query routes ({@code all} and {@code querier}), else null. */
    private final QueryRoutes queryRoutes;
    /** Live tailing ({@code all} and {@code querier}), else null. */
    private final TailRoute tailRoute;
    private final PushRoute pushRoute;
    /** Kafka metrics of the scale-out roles, else null. */
    private final KafkaMetrics kafkaMetrics;
    /** The distributor's push target, else null. */
    private final DistributorPushTarget distributor;
    /** The querier role's view of the announced ingesters (set by {@code start()}), else null. */
    private volatile MemberDirectory members;
    /** The querier role's live-tail reader of the push topic, else null. */
    private final KafkaTailFeed tailFeed;
    /** The querier role's reader of produced and committed offsets (strong read consistency), else null. */
    private final KafkaPartitionOffsets partitionOffsets;
    /** The ingester role's partition consumer and announcer (set by {@code start()}), else null. */
    private volatile PartitionConsumer consumer;
    private volatile MemberAnnouncer announcer;
    /** Drain pattern miner fed by accepted pushes; null when the pattern ingester is disabled. */
    private final PatternMiner miner;
    /** Compactor loop, retention and the delete API. */
    private final Operations operations;
    private volatile Ingester ingester;
    /** Told of each series bloom the ingester writes: the querier's bloom cache in target all. */
    private final SeriesBloomStore.Stored bloomsStored;
    /** The querier target's index of the store (null in other targets: the ingester owns its own). */
    private final PersistedIndex querierIndex;
    private boolean started;
    private boolean closed;

    /** Builds the store and the app (nothing listens and no WAL is read until {@link #start()}). */
    public LogbloomServer(LogbloomConfig config, Clock clock) {
        this(config, clock, UnaryOperator.identity());
    }

    /**
     * As {@link #LogbloomServer(LogbloomConfig, Clock)}, with the configured object store wrapped by
     * {@code storeDecorator} (the seam for fault injection: latency, failures, damaged objects).
     */
    public LogbloomServer(LogbloomConfig config, Clock clock, UnaryOperator<ObjectStore> storeDecorator) {
        this(config, clock, Objects.requireNonNull(storeDecorator.apply(ConfigMapping.objectStore(config.storage())),
                "decorated store is null"));
    }

    /** Builds the app over a given object store (closed by {@link #close()}), e.g. a test's fault-injecting one. */
    public LogbloomServer(LogbloomConfig config, Clock clock, ObjectStore store) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.registry = new PrometheusRegistry();
        ObjectStore measured = new MeasuredObjectStore(Objects.requireNonNull(store, "store is null"), registry);
        IndexListingCachingStore listings = listingCache(config, measured, registry);
        this.store = listings != null ? listings : measured;
        this.metrics = new ApiMetrics(registry);
        this.buildInfo = BuildInfo.load();
        this.app = Javalin.create(javalin -> {
            javalin.showJavalinBanner = false;
            javalin.http.prefer405over404 = true;
            javalin.http.maxRequestSize = config.server().maxRecvMsgSizeBytes();
            javalin.requestLogger.http((ctx, ms) -> metrics.request(route(ctx), ctx.statusCode(), ms / 1000.0));
            javalin.jetty.addConnector((server, http) -> listener(server, http, config.server()));
        });
        this.target = config.cluster().target();
        ClusterConfig kafka = config.cluster().kafka();
        this.kafkaMetrics = config.cluster().usesKafka() ? new KafkaMetrics(registry) : null;
        boolean queries = target == LogbloomConfig.Target.ALL || target == LogbloomConfig.Target.QUERIER;
        // a cluster querier's kept listings show the ingesters' new index files to queries only (they hear of them
        // with the unflushed rows), so its compactor reads the bucket itself, and the listings take the compactor's
        // writes as another process's: a read missing a replaced file lists again, a processed delete drops a tenant's
        ObjectStore compactorStore = target == LogbloomConfig.Target.QUERIER ? measured : this.store;
        this.operations = queries || target == LogbloomConfig.Target.COMPACTOR
                ? new Operations(config, compactorStore, clock, registry,
                        listings != null ? listings::forgetTenant : tenant -> { }) : null;
        if (target == LogbloomConfig.Target.QUERIER) {
            IngestConfig layout = ConfigMapping.ingestConfig(config);
            this.bloomsStored = SeriesBloomStore.Stored.NONE;
            PersistedIndex index = new PersistedIndex(this.store, layout.index(),
                    new IndexFileCache(this.store, layout.index()));
            this.querierIndex = index;
            this.partitionOffsets = kafka.strongReads() ? new KafkaPartitionOffsets(kafka) : null;
            RemoteUnflushedSource remote = listings != null
                    ? new RemoteUnflushedSource(this::liveIngesters, config.limits().queryTimeout(), partitionOffsets,
                            kafkaMetrics, listings, clock)
                    : new RemoteUnflushedSource(this::liveIngesters, config.limits().queryTimeout(), partitionOffsets,
                            kafkaMetrics);
            this.queryRoutes = new QueryRoutes(config, Querier.overStore(ConfigMapping.querierConfig(config),
                    this.store, index, remote, clock, registry), clock, operations.sourceFilter());
        } else {
            this.querierIndex = null;
            this.partitionOffsets = null;
            Querier querier = queries ? Querier.overIngester(ConfigMapping.querierConfig(config), this.store,
                    this::ingester, clock, registry) : null;
            // the blooms a merge writes go to the querier's cache as written: the next query need not read them back
            this.bloomsStored = querier != null ? querier::bloomStored : SeriesBloomStore.Stored.NONE;
            this.queryRoutes = queries ? new QueryRoutes(config, querier, clock, operations.sourceFilter()) : null;
        }
        if (target == LogbloomConfig.Target.QUERIER) {
            KafkaTailFeed feed = new KafkaTailFeed(kafka);
            this.tailFeed = feed;
            this.tailRoute = new TailRoute(queryRoutes, new TailRoute.TailSource() {
                @Override
                public void addTailListener(io.logbloom.ingest.TailListener listener) {
                    feed.addTailListener(listener);
                }

                @Override
                public void removeTailListener(io.logbloom.ingest.TailListener listener) {
                    feed.removeTailListener(listener);
                }
            }, config, clock);
        } else {
            this.tailFeed = null;
            this.tailRoute = queries ? new TailRoute(queryRoutes, this::ingester, config, clock) : null;
        }
        if (target == LogbloomConfig.Target.DISTRIBUTOR) {
            IngestConfig ingest = ConfigMapping.ingestConfig(config);
            this.distributor = new DistributorPushTarget(ingest.limits(), ingest.flush().maxChunkAge(), kafka,
                    new PushProducer(kafka, kafkaMetrics), clock, registry);
        } else {
            this.distributor = null;
        }
        this.miner = config.patternIngester().enabled() ? new PatternMiner(new DrainConfig(
                DrainConfig.defaults().logClusterDepth(), DrainConfig.defaults().similarityThreshold(),
                DrainConfig.defaults().maxChildren(), config.patternIngester().maxClusters(),
                DrainConfig.defaults().minTokens(), DrainConfig.defaults().maxTokens(),
                DrainConfig.defaults().maxLineLength()), config.patternIngester().retainFor().toMillis()) : null;
        PushListener listener = miner == null ? (tenant, streams) -> { } : new PatternFeed(miner, clock);
        this.pushRoute = new PushRoute(new TenantResolver(config.authEnabled()),
                new RequestBodies(config.server().maxRecvMsgSizeBytes()),
                new PushDecoder(config.server().maxRecvMsgSizeBytes()), this::pushTarget,
                new PushEnricher(config.limits().enrichment()), listener);
        registerRoutes();
    }

    /**
     * {@code store} keeping its index listings for {@code querier.index_listing_ttl} where queries run: target
     * {@code all}, which writes every index file its queries need, and a cluster {@code querier}, which hears from the
     * ingesters which files they wrote lately ({@link RemoteUnflushedSource}); else null. Exports the listings
     * answered from memory and sent to the store.
     */
    private static IndexListingCachingStore listingCache(LogbloomConfig config, ObjectStore store,
            PrometheusRegistry registry) {
        Duration ttl = config.querier().indexListingTtl();
        LogbloomConfig.Target target = config.cluster().target();
        if (target != LogbloomConfig.Target.ALL && target != LogbloomConfig.Target.QUERIER || ttl.isZero()) {
            return null;
        }
        if (target == LogbloomConfig.Target.QUERIER
                && ttl.plus(RemoteUnflushedSource.CLOCK_MARGIN).compareTo(RecentIndexFiles.KEPT) >= 0) {
            Duration longest = RecentIndexFiles.KEPT.minus(RemoteUnflushedSource.CLOCK_MARGIN).minusSeconds(1);
            LOG.warn("querier.index_listing_ttl {} is too long for a cluster: ingesters name their uploads of the last {}"
                    + " only, so this querier lists the index at every query; use {} or less", ttl,
                    RecentIndexFiles.KEPT, longest);
        }
        IndexListingCachingStore cached = new IndexListingCachingStore(store, ttl, System::nanoTime);
        CounterWithCallback.builder().name("logbloom_index_listing_cache_requests_total")
                .help("Listings of index files by outcome: hit (answered from memory, querier.index_listing_ttl) or"
                        + " miss (sent to the object store)")
                .labelNames("outcome")
                .callback(cb -> {
                    cb.call(cached.hits(), "hit");
                    cb.call(cached.misses(), "miss");
                })
                .register(registry);
        return cached;
    }

    private void registerRoutes() {
        boolean all = target == LogbloomConfig.Target.ALL;
        if (all || target == LogbloomConfig.Target.DISTRIBUTOR) {
            app.post("/loki/api/v1/push", pushRoute::handle);
            app.post("/api/prom/push", pushRoute::handle);
            PushEnrichmentConfig enrichment = config.limits().enrichment();
            OtlpRoute otlp = new OtlpRoute(new TenantResolver(config.authEnabled()),
                    new RequestBodies(config.server().maxRecvMsgSizeBytes()), this::pushTarget, pushRoute,
                    new OtlpMapper(enrichment.otlp(), !enrichment.discoverServiceName().isEmpty()), clock);
            app.post("/otlp/v1/logs", otlp::handle);
        }
        app.get("/ready", this::ready);
        app.get("/metrics", this::metrics);
        app.get("/loki/api/v1/status/buildinfo", ctx -> ctx.json(buildInfo));
        app.get("/config", ctx -> ctx.contentType("text/plain; charset=utf-8").result(config.toYaml()));
        if (all || target == LogbloomConfig.Target.INGESTER) {
            app.addHttpHandler(HandlerType.POST, "/flush", this::flush);
            app.addHttpHandler(HandlerType.GET, "/flush", this::flush);
        }
        if (target == LogbloomConfig.Target.INGESTER) {
            UnflushedEndpoint unflushed = new UnflushedEndpoint(
                    (tenant, matchers, from, through) -> ingester().unflushed(tenant, matchers, from, through),
                    this::consumedOffsets, (tenant, since) -> ingester().recentIndexFiles().since(tenant, since),
                    () -> {
                        // the consumer's rebalances and the log the files come from: either changing tells queriers
                        PartitionConsumer current = consumer;
                        return current == null ? null
                                : current.incarnation() + "." + ingester().recentIndexFiles().id();
                    });
            app.post(RemoteUnflushedSource.PATH, ctx -> {
                if (consumer == null) {
                    // starting: a strong read retries within its budget, unlike an ingester behind on its partitions
                    ctx.status(503).header(UnflushedEndpoint.STARTING_HEADER, "true")
                            .contentType("text/plain; charset=utf-8").result(NOT_CONSUMING_YET + "\n");
                    return;
                }
                UnflushedEndpoint.Answer answer = unflushed.answer(ctx.bodyAsBytes(),
                        ctx.header(UnflushedEndpoint.INDEX_FILES_SINCE_HEADER));
                if (answer.incarnation() != null) {
                    ctx.header(UnflushedEndpoint.INCARNATION_HEADER, answer.incarnation());
                }
                if (answer.indexFilesAt() >= 0) {
                    ctx.header(UnflushedEndpoint.INDEX_FILES_AT_HEADER, String.valueOf(answer.indexFilesAt()));
                }
                ctx.header(UnflushedEndpoint.PARTITIONS_HEADER, answer.partitionsHeader())
                        .contentType("application/octet-stream").result(answer.body());
            });
        }
        if (queryRoutes != null) {
            new DrilldownRoutes(config, miner, buildInfo.version(), clock).register(app);
            queryRoutes.register(app);
            tailRoute.register(app);
            operations.register(app);
        } else if (target == LogbloomConfig.Target.COMPACTOR) {
            operations.register(app);
        }
        app.exception(Exception.class, (e, ctx) -> {
            HttpErrors.Classified c = HttpErrors.classify(e);
            // known failures (timeouts, WAL refusals) are logged where they happen, a failed ingester once by itself
            if (c.reason().equals("internal")) {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
            }
            metrics.error(route(ctx), c.reason());
            String message = c.status() == 404 && route(ctx).equals(NO_ROUTE) ? notFound(ctx) : c.message();
            ctx.status(c.status()).contentType("text/plain; charset=utf-8").result(message + "\n");
        });
        app.error(404, ctx -> {
            if (route(ctx).equals(NO_ROUTE)) {
                ctx.contentType("text/plain; charset=utf-8").result(notFound(ctx) + "\n");
            }
        });
    }

    private static String notFound(Context ctx) {
        return "404 page not found: no route for " + ctx.method() + " " + ctx.path();
    }

    /**
     * Bytes Jetty reads from a connection at a time. Its default of 8 KiB took a shipper's push body (about 90 KB for
     * 1000 snappy-compressed lines) in a dozen reads, each a system call and a pass through Jetty's content hand-off;
     * 64 KiB takes it in two. Jetty takes the buffer from its pool while a request's bytes arrive and returns it once
     * they are consumed, so an idle connection holds none.
     */
    static final int INPUT_BUFFER_BYTES = 64 << 10;

    /** The HTTP listener on {@code server.http_listen_address} and {@code server.http_listen_port}. */
    private static ServerConnector listener(Server server, HttpConfiguration http, LogbloomConfig.Server settings) {
        HttpConnectionFactory connections = new HttpConnectionFactory(http);
        connections.setInputBufferSize(INPUT_BUFFER_BYTES);
        ServerConnector connector = new ServerConnector(server, connections);
        connector.setHost(settings.httpListenAddress());
        connector.setPort(settings.httpListenPort());
        return connector;
    }

    /** Binds the port, replays the WAL by building the ingester, and returns the bound port. */
    public synchronized int start() {
        if (started) {
            throw new IllegalStateException("server already started");
        }
        started = true;
        app.start();
        if (target == LogbloomConfig.Target.ALL || target == LogbloomConfig.Target.INGESTER) {
            boolean replayed = false;
            try {
                ingester = new Ingester(ConfigMapping.ingestConfig(config), store, clock, registry, bloomsStored);
                replayed = true;
            } catch (IOException e) {
                // a file-system exception's message is only the path: its type says what went wrong with it
                String reason = e instanceof java.nio.file.FileSystemException ? e.toString() : e.getMessage();
                throw new UncheckedIOException("cannot start the ingester (WAL " + config.walDirectory() + "): "
                        + reason, e);
            } finally {
                if (!replayed) {
                    app.stop();
                }
            }
        }
        if (config.cluster().usesKafka()) {
            startClusterRole(config.cluster().kafka());
        }
        if (operations != null) {
            operations.start();
        }
        LOG.info("logbloom listening on {}:{}", config.server().httpListenAddress(), app.port());
        return app.port();
    }

    /**
     * Creates the topics when missing, then: the ingester joins the consumer group and announces
     * itself, the querier starts reading announcements. A distributor starts even while Kafka is
     * unreachable (its pushes answer 503 until Kafka is back).
     */
    private void startClusterRole(ClusterConfig kafka) {
        try {
            TopicSetup.ensure(kafka, target == LogbloomConfig.Target.DISTRIBUTOR ? Duration.ofSeconds(5)
                    : Duration.ofSeconds(60));
        } catch (KafkaUnavailableException e) {
            if (target != LogbloomConfig.Target.DISTRIBUTOR) {
                app.stop();
                throw new IllegalStateException(e.getMessage(), e);
            }
            LOG.warn("{}; pushes answer 503 until Kafka is reachable", e.getMessage());
        }
        if (target == LogbloomConfig.Target.QUERIER) {
            members = new MemberDirectory(kafka, clock);
        } else if (target == LogbloomConfig.Target.INGESTER) {
            String address = advertisedAddress(kafka);
            String id = "ingester-" + address + "-" + Long.toHexString(System.nanoTime() ^ System.identityHashCode(this));
            MemberAnnouncer a = new MemberAnnouncer(kafka, clock, id, target.label(), address);
            announcer = a;
            Ingester local = ingester;
            consumer = new PartitionConsumer(kafka, new PartitionSink() {
                @Override
                public PushResult pushAdmitted(String tenant, List<PushStream> streams) throws IOException {
                    return local.pushAdmitted(tenant, streams);
                }

                @Override
                public void flushAll() throws IOException {
                    local.flushAll();
                }
            }, a::partitions, clock, kafkaMetrics);
        }
    }

    /** {@code host:port} queriers reach this process at: {@code kafka.advertise_address}, or the listen address and port. */
    private static final String NOT_CONSUMING_YET = "Ingester not ready: not consuming Kafka yet";

    private String advertisedAddress(ClusterConfig kafka) {
        if (!kafka.advertiseAddress().isBlank()) {
            return kafka.advertiseAddress();
        }
        String host = config.server().httpListenAddress();
        if (host.equals("0.0.0.0") || host.equals("::")) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException("cannot name this host for kafka.advertise_address: " + e.getMessage(), e);
            }
        }
        return host + ":" + app.port();
    }

    /** Bytes the HTTP listener reads from a connection at a time ({@link #INPUT_BUFFER_BYTES}). */
    int inputBufferBytes() {
        ServerConnector listener = (ServerConnector) app.jettyServer().server().getConnectors()[0];
        return listener.getConnectionFactory(HttpConnectionFactory.class).getInputBufferSize();
    }

    /** The ingester role's consumer progress; 503 until it joined the group. */
    private io.logbloom.kafka.ConsumedOffsets consumedOffsets() {
        PartitionConsumer current = consumer;
        if (current == null) {
            throw new HttpException(503, "not_ready", NOT_CONSUMING_YET);
        }
        return current;
    }

    /** Ingesters the querier role currently sees announced (empty in other roles). */
    List<io.logbloom.kafka.Announcement> liveIngesters() {
        MemberDirectory current = members;
        return current == null ? List.of() : current.live(LogbloomConfig.Target.INGESTER.label());
    }

    private PushTarget pushTarget() {
        if (distributor != null) {
            return distributor;
        }
        return ingester()::push;
    }

    /** The bound port (valid after {@link #start()}). */
    public int port() {
        return app.port();
    }

    /** The effective configuration. */
    public LogbloomConfig config() {
        return config;
    }

    /** The clock everything is timed with. */
    public Clock clock() {
        return clock;
    }

    /** The registry {@code /metrics} exposes. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** The object store holding chunks, index files and blooms. */
    public ObjectStore objectStore() {
        return store;
    }

    /**
     * The ingester; throws a 503 {@link HttpException} until {@link #start()} has replayed the WAL, and
     * a 404 in the roles without one.
     */
    public Ingester ingester() {
        Ingester current = ingester;
        if (current == null && !hasIngester()) {
            throw new HttpException(404, "wrong_target", "not served by target " + target.label()
                    + ": this route needs the ingester's in-process data (target all)");
        }
        if (current == null) {
            throw new HttpException(503, "not_ready", "Ingester not ready: replaying the write-ahead log");
        }
        return current;
    }

    /** The compactor, retention and delete API wiring (a test runs compaction passes through it). */
    Operations operations() {
        return operations;
    }

    /** The push route behind {@code /loki/api/v1/push}, for driving it without HTTP framing. */
    PushRoute pushRoute() {
        return pushRoute;
    }

    /** The Javalin app, for registering further routes before {@link #start()}. */
    public Javalin app() {
        return app;
    }

    /** Whether this role builds an ingester (all and ingester). */
    private boolean hasIngester() {
        return target == LogbloomConfig.Target.ALL || target == LogbloomConfig.Target.INGESTER;
    }

    private void ready(Context ctx) {
        if (!hasIngester()) {
            if (!started || closed) {
                ctx.status(503).result("not ready: " + (closed ? "shutting down" : "starting") + "\n");
            } else {
                ctx.result("ready\n");
            }
            return;
        }
        Ingester current = ingester;
        if (current == null || closed) {
            ctx.status(503).result("Ingester not ready: " + (closed ? "shutting down" : "replaying the write-ahead log")
                    + "\n");
            return;
        }
        java.util.Optional<String> failure = current.failure();
        if (failure.isPresent()) {
            ctx.status(503).result("Ingester not ready: " + failure.get() + "\n");
        } else {
            ctx.result("ready\n");
        }
    }

    private void metrics(Context ctx) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        new PrometheusTextFormatWriter(false).write(out, registry.scrape());
        ctx.contentType(PrometheusTextFormatWriter.CONTENT_TYPE).result(out.toByteArray());
    }

    private void flush(Context ctx) throws IOException {
        ingester().flushAll();
        ctx.status(204);
    }

    private static String route(Context ctx) {
        try {
            String path = ctx.endpointHandlerPath();
            return path == null || path.isEmpty() ? NO_ROUTE : path;
        } catch (RuntimeException noEndpoint) {
            return NO_ROUTE;
        }
    }

    /** Graceful shutdown: stop serving, close the ingester (flush or keep in WAL), close the store. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // the consumer flushes and commits what it consumed, then leaves the group: its partitions move at once
        if (consumer != null) {
            consumer.close();
        }
        if (announcer != null) {
            announcer.close();
        }
        app.stop();
        if (tailRoute != null) {
            tailRoute.close();
            queryRoutes.close();
            operations.close();
        }
        if (querierIndex != null) {
            querierIndex.close();
        }
        if (members != null) {
            members.close();
        }
        if (partitionOffsets != null) {
            partitionOffsets.close();
        }
        if (tailFeed != null) {
            tailFeed.close();
        }
        if (distributor != null) {
            distributor.close();
        }
        Ingester current = ingester;
        RuntimeException failure = null;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                failure = new UncheckedIOException("cannot close the ingester cleanly (its WAL keeps what was not flushed)",
                        e);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        try {
            store.close();
        } catch (IOException e) {
            UncheckedIOException wrapped = new UncheckedIOException("cannot close the object store", e);
            if (failure != null) {
                failure.addSuppressed(wrapped);
            } else {
                failure = wrapped;
            }
        }
        if (failure != null) {
            throw failure;
        }
        LOG.info("logbloom stopped");
    }
}
