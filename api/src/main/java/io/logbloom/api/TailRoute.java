package io.logbloom.api;

import io.javalin.Javalin;
import io.javalin.websocket.WsConnectContext;
import io.javalin.websocket.WsContext;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.TailListener;
import io.logbloom.logql.Direction;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.Expr;
import io.logbloom.logql.LogExpr;
import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import io.logbloom.querier.QuerierException;
import io.logbloom.querier.QueryOutcome;
import io.logbloom.querier.QueryRequest;
import io.logbloom.querier.QueryRunner;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loki's live tail over WebSocket ({@code /loki/api/v1/tail?query=...&delay_for=...&limit=...&start=...}):
 * on connect, up to {@code limit} entries since {@code start} (default one hour back) are sent,
 * then every accepted push whose stream matches the selector is run through the query's pipeline
 * and sent as {@code {"streams":[...]}} after {@code delay_for} seconds (at most 5, as Loki). A
 * slow client loses entries beyond {@link #MAX_BUFFERED_ENTRIES}; they are reported in
 * {@code dropped_entries}. The push path only enqueues; a single sender thread evaluates and sends.
 * Thread-safe: sessions live in a concurrent map, each session's queue is guarded by the session.
 */
public final class TailRoute implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TailRoute.class);
    /** Loki's cap on delay_for, in seconds. */
    static final int MAX_DELAY_SECONDS = 5;
    /** Buffered entries per session before new ones are dropped: bounds memory per slow client. */
    static final int MAX_BUFFERED_ENTRIES = 10_000;
    /** Idle time after which a silent tail connection is closed; Jetty's 30s default would cut quiet tails. */
    static final java.time.Duration IDLE_TIMEOUT = java.time.Duration.ofHours(1);
    /** How often the sender looks for due batches. */
    private static final long SEND_PERIOD_MILLIS = 100;

    private final TailSource source;
    private final QueryRunner runner;
    private final TenantResolver tenants;
    private final java.time.Clock clock;
    private final Engine engine = new Engine();
    private final Map<WsContext, Session> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sender;

    /** Where accepted pushes come from: the in-process ingester, or the push log (querier role). */
    public interface TailSource {
        /** Starts handing accepted pushes to {@code listener}. */
        void addTailListener(TailListener listener);

        /** Stops handing pushes to {@code listener}. */
        void removeTailListener(TailListener listener);
    }

    /** Tails through the ingester's listeners; historical entries come from {@code routes}' query runner. */
    public TailRoute(QueryRoutes routes, Supplier<Ingester> ingester, LogbloomConfig config, java.time.Clock clock) {
        this(routes, new TailSource() {
            @Override
            public void addTailListener(TailListener listener) {
                ingester.get().addTailListener(listener);
            }

            @Override
            public void removeTailListener(TailListener listener) {
                ingester.get().removeTailListener(listener);
            }
        }, config, clock);
    }

    /** Tails through {@code source}; historical entries come from {@code routes}' query runner. */
    public TailRoute(QueryRoutes routes, TailSource source, LogbloomConfig config, java.time.Clock clock) {
        this.source = Objects.requireNonNull(source, "source is null");
        this.runner = routes.runner();
        this.tenants = new TenantResolver(config.authEnabled());
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "logbloom-tail-sender");
            t.setDaemon(true);
            return t;
        });
        sender.scheduleWithFixedDelay(this::sendDue, SEND_PERIOD_MILLIS, SEND_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Registers the WebSocket route. */
    public void register(Javalin app) {
        app.ws("/loki/api/v1/tail", ws -> {
            ws.onConnect(this::connect);
            ws.onClose(ctx -> disconnect(ctx));
            ws.onError(ctx -> disconnect(ctx));
        });
    }

    /** One pushed batch waiting to be filtered and sent. */
    private record Pending(long dueMillis, Labels labels, List<LogEntry> entries) {}

    /** One connected client. */
    private final class Session implements TailListener {
        final WsContext ctx;
        final String tenant;
        final LogExpr expr;
        final long delayMillis;
        final boolean categorize;
        final Deque<Pending> queue = new ArrayDeque<>();
        final List<String[]> dropped = new ArrayList<>();
        int buffered;
        /** Set once the history is sent; live batches wait for it so nothing arrives out of order. */
        volatile boolean historySent;
        /** Entries the history returned: a push racing the connect is in both and is sent once. */
        volatile TailHistory history = TailHistory.NONE;

        Session(WsContext ctx, String tenant, LogExpr expr, long delayMillis, boolean categorize) {
            this.ctx = ctx;
            this.tenant = tenant;
            this.expr = expr;
            this.delayMillis = delayMillis;
            this.categorize = categorize;
        }

        @Override
        public void onEntries(String pushTenant, Labels labels, List<LogEntry> entries) {
            if (!tenant.equals(pushTenant) || !matches(expr.selector(), labels)) {
                return;
            }
            synchronized (this) {
                if (buffered + entries.size() > MAX_BUFFERED_ENTRIES) {
                    for (LogEntry e : entries) {
                        dropped.add(new String[] {labels.toString(), Long.toString(e.timestampNanos())});
                    }
                    return;
                }
                buffered += entries.size();
                queue.add(new Pending(clock.millis() + delayMillis, labels, entries));
            }
        }
    }

    static boolean matches(List<Matcher> selector, Labels labels) {
        for (Matcher m : selector) {
            String v = labels.get(m.name());
            if (!m.matches(v == null ? "" : v)) {
                return false;
            }
        }
        return true;
    }

    private void connect(WsConnectContext ctx) {
        try {
            String tenant = tenants.tenant(ctx.header(TenantResolver.HEADER));
            String query = ctx.queryParam("query");
            if (query == null || query.isBlank()) {
                throw new HttpException(400, "bad_request", "query parameter \"query\" is required");
            }
            Expr expr = QueryRunner.parse(query);
            if (!(expr instanceof LogExpr log)) {
                throw new HttpException(400, "bad_request", "tail requires a log query, got a metric query");
            }
            String delayParam = ctx.queryParam("delay_for");
            int delay = delayParam == null || delayParam.isEmpty() ? 0 : parseInt("delay_for", delayParam);
            if (delay > MAX_DELAY_SECONDS) {
                throw new HttpException(400, "bad_request", "delay_for can't be greater than " + MAX_DELAY_SECONDS);
            }
            int limit = QueryParams.limit(ctx::queryParam);
            long now = clock.millis() * 1_000_000L;
            long start = QueryParams.timestamp("start", ctx.queryParam("start"), now - QueryParams.DEFAULT_SINCE_NANOS);
            boolean categorize = QueryRoutes.categorize(ctx.header(QueryRoutes.ENCODING_FLAGS_HEADER));
            ctx.session.setIdleTimeout(IDLE_TIMEOUT);
            Session session = new Session(ctx, tenant, log, delay * 1000L, categorize);
            sessions.put(ctx, session);
            source.addTailListener(session);
            QueryOutcome history = runner.run(new QueryRequest(tenant, query, start, now + 1, 0, limit, true, false,
                    true));
            LogQueryResult result = ((QueryOutcome.Logs) history).result();
            session.history = TailHistory.of(result, now + 1);
            if (result.entryCount() > 0) {
                send(session, result, List.of());
            }
            session.historySent = true;
        } catch (HttpException | QuerierException e) {
            ctx.closeSession(1008, e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.error("tail connect failed", e);
            ctx.closeSession(1011, "internal server error");
        }
    }

    private static int parseInt(String name, String value) {
        try {
            int v = Integer.parseInt(value.trim());
            if (v < 0) {
                throw new HttpException(400, "bad_request", name + " must not be negative: " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new HttpException(400, "bad_request", "invalid parameter \"" + name + "\": " + value);
        }
    }

    private void disconnect(WsContext ctx) {
        Session s = sessions.remove(ctx);
        if (s != null) {
            try {
                source.removeTailListener(s);
            } catch (RuntimeException e) {
                LOG.debug("tail source gone while closing a tail session", e);
            }
        }
    }

    private void sendDue() {
        long now = clock.millis();
        for (Session s : sessions.values()) {
            if (!s.historySent) {
                continue;
            }
            List<Pending> due = new ArrayList<>();
            List<String[]> dropped;
            synchronized (s) {
                while (!s.queue.isEmpty() && s.queue.peek().dueMillis() <= now) {
                    Pending p = s.queue.poll();
                    s.buffered -= p.entries().size();
                    due.add(p);
                }
                dropped = s.dropped.isEmpty() ? List.of() : new ArrayList<>(s.dropped);
                s.dropped.clear();
            }
            if (due.isEmpty() && dropped.isEmpty()) {
                continue;
            }
            try {
                LogQueryResult result = s.history.withoutSent(evaluate(s.expr, due));
                if (result.entryCount() > 0 || !dropped.isEmpty()) {
                    send(s, result, dropped);
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("tail session failed; closing it", e);
                s.ctx.closeSession(1011, "internal server error");
                disconnect(s.ctx);
            }
        }
    }

    /** Runs the query's pipeline over the pushed entries (a source holding just them). */
    private LogQueryResult evaluate(LogExpr expr, List<Pending> batches) throws IOException {
        if (batches.isEmpty()) {
            return new LogQueryResult(List.of());
        }
        Map<Labels, List<StreamEntry>> byStream = new LinkedHashMap<>();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int total = 0;
        for (Pending p : batches) {
            List<StreamEntry> list = byStream.computeIfAbsent(p.labels(), k -> new ArrayList<>());
            for (LogEntry e : p.entries()) {
                Map<String, String> md = new HashMap<>();
                for (Label l : e.metadata()) {
                    md.putIfAbsent(l.name(), l.value());
                }
                list.add(new StreamEntry(e.timestampNanos(), e.line(), md));
                min = Math.min(min, e.timestampNanos());
                max = Math.max(max, e.timestampNanos());
                total++;
            }
        }
        EntrySource source = (selector, from, through, direction) -> {
            List<SourceStream> out = new ArrayList<>();
            byStream.forEach((labels, entries) -> {
                List<StreamEntry> sorted = new ArrayList<>(entries);
                sorted.sort((a, b) -> Long.compare(a.timestampNanos(), b.timestampNanos()));
                Map<String, String> map = new LinkedHashMap<>();
                for (Label l : labels.list()) {
                    map.put(l.name(), l.value());
                }
                out.add(new SourceStream(map, sorted.iterator()));
            });
            return out;
        };
        return engine.evalLogs(expr, source, min, max + 1, Math.max(1, total), Direction.FORWARD);
    }

    private void send(Session s, LogQueryResult result, List<String[]> dropped) {
        List<QueryJson.StreamOut> streams = QueryRoutes.streams(result, s.categorize, true, 0);
        byte[] body = QueryJson.write(g -> {
            g.writeStartObject();
            g.writeFieldName("streams");
            QueryJson.writeStreams(g, streams, s.categorize);
            if (!dropped.isEmpty()) {
                g.writeArrayFieldStart("dropped_entries");
                for (String[] d : dropped) {
                    g.writeStartObject();
                    g.writeStringField("labels", d[0]);
                    g.writeStringField("timestamp", d[1]);
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (s.categorize) {
                QueryJson.writeFlags(g);
            }
            g.writeEndObject();
        });
        s.ctx.send(new String(body, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Stops the sender and forgets all sessions. */
    @Override
    public void close() {
        sender.shutdownNow();
        for (WsContext ctx : List.copyOf(sessions.keySet())) {
            disconnect(ctx);
        }
    }
}
