package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.ingest.proto.PushProto;
import io.logbloom.chunks.S3TestServer;
import io.logbloom.kafka.Announcement;
import io.logbloom.kafka.KafkaBroker;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out roles end to end, every role a separate server on loopback: a real KRaft broker,
 * two distributors, three ingesters (one a child JVM killed with SIGKILL) and two queriers sharing
 * one S3 bucket (s3proxy). Pushes go through both distributors (JSON and protobuf); queries through both queriers
 * must return every acknowledged line exactly once, from unflushed data and from the bucket, with
 * blooms on and off alike; after the kill every acknowledged line is still there exactly once; while
 * the broker is down the distributors answer 503 and recover when it is back.
 */
final class ClusterEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final int PARTITIONS = 6;
    private static final long BASE_NANOS = TestServer.nowNanos() - TimeUnit.MINUTES.toNanos(5);

    @TempDir
    Path dir;
    private S3TestServer s3;

    private String yaml(String target, String name, KafkaBroker broker) {
        return "target: " + target + "\n"
                + "server: { http_listen_address: 127.0.0.1, http_listen_port: 0 }\n"
                + "storage: { backend: s3, s3: { endpoint: \"" + s3.endpoint() + "\", bucket: " + s3.bucket()
                + ", region: " + S3TestServer.REGION + ", access_key_id: " + S3TestServer.ACCESS_KEY
                + ", secret_access_key: " + S3TestServer.SECRET_KEY + " } }\n"
                + "wal: { directory: \"" + dir.resolve("wal-" + name) + "\", fsync: interval }\n"
                + "ingester: { seal_interval: 200ms, flush_check_period: 1s }\n"
                + "limits: { max_entries_limit_per_query: 100000, ingestion_rate_mb: 64, ingestion_burst_size_mb: 64,"
                + " query_timeout: 40s }\n"
                + "compactor: { working_directory: \"" + dir.resolve("compactor-" + name) + "\" }\n"
                // ingesters commit only when partitions move or at shutdown: what they hold stays unflushed
                + "kafka: { bootstrap_servers: \"" + broker.bootstrapServers() + "\", partitions: " + PARTITIONS
                + ", commit_interval: 1h, produce_timeout: 3s, announce_interval: 500ms, session_timeout: 3s,"
                + " distributors: 2 }\n";
    }

    private TestServer start(String target, String name, KafkaBroker broker) {
        return TestServer.start(LogbloomConfig.parse(yaml(target, name, broker), Map.of()),
                java.util.function.UnaryOperator.identity());
    }

    @Test
    void cluster_pushesQueriesKillAndBrokerRestart_everyAcknowledgedLineOnce() throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        Process child = null;
        s3 = S3TestServer.start();
        KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"));
        try {
            int childPort = freePort();
            Path childLog = dir.resolve("child.log");
            child = startChild(broker, childPort, childLog);
            TestServer ingester1 = start("ingester", "i1", broker);
            open.add(ingester1);
            TestServer ingester2 = start("ingester", "i2", broker);
            open.add(ingester2);
            TestServer distributor1 = start("distributor", "d1", broker);
            open.add(distributor1);
            TestServer distributor2 = start("distributor", "d2", broker);
            open.add(distributor2);
            TestServer querier1 = start("querier", "q1", broker);
            open.add(querier1);
            TestServer querier2 = start("querier", "q2", broker);
            open.add(querier2);
            String childAddress = "127.0.0.1:" + childPort;
            await(() -> ownsAll(querier1.server.liveIngesters(), childAddress), Duration.ofSeconds(90),
                    "three ingesters owning all partitions, the child among them");
            assertThat(distributor1.get("/loki/api/v1/labels").statusCode()).isEqualTo(404);
            assertThat(ingester1.pushJson("{}").statusCode()).isEqualTo(404);

            // phase 1: JSON through one distributor, protobuf through the other; read while unflushed
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            for (int p = 0; p < 10; p++) {
                assertThat(pushJson(distributor1, "json", p, 3, 10, acknowledged)).isEqualTo(204);
                assertThat(pushProtobuf(distributor2, "proto", p, 3, 10, acknowledged)).isEqualTo(204);
            }
            // strong read consistency: a query issued right after the 204s sees every line, without polling
            Map<String, Integer> unflushed = readAll(querier1, "{cluster=\"e2e\"}", true);
            assertThat(unflushed.keySet()).isEqualTo(acknowledged);
            assertThat(unflushed.values()).containsOnly(1);
            for (int p = 0; p < 20; p++) {
                Set<String> one = new HashSet<>();
                TestServer via = p % 2 == 0 ? distributor1 : distributor2;
                assertThat(pushJson(via, "instant", p, 1, 1, one)).isEqualTo(204);
                String line = one.iterator().next();
                assertThat(readAll(p % 2 == 0 ? querier2 : querier1, "{cluster=\"e2e\"} |= \"" + line + "\"", true))
                        .as("query right after the 204 of " + line).containsOnlyKeys(line);
                acknowledged.add(line);
                unflushed.put(line, 1);
            }
            assertThat(readAll(querier2, "{cluster=\"e2e\"}", true)).isEqualTo(unflushed);

            // live tail through a querier: it reads the push log, so every push after it is live arrives
            assertTailThroughQuerier(querier2, distributor1);

            // flush every ingester (the child too): now the bucket holds it all, nothing is committed yet
            assertThat(ingester1.flush().statusCode()).isEqualTo(204);
            assertThat(ingester2.flush().statusCode()).isEqualTo(204);
            assertThat(send(childAddress, "/flush", "POST").statusCode()).isEqualTo(204);
            assertThat(readAll(querier1, "{cluster=\"e2e\"}", true)).isEqualTo(unflushed);
            // querier1 keeps its index listings (taken in phase 1, before any file was written): that read found
            // every line because the ingesters named the files their flushes wrote, with their emptied rows
            assertThat(listingHits(querier1)).as("listings answered from memory").isPositive();
            String needle = "{cluster=\"e2e\"} |= \"json-p7-s1-l4 \"";
            Map<String, Integer> withBlooms = readAll(querier2, needle, true);
            assertThat(withBlooms).containsOnlyKeys("json-p7-s1-l4 ");
            assertThat(readAll(querier2, needle, false)).isEqualTo(withBlooms);
            assertThat(readAll(querier1, needle, false)).isEqualTo(withBlooms);

            // phase 2: SIGKILL the child ingester mid-load; its partitions move and are re-read from Kafka
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> pushers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                TestServer via = t == 0 ? distributor1 : distributor2;
                String kind = t == 0 ? "loadjson" : "loadproto";
                boolean json = t == 0;
                Thread pusher = new Thread(() -> {
                    for (int p = 0; !stop.get(); p++) {
                        try {
                            if (json) {
                                pushJson(via, kind, p, 2, 5, acknowledged);
                            } else {
                                pushProtobuf(via, kind, p, 2, 5, acknowledged);
                            }
                        } catch (IOException | InterruptedException e) {
                            return;
                        }
                    }
                });
                pusher.start();
                pushers.add(pusher);
            }
            Thread.sleep(1500);
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            Thread.sleep(2500);
            stop.set(true);
            for (Thread t : pushers) {
                t.join(30_000);
            }
            // a strong read right after the kill, without polling: the killed child's partitions have no live
            // owner yet, so it waits for their successor (or answers 503 naming them), never a partial 200
            HttpResponse<String> atOnce = query(querier1, "{cluster=\"e2e\"}", true);
            if (atOnce.statusCode() == 503) {
                assertThat(atOnce.body()).contains("are not covered");
            } else {
                assertThat(atOnce.statusCode()).as(atOnce.body()).isEqualTo(200);
                assertThat(lineCounts(atOnce).keySet()).as("strong read right after the kill").isEqualTo(acknowledged);
            }
            await(() -> querier1.server.liveIngesters().size() == 2
                    && ownsAll(querier1.server.liveIngesters(), ""), Duration.ofSeconds(60),
                    "the killed ingester's partitions moved to the two others");
            Map<String, Integer> afterKill = awaitAll(querier2, acknowledged);
            assertThat(afterKill.keySet()).isEqualTo(acknowledged);
            assertThat(afterKill.entrySet()).allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo(1));
            assertThat(readAll(querier1, "{cluster=\"e2e\"}", false)).isEqualTo(afterKill);

            // phase 3: broker down -> 503 with a clear message; back -> 204 and queryable
            broker.stop();
            try {
                HttpResponse<String> refused = pushJsonResponse(distributor1, "outage", 0, 1, 1, new HashSet<>());
                assertThat(refused.statusCode()).isEqualTo(503);
                assertThat(refused.body()).contains("Kafka did not acknowledge");
            } finally {
                broker.startAgain();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            Set<String> late = new HashSet<>();
            while (pushProtobuf(distributor2, "recovered", 0, 1, 3, late) != 204) {
                assertThat(System.nanoTime()).as("distributor recovers after the broker restart").isLessThan(deadline);
                late.clear();
                Thread.sleep(500);
            }
            acknowledged.addAll(late);
            Map<String, Integer> end = awaitAll(querier1, acknowledged);
            assertThat(end.keySet()).isEqualTo(acknowledged);
            assertThat(end.values()).containsOnly(1);
        } finally {
            if (child != null) {
                child.destroyForcibly();
            }
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
            broker.close();
            s3.close();
        }
    }

    /**
     * Opens {@code /loki/api/v1/tail} on {@code querier}, pushes through {@code distributor} until a
     * first line arrives (the tail is live), then checks that the next push's matching lines all arrive.
     */
    private static void assertTailThroughQuerier(TestServer querier, TestServer distributor) throws Exception {
        java.util.concurrent.LinkedBlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        java.net.http.WebSocket.Listener listener = new java.net.http.WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket ws, CharSequence data,
                    boolean last) {
                partial.append(data);
                if (last) {
                    try {
                        for (JsonNode stream : JSON.readTree(partial.toString()).path("streams")) {
                            for (JsonNode v : stream.path("values")) {
                                lines.add(v.get(1).asText());
                            }
                        }
                    } catch (IOException e) {
                        lines.add("unparsable: " + partial);
                    }
                    partial.setLength(0);
                }
                ws.request(1);
                return null;
            }
        };
        URI uri = URI.create("ws://127.0.0.1:" + querier.server.port() + "/loki/api/v1/tail?delay_for=0&limit=10&query="
                + URLEncoder.encode("{cluster=\"tailed\"} |= \"keep\"", StandardCharsets.UTF_8));
        java.net.http.WebSocket ws = HTTP.newWebSocketBuilder().buildAsync(uri, listener).get(10, TimeUnit.SECONDS);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int p = 0; lines.isEmpty(); p++) {
                assertThat(System.nanoTime()).as("a first tailed line within 30 s").isLessThan(deadline);
                tailPush(distributor, "warmup-" + p);
                Thread.sleep(300);
            }
            Thread.sleep(500);
            lines.clear();
            tailPush(distributor, "final");
            List<String> got = new ArrayList<>();
            while (got.size() < 2 && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(10)) {
                String line = lines.poll(500, TimeUnit.MILLISECONDS);
                if (line != null) {
                    got.add(line);
                }
            }
            assertThat(got).containsExactly("keep final 1", "keep final 2");
        } finally {
            ws.abort();
        }
    }

    /** One push of stream {@code {cluster="tailed"}} (outside the {@code cluster="e2e"} lines counted): two lines to keep, one the filter drops. */
    private static void tailPush(TestServer distributor, String tag) throws IOException, InterruptedException {
        long ts = TestServer.nowNanos();
        HttpResponse<String> r = distributor.pushJson("{\"streams\":[{\"stream\":{\"cluster\":\"tailed\"},"
                + "\"values\":[[\"" + ts + "\",\"keep " + tag + " 1\"],[\"" + (ts + 1) + "\",\"drop " + tag + "\"],[\""
                + (ts + 2) + "\",\"keep " + tag + " 2\"]]}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    }

    /**
     * Whether {@code members} are three ingesters (or two, with {@code mustInclude} empty) covering every partition,
     * each owning some: a member announcing none is still joining, and the group rebalances again once it does.
     */
    private static boolean ownsAll(List<Announcement> members, String mustInclude) {
        Set<Integer> owned = new TreeSet<>();
        boolean included = mustInclude.isEmpty();
        int owners = 0;
        for (Announcement a : members) {
            owned.addAll(a.partitions());
            owners += a.partitions().isEmpty() ? 0 : 1;
            included |= a.address().equals(mustInclude) && !a.partitions().isEmpty();
        }
        return included && owned.size() == PARTITIONS && owners >= (mustInclude.isEmpty() ? 2 : 3);
    }

    private static String line(String kind, int push, int stream, int line) {
        return kind + "-p" + push + "-s" + stream + "-l" + line + " ";
    }

    /** Distinct timestamps per (kind, push, line): the streams differ by label. */
    /**
     * A distinct timestamp per kind, push and line, at most ~100 s after {@code BASE_NANOS} (5 min ago), so it
     * stays in the past: Loki's creation grace period (10 min) refuses lines further in the future with 400.
     */
    private static long timestamp(String kind, int push, int line) {
        return BASE_NANOS + (Math.floorMod(kind.hashCode(), 100) * 1_000_000L + push) * 1000L + line;
    }

    private static int pushJson(TestServer via, String kind, int push, int streams, int lines, Set<String> acknowledged)
            throws IOException, InterruptedException {
        return pushJsonResponse(via, kind, push, streams, lines, acknowledged).statusCode();
    }

    private static HttpResponse<String> pushJsonResponse(TestServer via, String kind, int push, int streams, int lines,
            Set<String> acknowledged) throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder("{\"streams\":[");
        List<String> sent = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            body.append(s > 0 ? "," : "").append("{\"stream\":{\"cluster\":\"e2e\",\"kind\":\"").append(kind)
                    .append("\",\"s\":\"").append(s).append("\"},\"values\":[");
            for (int l = 0; l < lines; l++) {
                String text = line(kind, push, s, l);
                sent.add(text);
                body.append(l > 0 ? "," : "").append("[\"").append(timestamp(kind, push, l)).append("\",\"")
                        .append(text).append("\",{\"trace_id\":\"t").append(push).append("\"}]");
            }
            body.append("]}");
        }
        HttpResponse<String> r = via.pushJson(body.append("]}").toString());
        if (r.statusCode() == 204) {
            acknowledged.addAll(sent);
        }
        return r;
    }

    private static int pushProtobuf(TestServer via, String kind, int push, int streams, int lines,
            Set<String> acknowledged) throws IOException, InterruptedException {
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        List<String> sent = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            List<String> texts = new ArrayList<>();
            for (int l = 0; l < lines; l++) {
                texts.add(line(kind, push, s, l));
            }
            sent.addAll(texts);
            request.addStreams(TestServer.protoStream("{cluster=\"e2e\", kind=\"" + kind + "\", s=\"" + s + "\"}",
                    timestamp(kind, push, 0), texts, Map.of("trace_id", "t" + push)));
        }
        int status = via.pushProtobuf(request.build()).statusCode();
        if (status == 204) {
            acknowledged.addAll(sent);
        }
        return status;
    }

    /** Polls until {@code querier} returns every acknowledged line; returns the count of each line found. */
    private static Map<String, Integer> awaitAll(TestServer querier, Set<String> acknowledged) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            Map<String, Integer> found = readAll(querier, "{cluster=\"e2e\"}", true);
            if (found.keySet().containsAll(acknowledged) || System.nanoTime() > deadline) {
                Set<String> missing = new TreeSet<>(acknowledged);
                missing.removeAll(found.keySet());
                assertThat(missing).as("acknowledged lines missing").isEmpty();
                return found;
            }
            Thread.sleep(250);
        }
    }

    /** How many index listings {@code querier} answered from memory (querier.index_listing_ttl). */
    private static double listingHits(TestServer querier) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^logbloom_index_listing_cache_requests_total\\{outcome=\"hit\"} (\\S+)$")
                .matcher(querier.get("/metrics").body());
        assertThat(m.find()).as("the listing cache's metric").isTrue();
        return Double.parseDouble(m.group(1));
    }

    /** Every line {@code query} returns through {@code querier}, with how often it appears. */
    private static Map<String, Integer> readAll(TestServer querier, String query, boolean blooms) throws Exception {
        HttpResponse<String> r = query(querier, query, blooms);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return lineCounts(r);
    }

    /** The answer of {@code query_range} for {@code query} over every pushed line, through {@code querier}. */
    private static HttpResponse<String> query(TestServer querier, String query, boolean blooms) throws Exception {
        String path = "/loki/api/v1/query_range?limit=100000&direction=forward&start=" + (BASE_NANOS - 1)
                + "&end=" + (TestServer.nowNanos() + TimeUnit.HOURS.toNanos(1))
                + "&query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
        return querier.send(querier.request(path).header(QueryRoutes.BLOOMS_HEADER, blooms ? "on" : "off").GET());
    }

    /** Every line of a 200 answer with how often it appears. */
    private static Map<String, Integer> lineCounts(HttpResponse<String> r) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        for (JsonNode stream : JSON.readTree(r.body()).path("data").path("result")) {
            for (JsonNode value : stream.path("values")) {
                counts.merge(value.get(1).asText(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static HttpResponse<String> send(String address, String path, String method) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + address + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Process startChild(KafkaBroker broker, int port, Path log) throws Exception {
        Path config = dir.resolve("child.yaml");
        Files.writeString(config, yaml("ingester", "child", broker));
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                "io.logbloom.api.Main", "--config", config.toString(), "--port", Integer.toString(port),
                "--warmup-lines", "0") // the JIT warm-up is not what this tests
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw new AssertionError("child ingester exited with " + child.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                if (send("127.0.0.1:" + port, "/ready", "GET").statusCode() == 200) {
                    return child;
                }
            } catch (IOException notYetListening) {
                // still starting
            }
            Thread.sleep(100);
        }
        child.destroyForcibly();
        throw new AssertionError("child ingester not ready within 60s:\n" + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
