package io.logbloom.kafka;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import io.logbloom.ingest.StreamSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An ingester process for strong-read tests, without the storage engine: a real {@link PartitionConsumer}
 * in the consumer group, a real {@link MemberAnnouncer} and {@link UnflushedEndpoint} on a loopback HTTP
 * server; rows are kept in memory and {@code flushAll} "uploads" them as lines into a shared bucket set.
 * {@link #halt} is a crash (nothing flushed or committed, no tombstone, connections refused), {@link #close}
 * a graceful stop. Thread-safe: the rows are guarded by this object's monitor.
 */
final class TestIngesterNode implements AutoCloseable {
    private final Set<String> bucket;
    private final Map<Labels, List<LogEntry>> unflushed = new LinkedHashMap<>();
    private final HttpServer http;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final MemberAnnouncer announcer;
    private final PartitionConsumer consumer;

    /** Starts serving, announcing and consuming; flushed lines go to {@code bucket}. */
    TestIngesterNode(ClusterConfig config, String id, Set<String> bucket, KafkaMetrics metrics) throws IOException {
        this.bucket = bucket;
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        UnflushedEndpoint endpoint = new UnflushedEndpoint(this::rows, () -> consumer());
        http.createContext(RemoteUnflushedSource.PATH, exchange -> serve(endpoint, exchange));
        http.setExecutor(handlers);
        http.start();
        this.announcer = new MemberAnnouncer(config, Clock.systemUTC(), id, "ingester",
                "127.0.0.1:" + http.getAddress().getPort());
        this.consumer = new PartitionConsumer(config, new PartitionSink() {
            @Override
            public PushResult pushAdmitted(String tenant, List<PushStream> streams) {
                int n = 0;
                synchronized (TestIngesterNode.this) {
                    for (PushStream s : streams) {
                        unflushed.computeIfAbsent(Labels.of("stream", s.labels(), "tenant", tenant), k -> new ArrayList<>()).addAll(s.entries());
                        n += s.entries().size();
                    }
                }
                return new PushResult(n, 0, List.of(), false);
            }

            @Override
            public void flushAll() {
                synchronized (TestIngesterNode.this) {
                    unflushed.forEach((labels, entries) -> entries.forEach(e -> bucket.add(line(labels, e))));
                    unflushed.clear();
                }
            }
        }, announcer::partitions, Clock.systemUTC(), metrics);
    }

    /** A row as "tenant labels line" (the form {@code KafkaWritePathTest} compares). */
    static String line(Labels key, LogEntry e) {
        return key.get("tenant") + " " + key.get("stream") + " " + e.line();
    }

    private PartitionConsumer consumer() {
        return consumer;
    }

    private synchronized io.logbloom.ingest.Ingester.Unflushed rows(String tenant, List<LabelMatcher> matchers,
            long from, long through) {
        List<StreamSnapshot> out = new ArrayList<>();
        unflushed.forEach((labels, entries) -> out.add(new StreamSnapshot(labels, entries)));
        return new io.logbloom.ingest.Ingester.Unflushed(out, () -> {});
    }

    private static void serve(UnflushedEndpoint endpoint, HttpExchange exchange) throws IOException {
        byte[] body;
        int status = 200;
        try {
            UnflushedEndpoint.Answer answer = endpoint.answer(exchange.getRequestBody().readAllBytes());
            exchange.getResponseHeaders().add(UnflushedEndpoint.PARTITIONS_HEADER, answer.partitionsHeader());
            body = answer.body();
        } catch (NotCaughtUpException e) {
            status = 503;
            body = e.getMessage().getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            status = 500;
            body = e.toString().getBytes(StandardCharsets.UTF_8);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Dies as a SIGKILL would: nothing flushed or committed, no tombstone, its port closed. */
    void halt() {
        http.stop(0);
        handlers.shutdownNow();
        announcer.halt();
        consumer.halt();
    }

    /** Stops gracefully: flushes into the bucket, commits, leaves the group, writes its tombstone. */
    @Override
    public void close() {
        consumer.close();
        announcer.close();
        http.stop(0);
        handlers.shutdownNow();
    }
}
