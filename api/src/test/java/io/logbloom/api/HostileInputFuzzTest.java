package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input at scale, in two tiers against one real server: {@value #DEFAULT_PUSH_BODIES} push
 * bodies ({@link HostileRequests#pushRequest}: snappy-protobuf with byte mutations and truncations,
 * gzip and snappy framing garbage, structurally and textually mutated JSON, hostile header values)
 * driven through the push route with its HTTP framing left out ({@link PushRoute#push}, answered by
 * {@link HttpErrors} as the server's exception handler does), then {@value #DEFAULT_HTTP_REQUESTS}
 * requests of every kind ({@link HostileRequests#request}: the push kinds plus mutated LogQL on every
 * query route, hostile values of every query parameter, label names and header values) over HTTP on
 * loopback from {@value #CLIENTS} keep-alive connections written byte by byte
 * ({@link RawHttpConnection}, so NUL and control characters in headers reach Jetty). Every answer must
 * be below 500, and the server must still be ready and serve a valid push and query at the end. A
 * third run opens {@value #DEFAULT_TAIL_REQUESTS} live tails ({@link HostileRequests#tailRequest}) over
 * WebSocket: each must be refused with a 4xx, closed with a close code other than 1011 (internal
 * error), or stream lines, and the server must stay ready.
 *
 * <p>Why two tiers: on this shared 2-core box an HTTP round trip costs milliseconds of wall time
 * under load, so 10^5 of them would not fit the CI budget; the push route's decoding, validation
 * and ingestion are the same code either way, and the HTTP tier keeps Jetty's parser, routing and the
 * exception handler in the loop. The WAL uses the {@code interval} fsync policy so the run measures
 * request handling, not the disk.
 *
 * <p>Reproduce: the failure message names the seed and each failing request's tier and number; run
 * with {@code -Dfuzz.seed=S}, and {@code -Dfuzz.index=N} to send request N of each tier alone
 * ({@code -Dfuzz.pushes} and {@code -Dfuzz.requests} change the counts).
 */
final class HostileInputFuzzTest {
    /** Push bodies driven through the push route directly (its HTTP framing left out). */
    static final int DEFAULT_PUSH_BODIES = 100_000;
    /** Requests of every kind sent over HTTP. */
    static final int DEFAULT_HTTP_REQUESTS = 3_000;
    static final int CLIENTS = 2;
    /** Live-tail WebSocket connections with hostile queries, parameters and headers. */
    static final int DEFAULT_TAIL_REQUESTS = 400;
    /** Tail connections open at once: most of a valid tail's time is spent waiting for lines. */
    static final int TAIL_CLIENTS = 8;
    /** How long an open tail is watched for a close or its history before it is aborted. */
    static final long TAIL_WAIT_MILLIS = 1500;
    /** Failures reported in full in the assertion message; the rest are only counted. */
    private static final int REPORTED_FAILURES = 15;

    @TempDir
    Path dataDir;

    private TestServer server;
    private long baseNanos;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(dataDir, """
                wal: { fsync: interval, fsync_interval: 200ms }
                limits:
                  ingestion_rate_mb: 10000
                  ingestion_burst_size_mb: 10000
                  query_timeout: 20s
                """);
        baseNanos = TestServer.nowNanos() - 600_000_000_000L;
        for (String tenant : HostileRequests.TENANTS) {
            String json = "{\"streams\":[{\"stream\":{\"app\":\"web\",\"env\":\"e0\"},\"values\":[[\"" + baseNanos
                    + "\",\"level=info msg=seed status=200\"],[\"" + (baseNanos + 1) + "\",\"{\\\"level\\\":\\\"error\\\"}\"]]}]}";
            assertThat(server.pushJson(json, TenantResolver.HEADER, tenant).statusCode()).isEqualTo(204);
        }
        assertThat(server.flush().statusCode()).isEqualTo(204);
        for (String tenant : HostileRequests.TENANTS) {
            String json = "{\"streams\":[{\"stream\":{\"app\":\"db\",\"env\":\"e1\"},\"values\":[[\"" + (baseNanos + 5)
                    + "\",\"unflushed line\",{\"trace_id\":\"t1\"}]]}]}";
            assertThat(server.pushJson(json, TenantResolver.HEADER, tenant).statusCode()).isEqualTo(204);
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void hostileRequests_neverAnswer5xx_serverStaysReady() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int pushBodies = Integer.getInteger("fuzz.pushes", DEFAULT_PUSH_BODIES);
        int httpRequests = Integer.getInteger("fuzz.requests", DEFAULT_HTTP_REQUESTS);
        long only = Long.getLong("fuzz.index", -1L);
        HostileRequests generator = new HostileRequests(seed, baseNanos, HostileRequests.loadCorpus());
        PushRoute pushRoute = server.server.pushRoute();

        Tier direct = run("push-direct", pushBodies, only, i -> generator.pushRequest(i), () -> request -> {
            try {
                pushRoute.push(header(request, TenantResolver.HEADER), header(request, "Content-Encoding"),
                        header(request, "Content-Type"), request.body().length,
                        new ByteArrayInputStream(request.body()));
                return new RawHttpConnection.Response(204, "");
            } catch (Exception e) {
                HttpErrors.Classified c = HttpErrors.classify(e);
                return new RawHttpConnection.Response(c.status(), c.message() + " (" + e + ")");
            }
        });
        Tier http = run("http", httpRequests, only, generator::request, () -> new Sender() {
            private final RawHttpConnection connection = new RawHttpConnection(server.server.port());

            @Override
            public RawHttpConnection.Response send(HostileRequests.HostileRequest request) throws Exception {
                return connection.send(request.method(), request.target(), request.headers(), request.body());
            }

            @Override
            public void close() {
                connection.close();
            }
        });

        List<String> failures = new ArrayList<>(direct.failures);
        failures.addAll(http.failures);
        assertThat(failures).as("fuzz seed %d (rerun with -Dfuzz.seed=%d; one request with -Dfuzz.index=N): %d of %d push"
                + " bodies and %d of %d HTTP requests answered 5xx or not at all", seed, seed, direct.failureCount.get(),
                direct.sent.get(), http.failureCount.get(), http.sent.get()).isEmpty();
        if (only < 0) {
            assertThat(direct.sent.get()).isEqualTo(pushBodies);
            assertThat(http.sent.get()).isEqualTo(httpRequests);
        }
        assertThat(server.get("/ready").statusCode()).isEqualTo(200);
        String line = "after-fuzz-" + seed;
        long ts = TestServer.nowNanos();
        assertThat(server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"after\"},\"values\":[[\"" + ts + "\",\"" + line
                + "\"]]}]}", TenantResolver.HEADER, "fuzz-a").statusCode()).isEqualTo(204);
        String query = URLEncoder.encode("{app=\"after\"}", StandardCharsets.UTF_8);
        var answer = server.send(server.request("/loki/api/v1/query_range?query=" + query + "&start=" + (ts - 1)
                + "&end=" + (ts + 1)).header(TenantResolver.HEADER, "fuzz-a").GET());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains(line);
    }

    @Test
    void hostileTailRequests_neverRefusedWith5xxOrClosedWithInternalError_serverStaysReady() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int tails = Integer.getInteger("fuzz.tails", DEFAULT_TAIL_REQUESTS);
        HostileRequests generator = new HostileRequests(seed, baseNanos, HostileRequests.loadCorpus());
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        Map<Long, String> failures = new ConcurrentSkipListMap<>();
        LongAdder opened = new LongAdder();
        LongAdder closedByServer = new LongAdder();
        LongAdder refusedByClient = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(TAIL_CLIENTS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < TAIL_CLIENTS; c++) {
                int offset = c;
                futures.add(pool.submit(() -> {
                    for (long i = offset; i < tails; i += TAIL_CLIENTS) {
                        HostileRequests.HostileRequest request = generator.tailRequest(i);
                        String outcome = tail(client, request, opened, closedByServer, refusedByClient);
                        if (outcome != null) {
                            failures.put(i, outcome + " <- " + request.describe());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures.values().stream().limit(REPORTED_FAILURES).toList())
                .as("tail fuzz seed %d (rerun with -Dfuzz.seed=%d): %d of %d tail requests refused with 5xx, closed with"
                        + " 1011 or not answered", seed, seed, failures.size(), tails).isEmpty();
        assertThat(opened.sum() + refusedByClient.sum()).as("requests that reached the server").isPositive();
        assertThat(closedByServer.sum()).as("hostile tails refused with a close frame").isPositive();
        assertThat(server.get("/ready").statusCode()).isEqualTo(200);
    }

    /**
     * Opens one tail and returns null when the server answered acceptably (a 4xx handshake refusal,
     * a close other than 1011, or lines / silence until aborted), else what went wrong.
     */
    private String tail(java.net.http.HttpClient client, HostileRequests.HostileRequest request, LongAdder opened,
            LongAdder closedByServer, LongAdder refusedByClient) throws InterruptedException {
        java.util.concurrent.CompletableFuture<String> first = new java.util.concurrent.CompletableFuture<>();
        java.net.http.WebSocket.Listener listener = new java.net.http.WebSocket.Listener() {
            @Override
            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket ws, CharSequence data,
                    boolean last) {
                first.complete("text");
                return null;
            }

            @Override
            public java.util.concurrent.CompletionStage<?> onClose(java.net.http.WebSocket ws, int code, String reason) {
                first.complete("close " + code + " " + reason);
                return null;
            }

            @Override
            public void onError(java.net.http.WebSocket ws, Throwable error) {
                first.complete("error " + error);
            }
        };
        java.net.http.WebSocket ws;
        try {
            java.net.http.WebSocket.Builder builder = client.newWebSocketBuilder()
                    .connectTimeout(java.time.Duration.ofSeconds(20));
            for (String[] h : request.headers()) {
                builder.header(h[0], h[1]);
            }
            ws = builder.buildAsync(java.net.URI.create("ws://127.0.0.1:" + server.server.port() + request.target()),
                    listener).get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IllegalArgumentException notSendable) {
            refusedByClient.increment(); // a header value the client library will not put on the wire
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof java.net.http.WebSocketHandshakeException h) {
                int status = h.getResponse().statusCode();
                return status < 500 ? null : "handshake answered " + status;
            }
            if (e.getCause() instanceof IllegalArgumentException) {
                refusedByClient.increment();
                return null;
            }
            return "handshake failed: " + e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            return "handshake not answered within 30 s";
        }
        opened.increment();
        String outcome;
        try {
            outcome = first.get(TAIL_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException silent) {
            outcome = "open"; // a valid tail without history: nothing to send yet
        } catch (java.util.concurrent.ExecutionException e) {
            outcome = "error " + e.getCause();
        }
        ws.abort();
        if (outcome.startsWith("close ")) {
            closedByServer.increment();
            return outcome.startsWith("close 1011") ? outcome : null;
        }
        return outcome.startsWith("error") ? outcome : null;
    }

    /** Sends one request and returns the answer. */
    @FunctionalInterface
    private interface Sender extends AutoCloseable {
        RawHttpConnection.Response send(HostileRequests.HostileRequest request) throws Exception;

        @Override
        default void close() {}
    }

    /** The outcome of one tier: how many requests were sent, how many failed, and the first failures in full. */
    private record Tier(AtomicLong sent, AtomicLong failureCount, List<String> failures) {}

    private static Tier run(String name, int count, long only, LongFunction<HostileRequests.HostileRequest> generate,
            Supplier<Sender> senders) throws Exception {
        Tier tier = new Tier(new AtomicLong(), new AtomicLong(), Collections.synchronizedList(new ArrayList<>()));
        Map<String, LongAdder> nanosByKind = new ConcurrentSkipListMap<>();
        Map<String, LongAdder> countByKind = new ConcurrentSkipListMap<>();
        long started = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                workers.add(clients.submit(() -> {
                    try (Sender sender = senders.get()) {
                        for (long i = client; i < count; i += CLIENTS) {
                            if (only >= 0 && i != only) {
                                continue;
                            }
                            HostileRequests.HostileRequest r = generate.apply(i);
                            long requestStart = System.nanoTime();
                            String problem;
                            try {
                                RawHttpConnection.Response answer = sender.send(r);
                                problem = answer.status() >= 500 ? answer.status() + " " + answer.body().strip() : null;
                            } catch (Exception e) {
                                problem = "no answer: " + e;
                            }
                            tier.sent.incrementAndGet();
                            nanosByKind.computeIfAbsent(r.kind(), k -> new LongAdder()).add(System.nanoTime() - requestStart);
                            countByKind.computeIfAbsent(r.kind(), k -> new LongAdder()).increment();
                            if (problem != null && tier.failureCount.incrementAndGet() <= REPORTED_FAILURES) {
                                tier.failures.add(name + " request " + i + " -> " + problem + "\n    " + r.describe());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            clients.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("fuzz %s: %d requests in %.1f s (%.0f/s), %d answered 5xx or not at all%n", name,
                tier.sent.get(), seconds, tier.sent.get() / seconds, tier.failureCount.get());
        countByKind.forEach((kind, n) -> System.out.printf("  %-22s %7d requests, %8.1f us mean%n", kind, n.sum(),
                nanosByKind.get(kind).sum() / 1e3 / n.sum()));
        return tier;
    }

    private static String header(HostileRequests.HostileRequest request, String name) {
        for (String[] h : request.headers()) {
            if (h[0].equalsIgnoreCase(name)) {
                return h[1];
            }
        }
        return null;
    }
}
