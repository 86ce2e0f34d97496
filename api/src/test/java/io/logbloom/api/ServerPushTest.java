package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.proto.PushProto;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end pushes over HTTP to a real server, then flush and read back from the store. */
final class ServerPushTest {
    @TempDir
    Path dataDir;

    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir, "server: { max_recv_msg_size: 256KB }");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void pushJson_acceptedFlushedAndReadableFromStore() throws Exception {
        long ts = TestServer.nowNanos();
        String json = "{\"streams\":[{\"stream\":{\"app\":\"api\",\"env\":\"test\"},\"values\":["
                + "[\"" + ts + "\",\"first line\"],"
                + "[\"" + (ts + 1) + "\",\"second line\",{\"trace_id\":\"abc123\"}]]}]}";
        HttpResponse<String> push = server.pushJson(json);
        assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
        assertThat(server.flush().statusCode()).isEqualTo(204);

        Map<Labels, List<LogEntry>> stored = server.stored("fake", LabelMatcher.equal("app", "api"));
        assertThat(stored).containsOnlyKeys(Labels.of("app", "api", "env", "test", "service_name", "api"));
        List<LogEntry> entries = stored.values().iterator().next();
        assertThat(entries).extracting(LogEntry::line).containsExactly("first line", "second line");
        assertThat(entries.get(1).metadataValue("trace_id")).isEqualTo("abc123");
        assertThat(entries).extracting(e -> e.metadataValue("detected_level")).containsExactly("unknown", "unknown");
        assertThat(server.server.objectStore().list("blooms/fake/")).isNotEmpty();
    }

    @Test
    void pushJsonGzip_andLegacyRoute_accepted() throws Exception {
        long ts = TestServer.nowNanos();
        String json = "{\"streams\":[{\"stream\":{\"app\":\"gz\"},\"values\":[[\"" + ts + "\",\"zipped\"]]}]}";
        HttpResponse<String> push = server.post("/loki/api/v1/push",
                RequestBodiesTest.gzip(json.getBytes(StandardCharsets.UTF_8)),
                "Content-Type", "application/json", "Content-Encoding", "gzip");
        assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
        String legacy = "{\"streams\":[{\"stream\":{\"app\":\"gz\"},\"values\":[[\"" + (ts + 1) + "\",\"legacy\"]]}]}";
        HttpResponse<String> legacyPush = server.post("/api/prom/push", legacy.getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
        assertThat(legacyPush.statusCode()).as(legacyPush.body()).isEqualTo(204);
        assertThat(server.flush().statusCode()).isEqualTo(204);
        assertThat(server.stored("fake", LabelMatcher.equal("app", "gz")).values()).singleElement()
                .satisfies(e -> assertThat(e).extracting(LogEntry::line).containsExactly("zipped", "legacy"));
    }

    @Test
    void pushProtobufSnappy_acceptedWithMetadata_plainAndGzip() throws Exception {
        long ts = TestServer.nowNanos();
        PushProto.PushRequest request = PushProto.PushRequest.newBuilder()
                .addStreams(TestServer.protoStream("{app=\"proto\", pod=\"p-1\"}", ts, List.of("a", "b", "c"),
                        Map.of("user", "u1")))
                .addStreams(TestServer.protoStream("{app=\"proto\", pod=\"p-\\\"2\\\"\"}", ts, List.of("d"), Map.of()))
                .build();
        HttpResponse<String> push = server.pushProtobuf(request);
        assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
        PushProto.PushRequest second = PushProto.PushRequest.newBuilder()
                .addStreams(TestServer.protoStream("{app=\"proto\", pod=\"p-1\"}", ts + 10, List.of("gzipped"), Map.of()))
                .build();
        HttpResponse<String> gz = server.post("/loki/api/v1/push",
                RequestBodiesTest.gzip(TestServer.snappyProtobuf(second)),
                "Content-Type", "application/x-protobuf", "Content-Encoding", "gzip");
        assertThat(gz.statusCode()).as(gz.body()).isEqualTo(204);
        server.flush();

        Map<Labels, List<LogEntry>> stored = server.stored("fake", LabelMatcher.equal("app", "proto"));
        assertThat(stored.get(Labels.of("app", "proto", "pod", "p-1", "service_name", "proto"))).extracting(LogEntry::line)
                .containsExactly("a", "b", "c", "gzipped");
        assertThat(stored.get(Labels.of("app", "proto", "pod", "p-1", "service_name", "proto")).get(0).metadataValue("user")).isEqualTo("u1");
        assertThat(stored.get(Labels.of("app", "proto", "pod", "p-\"2\"", "service_name", "proto"))).extracting(LogEntry::line)
                .containsExactly("d");
    }

    @Test
    void pushSameEntryTwice_storedOnce() throws Exception {
        long ts = TestServer.nowNanos();
        String json = "{\"streams\":[{\"stream\":{\"app\":\"retry\"},\"values\":[[\"" + ts + "\",\"once\"]]}]}";
        assertThat(server.pushJson(json).statusCode()).isEqualTo(204);
        assertThat(server.pushJson(json).statusCode()).isEqualTo(204);
        server.flush();
        assertThat(server.stored("fake", LabelMatcher.equal("app", "retry")).values())
                .singleElement().satisfies(e -> assertThat(e).hasSize(1));
    }

    @Test
    void tenants_isolated() throws Exception {
        long ts = TestServer.nowNanos();
        String a = "{\"streams\":[{\"stream\":{\"app\":\"x\",\"owner\":\"a\"},\"values\":[[\"" + ts + "\",\"for a\"]]}]}";
        String b = "{\"streams\":[{\"stream\":{\"app\":\"x\",\"owner\":\"b\"},\"values\":[[\"" + ts + "\",\"for b\"]]}]}";
        assertThat(server.pushJson(a, "X-Scope-OrgID", "tenant-a").statusCode()).isEqualTo(204);
        assertThat(server.pushJson(b, "X-Scope-OrgID", "tenant-b").statusCode()).isEqualTo(204);
        server.flush();
        assertThat(server.stored("tenant-a", LabelMatcher.equal("app", "x"))).containsOnlyKeys(
                Labels.of("app", "x", "owner", "a", "service_name", "x"));
        assertThat(server.stored("tenant-b", LabelMatcher.equal("app", "x"))).containsOnlyKeys(
                Labels.of("app", "x", "owner", "b", "service_name", "x"));
        assertThat(server.stored("fake", LabelMatcher.equal("app", "x"))).isEmpty();
        assertThat(server.server.objectStore().list("tenant-a/")).isNotEmpty();
    }

    @Test
    void malformedBodies_400WithClearMessage() throws Exception {
        HttpResponse<String> badJson = server.pushJson("{\"streams\":[{\"stream\":");
        assertThat(badJson.statusCode()).isEqualTo(400);
        assertThat(badJson.body()).isNotBlank();

        HttpResponse<String> badSnappy = server.post("/loki/api/v1/push", "definitely not snappy".getBytes(),
                "Content-Type", "application/x-protobuf");
        assertThat(badSnappy.statusCode()).isEqualTo(400);
        assertThat(badSnappy.body()).containsIgnoringCase("snappy");

        HttpResponse<String> badProto = server.post("/loki/api/v1/push",
                org.xerial.snappy.Snappy.compress(new byte[] {(byte) 0xff, (byte) 0xff, 0x01}),
                "Content-Type", "application/x-protobuf");
        assertThat(badProto.statusCode()).isEqualTo(400);

        HttpResponse<String> badGzip = server.post("/loki/api/v1/push", "not gzip".getBytes(),
                "Content-Type", "application/json", "Content-Encoding", "gzip");
        assertThat(badGzip.statusCode()).isEqualTo(400);
        assertThat(badGzip.body()).startsWith("malformed gzip request body");

        HttpResponse<String> badType = server.post("/loki/api/v1/push", "x".getBytes(), "Content-Type", "text/plain");
        assertThat(badType.statusCode()).isEqualTo(400);
        assertThat(badType.body()).contains("unsupported Content-Type 'text/plain'");

        HttpResponse<String> badLabels = server.pushJson("{\"streams\":[{\"stream\":{\"1bad\":\"v\"},\"values\":[[\""
                + TestServer.nowNanos() + "\",\"x\"]]}]}");
        assertThat(badLabels.statusCode()).isEqualTo(400);
        assertThat(badLabels.body()).contains("1bad");
    }

    @Test
    void protobufBodyOfSeveralInputBuffers_storedWhole() throws Exception {
        assertThat(server.server.inputBufferBytes()).isEqualTo(LogbloomServer.INPUT_BUFFER_BYTES);
        long ts = TestServer.nowNanos();
        SplittableRandom random = new SplittableRandom(7);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) { // random hex does not compress: about 150 KB of body, past two buffers
            lines.add(i + " " + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())
                    + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())
                    + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
        }
        byte[] body = TestServer.snappyProtobuf(PushProto.PushRequest.newBuilder()
                .addStreams(TestServer.protoStream("{app=\"big\"}", ts, lines, Map.of())).build());
        assertThat(body.length).isGreaterThan(2 * LogbloomServer.INPUT_BUFFER_BYTES)
                .isLessThanOrEqualTo(256 * 1024);

        HttpResponse<String> push = server.post("/loki/api/v1/push", body, "Content-Type", "application/x-protobuf");
        assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
        assertThat(server.flush().statusCode()).isEqualTo(204);
        assertThat(server.stored("fake", LabelMatcher.equal("app", "big")).values()).singleElement()
                .satisfies(e -> assertThat(e).extracting(LogEntry::line).containsExactlyElementsOf(lines));
    }

    @Test
    void oversizeBody_413_andGzipBombBounded() throws Exception {
        byte[] big = new byte[300 * 1024];
        HttpResponse<String> tooLarge = server.post("/loki/api/v1/push", big, "Content-Type", "application/json");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(tooLarge.body()).contains("larger than the limit of 262144 bytes");

        byte[] bomb = RequestBodiesTest.gzip(new byte[20 << 20]);
        HttpResponse<String> bombed = server.post("/loki/api/v1/push", bomb, "Content-Type", "application/json",
                "Content-Encoding", "gzip");
        assertThat(bombed.statusCode()).isEqualTo(413);
        assertThat(bombed.body()).contains("gzip-decompressed request body is larger than the limit");
    }

    @Test
    void operationalRoutes() throws Exception {
        HttpResponse<String> ready = server.get("/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("ready\n");

        server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"m\"},\"values\":[[\"" + TestServer.nowNanos()
                + "\",\"counted\"]]}]}");
        HttpResponse<String> metrics = server.get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
        assertThat(metrics.body()).contains("logbloom_ingest_lines_total", "logbloom_api_requests_total{",
                "route=\"/loki/api/v1/push\"");

        HttpResponse<String> build = server.get("/loki/api/v1/status/buildinfo");
        assertThat(build.statusCode()).isEqualTo(200);
        assertThat(build.body()).contains("\"version\":\"", "\"revision\":", "\"branch\":", "\"buildUser\":",
                "\"buildDate\":", "\"goVersion\":\"java");

        HttpResponse<String> config = server.get("/config");
        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(config.body()).contains("max_recv_msg_size: 262144", "auth_enabled: false");

        HttpResponse<String> missing = server.get("/no/such/route");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo("404 page not found: no route for GET /no/such/route\n");

        HttpResponse<String> wrongMethod = server.get("/loki/api/v1/push");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
    }
}
