package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.compactor.Compactor;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.SeriesBloomStore;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loki's delete API and retention end to end over HTTP: push, flush, delete or expire, query, compact. */
final class ServerDeleteRetentionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEC = 1_000_000_000L;

    @TempDir
    Path dir;

    /** A clock the test moves forward. */
    private static final class MovableClock extends Clock {
        final AtomicLong millis = new AtomicLong(System.currentTimeMillis());

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String push(String labels, long ts, String... lines) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            values.append(i > 0 ? "," : "").append("[\"").append(ts + i).append("\",\"").append(lines[i]).append("\"]");
        }
        return "{\"streams\":[{\"stream\":" + labels + ",\"values\":[" + values + "]}]}";
    }

    /** Lines of a log query over [start, end), oldest first. */
    private static List<String> lines(TestServer s, String query, long start, long end, String... headers)
            throws IOException, InterruptedException {
        HttpResponse<String> r = s.send(s.request("/loki/api/v1/query_range?query=" + enc(query) + "&start=" + start
                + "&end=" + end + "&limit=1000&direction=forward").headers(headers.length > 0 ? headers
                : new String[] {"X-Scope-OrgID", "fake"}).GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        for (JsonNode stream : JSON.readTree(r.body()).path("data").path("result")) {
            for (JsonNode v : stream.path("values")) {
                out.add(v.get(1).asText());
            }
        }
        out.sort(null);
        return out;
    }

    private static HttpResponse<String> delete(TestServer s, String method, String params, String tenant)
            throws IOException, InterruptedException {
        return s.send(s.request(DeleteRoutes.PATH + params).header("X-Scope-OrgID", tenant)
                .method(method, java.net.http.HttpRequest.BodyPublishers.noBody()));
    }

    @Test
    void deleteRequest_hidesMatchingLinesAtOnce_listedAsReceived_cancelRestoresThem() throws Exception {
        try (TestServer s = TestServer.start(dir, "overrides: { locked: { deletion_mode: disabled } }")) {
            long now = TestServer.nowNanos();
            long t0 = now - 60 * SEC;
            assertThat(s.pushJson(push("{\"app\":\"web\"}", t0, "user=bob a", "user=alice b", "user=bob c")).statusCode())
                    .isEqualTo(204);
            assertThat(s.pushJson(push("{\"app\":\"api\"}", t0, "user=bob x")).statusCode()).isEqualTo(204);
            assertThat(s.flush().statusCode()).isEqualTo(204);
            List<String> all = lines(s, "{app=~\".+\"}", t0 - SEC, now + SEC);
            assertThat(all).containsExactly("user=alice b", "user=bob a", "user=bob c", "user=bob x");

            String start = String.valueOf((t0 - 3600 * SEC) / SEC);
            HttpResponse<String> added = delete(s, "POST", "?query=" + enc("{app=\"web\"} |= \"user=bob\"") + "&start="
                    + start + "&max_interval=1h", "fake");
            assertThat(added.statusCode()).as(added.body()).isEqualTo(204);

            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, now + SEC)).containsExactly("user=alice b", "user=bob x");
            HttpResponse<String> counted = s.get("/loki/api/v1/query?query="
                    + enc("sum(count_over_time({app=\"web\"}[1h]))") + "&time=" + (now + SEC));
            assertThat(JSON.readTree(counted.body()).path("data").path("result").get(0).path("value").get(1).asText())
                    .isEqualTo("1");

            HttpResponse<String> listed = delete(s, "GET", "", "fake");
            assertThat(listed.statusCode()).isEqualTo(200);
            assertThat(listed.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            JsonNode list = JSON.readTree(listed.body());
            assertThat(list).hasSize(1);
            JsonNode request = list.get(0);
            assertThat(request.path("status").asText()).isEqualTo("received");
            assertThat(request.path("query").asText()).isEqualTo("{app=\"web\"} |= \"user=bob\"");
            assertThat(request.path("request_id").asText()).matches("[0-9a-f]{8}");
            assertThat(request.path("start_time").isNumber()).isTrue();
            assertThat(request.path("start_time").asLong()).isEqualTo(Long.parseLong(start));
            assertThat(request.path("end_time").asDouble()).isGreaterThan(request.path("start_time").asDouble());
            assertThat(JSON.readTree(delete(s, "GET", "", "other").body())).isEmpty(); // per tenant

            HttpResponse<String> unknown = delete(s, "DELETE", "?request_id=00000000", "fake");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.body()).contains("could not find delete request with given id");
            assertThat(delete(s, "DELETE", "?request_id=" + request.path("request_id").asText(), "other").statusCode())
                    .isEqualTo(404);
            assertThat(delete(s, "DELETE", "?request_id=" + request.path("request_id").asText(), "fake").statusCode())
                    .isEqualTo(204);
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, now + SEC)).isEqualTo(all);
            assertThat(JSON.readTree(delete(s, "GET", "", "fake").body())).isEmpty();
        }
    }

    @Test
    void deleteRequest_badParameters_400_disabledTenant_403() throws Exception {
        try (TestServer s = TestServer.start(dir, "overrides: { locked: { deletion_mode: disabled } }")) {
            String q = "?query=" + enc("{app=\"web\"}");
            Map<String, String> cases = Map.of(
                    "?start=1700000000", "query not set",
                    "?query=" + enc("{app=") + "&start=1700000000", "invalid query expression",
                    "?query=" + enc("count_over_time({app=\"a\"}[1m])") + "&start=1700000000", "invalid query expression",
                    q, "start time not set",
                    q + "&start=17", "invalid start time: require unix seconds or RFC3339 format",
                    q + "&start=1700000000&end=yesterday", "invalid end time: require unix seconds or RFC3339 format",
                    q + "&start=1700000000&end=4102444800", "deletes in the future are not allowed",
                    q + "&start=1700000100&end=1700000000", "start time can't be greater than end time");
            for (Map.Entry<String, String> c : cases.entrySet()) {
                HttpResponse<String> r = delete(s, "POST", c.getKey(), "fake");
                assertThat(r.statusCode()).as(c.getKey()).isEqualTo(400);
                assertThat(r.body()).as(c.getKey()).contains(c.getValue());
            }
            assertThat(delete(s, "POST", q + "&start=2023-11-14T22:13:20Z", "fake").statusCode()).isEqualTo(204);
            HttpResponse<String> locked = delete(s, "POST", q + "&start=1700000000", "locked");
            assertThat(locked.statusCode()).isEqualTo(403);
            assertThat(locked.body()).contains("deletion is not available for this tenant");
            assertThat(delete(s, "GET", "", "locked").statusCode()).isEqualTo(403);
        }
    }

    @Test
    void retention_expiredStreamsHiddenAtOnce_goneFromStoreAfterAPass_indexFilesBounded() throws Exception {
        MovableClock clock = new MovableClock();
        LogbloomConfig config = LogbloomConfig.parse("""
                compactor:
                  retention_enabled: true
                  retention_delete_delay: 0s
                  compaction_interval: 24h
                limits:
                  retention_period: 24h
                  retention_stream:
                    - selector: '{app="audit"}'
                      priority: 1
                      period: 72h
                """, Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            long t0 = clock.millis() * 1_000_000L - 60 * SEC;
            int cycles = 6;
            for (int i = 0; i < cycles; i++) {
                assertThat(s.pushJson(push("{\"app\":\"web\"}", t0 + i * SEC, "web " + i)).statusCode()).isEqualTo(204);
                assertThat(s.pushJson(push("{\"app\":\"audit\"}", t0 + i * SEC, "audit " + i)).statusCode()).isEqualTo(204);
                assertThat(s.flush().statusCode()).isEqualTo(204);
            }
            var store = server.objectStore();
            int filesBefore = store.list("index/fake/").size();
            assertThat(filesBefore).isGreaterThanOrEqualTo(cycles);
            Compactor compactor = server.operations().compactor();

            Compactor.PassResult merge = compactor.runOnce();
            assertThat(merge.refsExpired()).isZero();
            long periodsSpanned = store.list("index/fake/").stream().map(k -> k.split("/")[2]).distinct().count();
            assertThat(store.list("index/fake/")).hasSize((int) periodsSpanned); // one file per period after N cycles
            assertThat(periodsSpanned).isLessThanOrEqualTo(2);
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, t0 + cycles * SEC)).hasSize(2 * cycles);

            Map<io.logbloom.chunks.Labels, ?> webStored = s.stored("fake", LabelMatcher.of(LabelMatcher.MatchType.EQUAL,
                    "app", "web"));
            assertThat(webStored).isNotEmpty();
            List<String> webBlooms = webBloomKeys(server);
            assertThat(webBlooms).isNotEmpty().allSatisfy(k -> assertThat(store.exists(k)).isTrue());
            int objectsBefore = store.list("fake/").size();

            clock.millis.addAndGet(Duration.ofHours(48).toMillis());
            long now = clock.millis() * 1_000_000L;
            // hidden at once, before any compaction pass
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, now)).containsExactly(
                    "audit 0", "audit 1", "audit 2", "audit 3", "audit 4", "audit 5");

            Compactor.PassResult expire = compactor.runOnce();

            assertThat(expire.refsExpired()).isPositive();
            assertThat(expire.objectsDeleted()).isPositive();
            assertThat(expire.bytesDeleted()).isPositive();
            assertThat(s.stored("fake", LabelMatcher.of(LabelMatcher.MatchType.EQUAL, "app", "web"))).isEmpty();
            assertThat(s.stored("fake", LabelMatcher.of(LabelMatcher.MatchType.EQUAL, "app", "audit"))).isNotEmpty();
            assertThat(webBlooms).allSatisfy(k -> assertThat(store.exists(k)).isFalse());
            assertThat(store.list("fake/").size()).isLessThanOrEqualTo(objectsBefore);
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, now)).hasSize(cycles);
            String metrics = s.get("/metrics").body();
            assertThat(metrics).contains("logbloom_compactor_deleted_objects_total")
                    .contains("logbloom_compactor_deleted_bytes_total").contains("logbloom_compactor_expired_refs_total");

            clock.millis.addAndGet(Duration.ofHours(48).toMillis());
            compactor.runOnce();
            assertThat(store.list("index/fake/")).isEmpty(); // audit expired too: nothing left to index
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, clock.millis() * 1_000_000L)).isEmpty();
        }
    }

    @Test
    void filterAndDelete_passAfterCancelPeriod_linesPhysicallyGone_requestProcessed_queriesUnchanged() throws Exception {
        MovableClock clock = new MovableClock();
        LogbloomConfig config = LogbloomConfig.parse("""
                compactor:
                  retention_delete_delay: 0s
                  compaction_interval: 24h
                """, Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            long t0 = clock.millis() * 1_000_000L - 60 * SEC;
            assertThat(s.pushJson(push("{\"app\":\"web\"}", t0, "user=bob a", "user=alice b", "user=bob c")).statusCode())
                    .isEqualTo(204);
            assertThat(s.pushJson(push("{\"app\":\"api\"}", t0, "user=bob x")).statusCode()).isEqualTo(204);
            assertThat(s.flush().statusCode()).isEqualTo(204);
            assertThat(storedLines(server)).containsExactly("user=alice b", "user=bob a", "user=bob c", "user=bob x");
            HttpResponse<String> added = delete(s, "POST", "?query=" + enc("{app=\"web\"} |= \"user=bob\"") + "&start="
                    + (t0 / SEC - 3600), "fake");
            assertThat(added.statusCode()).as(added.body()).isEqualTo(204);
            List<String> visible = lines(s, "{app=~\".+\"}", t0 - SEC, t0 + 10 * SEC);
            assertThat(visible).containsExactly("user=alice b", "user=bob x");
            Compactor compactor = server.operations().compactor();

            Compactor.PassResult early = compactor.runOnce(); // still inside delete_request_cancel_period (24h)
            assertThat(early.requestsProcessed()).isZero();
            assertThat(JSON.readTree(delete(s, "GET", "", "fake").body()).get(0).path("status").asText())
                    .isEqualTo("received");
            assertThat(storedLines(server)).contains("user=bob a");

            clock.millis.addAndGet(Duration.ofHours(25).toMillis());
            Compactor.PassResult pass = compactor.runOnce();

            assertThat(pass.requestsProcessed()).isEqualTo(1);
            assertThat(pass.linesDeleted()).isEqualTo(2);
            assertThat(pass.objectsDeleted()).isPositive(); // the old object, swept at once with a 0s delay
            JsonNode listed = JSON.readTree(delete(s, "GET", "", "fake").body());
            assertThat(listed.get(0).path("status").asText()).isEqualTo("processed");
            assertThat(storedLines(server)).containsExactly("user=alice b", "user=bob x");
            assertThat(s.stored("fake", LabelMatcher.of(LabelMatcher.MatchType.EQUAL, "app", "web")).values())
                    .singleElement().satisfies(entries -> assertThat(entries).singleElement()
                            .satisfies(e -> assertThat(e.timestampNanos()).isEqualTo(t0 + 1)));
            assertThat(lines(s, "{app=~\".+\"}", t0 - SEC, t0 + 10 * SEC)).isEqualTo(visible);
            HttpResponse<String> cancel = delete(s, "DELETE", "?request_id=" + listed.get(0).path("request_id").asText(),
                    "fake");
            assertThat(cancel.statusCode()).isEqualTo(400);
            assertThat(s.get("/metrics").body()).contains("logbloom_compactor_deleted_lines_total 2");
        }
    }

    @Test
    void cancel_pastCancelPeriod_refusedWithLokisMessage_unlessForced() throws Exception {
        MovableClock clock = new MovableClock();
        LogbloomConfig config = LogbloomConfig.parse("compactor: { delete_request_cancel_period: 2h, compaction_interval: 24h }",
                Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            long start = clock.millis() / 1000 - 3600;
            for (int i = 0; i < 2; i++) {
                assertThat(delete(s, "POST", "?query=" + enc("{app=\"web\"} |= \"n" + i + "\"") + "&start=" + start,
                        "fake").statusCode()).isEqualTo(204);
            }
            JsonNode listed = JSON.readTree(delete(s, "GET", "", "fake").body());
            String first = listed.get(0).path("request_id").asText();
            String second = listed.get(1).path("request_id").asText();

            clock.millis.addAndGet(Duration.ofHours(2).toMillis()); // at the deadline: still cancellable
            assertThat(delete(s, "DELETE", "?request_id=" + first, "fake").statusCode()).isEqualTo(204);
            clock.millis.addAndGet(1);
            HttpResponse<String> late = delete(s, "DELETE", "?request_id=" + second, "fake");
            assertThat(late.statusCode()).isEqualTo(400);
            assertThat(late.body()).contains("Cancellation of partially completed delete request or delete request past "
                    + "the deadline of 2h0m0s since its creation is not allowed. To force, use the ?force query parameter");
            assertThat(JSON.readTree(delete(s, "GET", "", "fake").body())).hasSize(1);
            assertThat(delete(s, "DELETE", "?request_id=" + second + "&force=false", "fake").statusCode()).isEqualTo(400);
            assertThat(delete(s, "DELETE", "?request_id=" + second + "&force=true", "fake").statusCode()).isEqualTo(204);
            assertThat(JSON.readTree(delete(s, "GET", "", "fake").body())).isEmpty();
        }
    }

    @Test
    void labelsSeriesStatsAndVolume_hideExpiredAndPendingDeletedData_asQueriesDo() throws Exception {
        MovableClock clock = new MovableClock();
        LogbloomConfig config = LogbloomConfig.parse("""
                compactor: { retention_enabled: true, compaction_interval: 24h }
                limits:
                  retention_period: 72h
                  retention_stream: [ { selector: '{app="debug"}', priority: 1, period: 24h } ]
                """, Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        try (TestServer s = TestServer.attach(server)) {
            long t0 = clock.millis() * 1_000_000L - 60 * SEC;
            assertThat(s.pushJson(push("{\"app\":\"web\",\"env\":\"prod\"}", t0, "user=bob a", "user=alice b"))
                    .statusCode()).isEqualTo(204);
            assertThat(s.pushJson(push("{\"app\":\"api\",\"team\":\"core\"}", t0, "user=bob x")).statusCode())
                    .isEqualTo(204);
            assertThat(s.pushJson(push("{\"app\":\"debug\"}", t0, "trace 1", "trace 2")).statusCode()).isEqualTo(204);
            assertThat(s.flush().statusCode()).isEqualTo(204);
            assertThat(s.pushJson(push("{\"app\":\"api\",\"team\":\"core\"}", t0 + 5 * SEC, "user=bob y"))
                    .statusCode()).isEqualTo(204); // unflushed: hidden from the in-memory answers too
            String range = "start=" + (t0 - SEC) + "&end=" + (t0 + 10 * SEC);
            assertThat(values(s, "/loki/api/v1/label/app/values?" + range)).containsExactly("api", "debug", "web");
            assertThat(stats(s, range).path("entries").asLong()).isEqualTo(6);

            String start = String.valueOf((t0 - 3600 * SEC) / SEC);
            assertThat(delete(s, "POST", "?query=" + enc("{app=\"api\"} |= \"user=bob\"") + "&start=" + start, "fake")
                    .statusCode()).isEqualTo(204);

            assertThat(values(s, "/loki/api/v1/label/app/values?" + range)).containsExactly("debug", "web");
            assertThat(values(s, "/loki/api/v1/labels?" + range)).containsExactly("app", "env", "service_name"); // no "team"
            assertThat(JSON.readTree(s.get("/loki/api/v1/series?match[]=" + enc("{app=~\".+\"}") + "&" + range).body())
                    .path("data")).extracting(n -> n.path("app").asText()).containsExactlyInAnyOrder("debug", "web");
            JsonNode stats = stats(s, range);
            assertThat(stats.path("streams").asLong()).isEqualTo(2);
            assertThat(stats.path("entries").asLong()).isEqualTo(4);
            JsonNode volume = JSON.readTree(s.get("/loki/api/v1/index/volume?query=" + enc("{app=~\".+\"}") + "&"
                    + range).body()).path("data").path("result");
            assertThat(volume).extracting(n -> n.path("metric").path("app").asText()).containsExactlyInAnyOrder("debug", "web");
            assertThat(values(s, "/loki/api/v1/label/app/values?start=" + (t0 + 30 * SEC) + "&end=" + (t0 + 40 * SEC)))
                    .as("a range outside any data and request").isEmpty();

            clock.millis.addAndGet(Duration.ofHours(25).toMillis()); // debug's 24h retention is over, the rest's 72h not
            long now = clock.millis() * 1_000_000L;
            String wide = "start=" + (t0 - SEC) + "&end=" + now;
            assertThat(values(s, "/loki/api/v1/label/app/values?" + wide)).containsExactly("web");
            assertThat(stats(s, wide).path("entries").asLong()).isEqualTo(2);
        }
    }

    private static List<String> values(TestServer s, String target) throws IOException, InterruptedException {
        HttpResponse<String> r = s.get(target);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        JSON.readTree(r.body()).path("data").forEach(v -> out.add(v.asText()));
        return out;
    }

    private static JsonNode stats(TestServer s, String range) throws IOException, InterruptedException {
        HttpResponse<String> r = s.get("/loki/api/v1/index/stats?query=" + enc("{app=~\".+\"}") + "&" + range);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void goDuration_writesDurationsAsLokisMessagesDo() {
        assertThat(DeleteRoutes.goDuration(Duration.ofHours(24))).isEqualTo("24h0m0s");
        assertThat(DeleteRoutes.goDuration(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(DeleteRoutes.goDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(DeleteRoutes.goDuration(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(DeleteRoutes.goDuration(Duration.ofMinutes(61).plusSeconds(5))).isEqualTo("1h1m5s");
        assertThat(DeleteRoutes.goDuration(Duration.ZERO)).isEqualTo("0s");
    }

    /** Every line in the tenant's stored columnar objects, whether indexed or not, sorted. */
    private static List<String> storedLines(LogbloomServer server) throws IOException {
        List<String> lines = new ArrayList<>();
        var store = server.objectStore();
        for (String key : store.list("fake/")) {
            assertThat(key).endsWith(".lbo");
            var reader = new io.logbloom.chunks.ColumnarObjectReader(io.logbloom.chunks.RangeSource.ofObject(store, key));
            for (int b = 0; b < reader.directory().blocks().size(); b++) {
                reader.entries(b).forEach(e -> lines.add(e.line()));
            }
        }
        lines.sort(null);
        return lines;
    }

    /** The series bloom keys of the web stream, as the ingester's SeriesBloomStore names them. */
    private static List<String> webBloomKeys(LogbloomServer server) throws IOException {
        List<String> keys = new ArrayList<>();
        IndexConfig index = IndexConfig.defaults();
        for (var series : server.ingester().index().chunks("fake",
                List.of(LabelMatcher.of(LabelMatcher.MatchType.EQUAL, "app", "web")), 0, Long.MAX_VALUE)) {
            for (var ref : series.chunks()) {
                String key = SeriesBloomStore.key("fake", ref.fingerprint(), index.periodNumber(ref.fromNanos()));
                if (!keys.contains(key)) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }
}
