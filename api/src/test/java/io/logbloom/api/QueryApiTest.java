package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.logbloom.ingest.proto.PushProto;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Every query route and parameter form over HTTP against a real server fed by protobuf and JSON pushes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class QueryApiTest {
    private static final long SEC = 1_000_000_000L;

    @TempDir
    static Path dir;

    private QueryFixtureTest.Fixture f;
    private long t0;

    @BeforeAll
    void load() throws Exception {
        // detected_level would split the fixture's streams by level (as in Loki); these tests pin shapes without it
        f = QueryFixtureTest.Fixture.start(java.util.Objects.requireNonNull(dir, "temp dir"),
                "limits: { discover_log_levels: false }");
        t0 = (System.currentTimeMillis() / 1000 - 600) * SEC;
        PushProto.PushRequest proto = PushProto.PushRequest.newBuilder()
                .addStreams(TestServer.protoStream("{app=\"api\", env=\"prod\"}", t0,
                        List.of("level=info msg=\"GET /a\" status=200", "level=error msg=\"GET /b\" status=500",
                                "level=info msg=\"POST /c\" status=201"),
                        Map.of("trace_id", "abc")))
                .build();
        HttpResponse<String> p1 = f.pushProtobuf(TestServer.snappyProtobuf(proto));
        assertThat(p1.statusCode()).as(p1.body()).isEqualTo(204);
        String json = "{\"streams\":[{\"stream\":{\"app\":\"db\",\"env\":\"prod\"},\"values\":["
                + "[\"" + (t0 + 10 * SEC) + "\",\"{\\\"level\\\":\\\"warn\\\",\\\"took\\\":12}\",{\"user\":\"u1\"}],"
                + "[\"" + (t0 + 20 * SEC) + "\",\"{\\\"level\\\":\\\"info\\\",\\\"took\\\":3}\"]]}]}";
        HttpResponse<String> p2 = f.pushJson(json);
        assertThat(p2.statusCode()).as(p2.body()).isEqualTo(204);
    }

    @AfterAll
    void stop() {
        f.close();
    }

    private String range() {
        return "&start=" + (t0 - SEC) + "&end=" + (t0 + 60 * SEC);
    }

    private static List<String> lines(JsonNode body) {
        List<String> out = new ArrayList<>();
        for (JsonNode stream : body.get("data").get("result")) {
            for (JsonNode v : stream.get("values")) {
                out.add(v.get(1).asText());
            }
        }
        return out;
    }

    @Test
    void queryRange_logs_unflushedThenFlushed_shapeAndDirection() throws Exception {
        JsonNode body = f.ok("/loki/api/v1/query_range?query=" + enc("{env=\"prod\"}") + range());
        assertThat(body.get("status").asText()).isEqualTo("success");
        assertThat(body.get("data").get("resultType").asText()).isEqualTo("streams");
        JsonNode first = body.get("data").get("result").get(0);
        assertThat(first.get("stream").isObject()).isTrue();
        assertThat(first.get("values").get(0).get(0).isTextual()).isTrue();
        assertThat(lines(body)).hasSize(5);
        assertThat(body.get("data").get("stats").get("summary").has("execTime")).isTrue();
        assertThat(body.get("data").get("stats").get("ingester").get("totalLinesSent").asLong()).isEqualTo(5);

        f.flush();
        JsonNode fwd = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"api\"}") + range()
                + "&direction=forward&limit=2");
        assertThat(lines(fwd)).containsExactly("level=info msg=\"GET /a\" status=200",
                "level=error msg=\"GET /b\" status=500");
        JsonNode bwd = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"api\"}") + range() + "&limit=1");
        assertThat(lines(bwd)).containsExactly("level=info msg=\"POST /c\" status=201");
        assertThat(bwd.get("data").get("stats").get("querier").get("store").get("totalChunksRef").asLong())
                .isPositive();
    }

    @Test
    void queryRange_postForm_rfc3339_since_andPipeline() throws Exception {
        String start = Instant.ofEpochSecond(t0 / SEC - 1).toString();
        String end = Instant.ofEpochSecond(t0 / SEC + 60).toString();
        HttpResponse<String> r = f.postForm("/loki/api/v1/query_range", "query="
                + enc("{app=\"db\"} | json | level=\"warn\"") + "&start=" + enc(start) + "&end=" + enc(end));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = QueryFixtureTest.JSON.readTree(r.body());
        assertThat(lines(body)).containsExactly("{\"level\":\"warn\",\"took\":12}");
        assertThat(body.get("data").get("result").get(0).get("stream").get("level").asText()).isEqualTo("warn");
        JsonNode since = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"db\"}") + "&since=1h");
        assertThat(lines(since)).hasSize(2);
        JsonNode floatSeconds = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"db\"}") + "&start="
                + (t0 / SEC - 1) + ".5&end=" + (t0 / SEC + 60) + ".25");
        assertThat(lines(floatSeconds)).hasSize(2);
    }

    @Test
    void categorizeLabels_thirdElementWithMetadataAndParsed() throws Exception {
        JsonNode body = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"db\"} | json") + range()
                + "&direction=forward", "X-Loki-Response-Encoding-Flags", "categorize-labels");
        assertThat(body.get("data").get("encodingFlags").get(0).asText()).isEqualTo("categorize-labels");
        JsonNode stream = body.get("data").get("result").get(0);
        assertThat(stream.get("stream").has("level")).isFalse();
        JsonNode v0 = stream.get("values").get(0);
        assertThat(v0.get(2).get("structuredMetadata").get("user").asText()).isEqualTo("u1");
        assertThat(v0.get(2).get("parsed").get("level").asText()).isEqualTo("warn");
        JsonNode plain = f.ok("/loki/api/v1/query_range?query=" + enc("{app=\"db\"}") + range());
        assertThat(plain.get("data").get("result").get(0).get("values").get(0).size()).isEqualTo(2);
    }

    @Test
    void metricQueries_matrixVectorScalar() throws Exception {
        JsonNode matrix = f.ok("/loki/api/v1/query_range?query=" + enc("sum by (app) (count_over_time({env=\"prod\"}[1m]))")
                + range() + "&step=60000ms");
        assertThat(matrix.get("data").get("resultType").asText()).isEqualTo("matrix");
        double total = 0;
        for (JsonNode s : matrix.get("data").get("result")) {
            assertThat(s.get("metric").has("app")).isTrue();
            for (JsonNode v : s.get("values")) {
                assertThat(v.get(0).isNumber()).isTrue();
                total += Double.parseDouble(v.get(1).asText());
            }
        }
        assertThat(total).isPositive();
        JsonNode vector = f.ok("/loki/api/v1/query?query=" + enc("count_over_time({app=\"api\"}[1h])") + "&time="
                + (t0 + 60 * SEC));
        assertThat(vector.get("data").get("resultType").asText()).isEqualTo("vector");
        assertThat(vector.get("data").get("result").get(0).get("value").get(1).asText()).isEqualTo("3");
        JsonNode health = f.ok("/loki/api/v1/query?query=" + enc("vector(1)+vector(1)") + "&time=4");
        assertThat(health.get("data").get("result").get(0).get("value").get(0).asDouble()).isEqualTo(4.0);
        assertThat(health.get("data").get("result").get(0).get("value").get(1).asText()).isEqualTo("2");
        JsonNode scalar = f.ok("/loki/api/v1/query?query=" + enc("1+1") + "&time=4");
        assertThat(scalar.get("data").get("resultType").asText()).isEqualTo("scalar");
        assertThat(scalar.get("data").get("result").get(1).asText()).isEqualTo("2");
    }

    @Test
    void labelsSeriesStatsVolume_andFormatQuery() throws Exception {
        JsonNode labels = f.ok("/loki/api/v1/labels?" + range().substring(1));
        assertThat(labels.get("data")).extracting(JsonNode::asText).contains("app", "env");
        JsonNode values = f.ok("/loki/api/v1/label/app/values?" + range().substring(1));
        assertThat(values.get("data")).extracting(JsonNode::asText).containsExactly("api", "db");
        JsonNode filtered = f.ok("/loki/api/v1/label/app/values?query=" + enc("{app=~\"d.*\"}") + range());
        assertThat(filtered.get("data")).extracting(JsonNode::asText).containsExactly("db");
        JsonNode series = f.ok("/loki/api/v1/series?match[]=" + enc("{app=\"api\"}") + "&match[]="
                + enc("{app=\"db\"}") + range());
        assertThat(series.get("data")).hasSize(2);
        HttpResponse<String> seriesPost = f.postForm("/loki/api/v1/series", "match[]=" + enc("{app=\"db\"}")
                + range());
        assertThat(QueryFixtureTest.JSON.readTree(seriesPost.body()).get("data").get(0).get("app").asText())
                .isEqualTo("db");
        JsonNode stats = f.ok("/loki/api/v1/index/stats?query=" + enc("{env=\"prod\"}") + range());
        assertThat(stats.get("streams").asLong()).isEqualTo(2);
        assertThat(stats.get("entries").asLong()).isEqualTo(5);
        assertThat(stats.has("chunks")).isTrue();
        assertThat(stats.has("bytes")).isTrue();
        JsonNode volume = f.ok("/loki/api/v1/index/volume?query=" + enc("{env=\"prod\"}") + range()
                + "&targetLabels=app&aggregateBy=labels");
        assertThat(volume.get("data").get("resultType").asText()).isEqualTo("vector");
        assertThat(volume.get("data").get("result")).hasSize(2);
        JsonNode volumeRange = f.ok("/loki/api/v1/index/volume_range?query=" + enc("{env=\"prod\"}") + range()
                + "&step=30s");
        assertThat(volumeRange.get("data").get("resultType").asText()).isEqualTo("matrix");
        JsonNode formatted = f.ok("/loki/api/v1/format_query?query=" + enc("{app=\"db\"}|json"));
        assertThat(formatted.get("data").asText()).isEqualTo("{app=\"db\"} | json");
        JsonNode detected = f.ok("/loki/api/v1/detected_labels?query=" + enc("{env=\"prod\"}") + range());
        assertThat(detected.get("detectedLabels")).extracting(n -> n.get("label").asText()).contains("app");
        JsonNode fields = f.ok("/loki/api/v1/detected_fields?query=" + enc("{app=\"db\"} | json") + range());
        assertThat(fields.get("fields")).extracting(n -> n.get("label").asText()).contains("user", "level", "took");
    }

    @Test
    void instantQuery_refusesLogQueriesAsLokiDoes() throws Exception {
        for (String logQuery : List.of("{app=\"api\"}", "{app=\"api\"} |= \"GET\" | logfmt | line_format \"{{.path}}\"")) {
            HttpResponse<String> refused = f.get("/loki/api/v1/query?query=" + enc(logQuery) + "&time=" + (t0 + 60 * SEC));
            assertThat(refused.statusCode()).as(logQuery).isEqualTo(400);
            assertThat(refused.body()).as(logQuery).isEqualTo("log queries are not supported as an instant query type, "
                    + "please change your query to a range query type\n"); // Go's http.Error ends the text with a newline
        }
        // the query is parsed first: a broken one is a parse error, and bad parameters of a log query are not looked at
        assertThat(f.get("/loki/api/v1/query?query=" + enc("{app=\"api\"") + "&time=1").body()).contains("parse error");
        assertThat(f.get("/loki/api/v1/query?query=" + enc("{app=\"api\"}") + "&time=x&limit=0").body())
                .startsWith("log queries are not supported");
        // the same selector in a metric query is answered
        JsonNode count = f.ok("/loki/api/v1/query?query=" + enc("count_over_time({app=\"api\"}[1h])") + "&time="
                + (t0 + 60 * SEC));
        assertThat(count.get("data").get("resultType").asText()).isEqualTo("vector");
    }

    @Test
    void errors_400WithLokiText_404UnknownRoute() throws Exception {
        HttpResponse<String> bad = f.get("/loki/api/v1/query_range?query=" + enc("{app=\"api\"") + range());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("parse error");
        HttpResponse<String> limit = f.get("/loki/api/v1/query_range?query=" + enc("{app=\"api\"}") + "&limit=0");
        assertThat(limit.statusCode()).isEqualTo(400);
        assertThat(limit.body()).contains("limit must be a positive value");
        HttpResponse<String> tooMany = f.get("/loki/api/v1/query_range?query=" + enc("{app=\"api\"}") + "&limit=5001");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("max entries limit per query exceeded");
        HttpResponse<String> step = f.get("/loki/api/v1/query_range?query=" + enc("rate({app=\"api\"}[1m])")
                + range() + "&step=0");
        assertThat(step.statusCode()).isEqualTo(400);
        HttpResponse<String> noMatch = f.get("/loki/api/v1/series");
        assertThat(noMatch.statusCode()).isEqualTo(400);
        assertThat(noMatch.body()).contains("0 matcher groups supplied");
        assertThat(f.get("/loki/api/v1/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void bloomsOffHeader_sameResult() throws Exception {
        f.flush();
        String q = "/loki/api/v1/query_range?query=" + enc("{env=\"prod\"} | trace_id=\"abc\"") + range();
        JsonNode on = f.ok(q);
        JsonNode off = f.ok(q, "X-Logbloom-Blooms", "off");
        assertThat(on.get("data").get("result")).isEqualTo(off.get("data").get("result"));
        assertThat(lines(on)).hasSize(3);
        assertThat(on.get("data").get("stats").get("index").get("usedBloomFilters").asBoolean()).isTrue();
        assertThat(off.get("data").get("stats").get("index").get("usedBloomFilters").asBoolean()).isFalse();
        String metrics = f.get("/metrics").body();
        assertThat(metrics).contains("logbloom_querier_chunks_total", "logbloom_querier_chunks_skipped_total",
                "logbloom_querier_chunks_fetched_total",
                "logbloom_querier_request_duration_seconds_bucket{route=\"query_range\"");
    }
}
