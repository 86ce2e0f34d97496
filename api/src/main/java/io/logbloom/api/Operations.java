package io.logbloom.api;

import io.javalin.Javalin;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.compactor.Compactor;
import io.logbloom.compactor.CompactorLease;
import io.logbloom.compactor.CompactorMetrics;
import io.logbloom.compactor.DeleteRequestStore;
import io.logbloom.compactor.QueryTimeFilter;
import io.logbloom.compactor.RetentionPolicy;
import io.logbloom.index.IndexCompactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexWriter;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.SeriesBloomStore;
import io.logbloom.ingest.SeriesBloomWriter;
import io.logbloom.querier.QuerySourceFilter;
import io.logbloom.tokens.BloomTokenizer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations side of the server, wired from {@link OperationsConfig}: the compactor loop (index
 * compaction, retention and the rewrites of {@code filter-and-delete}), the delete request store with Loki's delete API, and the query-time filter
 * that hides deleted and expired lines from every query. Owns the compactor's thread and the thread
 * reloading delete requests. Thread-safe: start and close synchronize on this object.
 */
final class Operations implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Operations.class);
    /**
     * How long a pass may hold the compactor lease: far longer than a pass over a single node's index,
     * short enough that a crashed holder blocks compaction for one hour at most.
     */
    static final Duration LEASE_TTL = Duration.ofHours(1);
    /** How stale another process' delete requests may be in this process' queries. */
    static final Duration DELETE_REQUESTS_REFRESH = Duration.ofSeconds(10);
    /**
     * Memory for the series blooms of the objects the compactor writes: a pass touches each series' bloom
     * once per object and stores it right after, so a fraction of the ingester's bound suffices.
     */
    static final long COMPACTOR_BLOOM_MEMORY_BYTES = 64L << 20;

    private final Compactor compactor;
    private final DeleteRequestStore deletes;
    private final QueryTimeFilter filter;
    private final DeleteRoutes routes;
    private ScheduledExecutorService refresher;

    /**
     * The compactor loop, query-time filter and delete API over {@code store}; {@code indexRewritten} hears of each
     * tenant whose delete request a compactor, this process's or another's, processed (see {@link DeleteRequestStore}).
     */
    Operations(LogbloomConfig config, ObjectStore store, Clock clock, PrometheusRegistry registry,
            Consumer<String> indexRewritten) {
        Objects.requireNonNull(config, "config is null");
        OperationsConfig ops = config.operations();
        RetentionPolicy retention = new RetentionPolicy(ops.retention());
        this.deletes = new DeleteRequestStore(store, clock, new SplittableRandom(), indexRewritten);
        this.filter = new QueryTimeFilter(retention, ops.compactor().retentionEnabled(), deletes, clock);
        // the ingester writes index files with the default layout; the compactor must read and write the same
        IndexConfig indexConfig = IndexConfig.defaults();
        byte[] id = new byte[6];
        new SecureRandom().nextBytes(id);
        String instance = "compactor-" + HexFormat.of().formatHex(id);
        // objects rewritten for delete requests and merged small objects are written as the ingester writes its
        // objects (block size, zstd level), and their tokens go to the series blooms as the ingester's (same
        // tokenizer and bloom sizing)
        IngestConfig ingest = ConfigMapping.ingestConfig(config);
        SeriesBloomWriter blooms = new SeriesBloomWriter(new BloomTokenizer(ingest.tokenizer()), ingest.bloom(),
                new SeriesBloomStore(store), COMPACTOR_BLOOM_MEMORY_BYTES);
        this.compactor = new Compactor(ops.compactor(), store, indexConfig,
                new IndexCompactor(store, new IndexWriter(store, indexConfig, clock, instance)), retention, deletes,
                Ingester.storedObjectFormat(ingest), blooms, new CompactorLease(store, clock, instance, LEASE_TTL), new CompactorMetrics(registry), clock);
        this.routes = new DeleteRoutes(new TenantResolver(config.authEnabled()), deletes, ops.retention(),
                ops.compactor().deleteRequestCancelPeriod(), clock);
    }

    /** The filter the query runner wraps every query's entry source with. */
    QuerySourceFilter sourceFilter() {
        return new QuerySourceFilter() {
            @Override
            public io.logbloom.logql.EntrySource wrap(String tenant, io.logbloom.logql.EntrySource source)
                    throws IOException {
                return filter.wrap(tenant, source);
            }

            @Override
            public boolean mayHide(String tenant, long fromNanos, long throughNanos) throws IOException {
                return filter.mayHide(tenant, fromNanos, throughNanos);
            }
        };
    }

    /** Registers the delete API. */
    void register(Javalin app) {
        routes.register(app);
    }

    /**
     * Loads the delete requests, then starts the compactor loop and the periodic reload of delete requests
     * (how requests added by other processes sharing the bucket arrive; queries never wait on the store).
     */
    synchronized void start() {
        try {
            deletes.refresh();
        } catch (IOException e) {
            LOG.warn("cannot load delete requests at start ({}); the first query loads them", e.getMessage());
        }
        refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "logbloom-delete-requests");
            t.setDaemon(true);
            return t;
        });
        long every = DELETE_REQUESTS_REFRESH.toMillis();
        refresher.scheduleWithFixedDelay(() -> {
            try {
                deletes.refresh();
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot reload delete requests ({}); queries keep the last loaded ones", e.getMessage());
            }
        }, every, every, TimeUnit.MILLISECONDS);
        compactor.start();
    }

    /** Reloads the delete requests now, as the periodic reload does (a test's way to skip the wait). */
    void reloadDeleteRequests() throws IOException {
        deletes.refresh();
    }

    /** The compactor, e.g. for a test to run a pass at a chosen time. */
    Compactor compactor() {
        return compactor;
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
        compactor.close();
    }
}
