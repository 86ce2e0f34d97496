package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays every request of {@code drilldown-requests.txt} (what Grafana Logs Drilldown sends) against a
 * server holding generated multi-service data and checks the response shape the app parses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class DrilldownRequestsTest {
    private static final long SEC = 1_000_000_000L;
    private static final int LINES_PER_SERVICE = 120;

    @TempDir
    static Path dir;

    private TestServer server;
    private long start;
    private long end;

    @BeforeAll
    void load() throws Exception {
        server = TestServer.start(dir, "pattern_ingester: { enabled: true }\n"); // off by default, as in Loki
        long t0 = (System.currentTimeMillis() / 1000 - 900) * SEC;
        Random r = new Random(13);
        StringBuilder json = new StringBuilder("{\"streams\":[");
        String[][] services = {{"checkout", "shop"}, {"cart", "shop"}, {"auth", "identity"}};
        for (int s = 0; s < services.length; s++) {
            json.append(s > 0 ? "," : "").append("{\"stream\":{\"app\":\"").append(services[s][0])
                    .append("\",\"namespace\":\"").append(services[s][1]).append("\"},\"values\":[");
            for (int i = 0; i < LINES_PER_SERVICE; i++) {
                String level = i % 4 == 0 ? "error" : "info";
                String line = switch (s) {
                    case 0 -> "level=" + level + " method=" + (i % 2 == 0 ? "GET" : "POST") + " path=/api/items/"
                            + r.nextInt(100) + " status=" + (level.equals("error") ? 500 : 200) + " duration="
                            + r.nextInt(900) + "ms";
                    case 1 -> "{\"level\":\"" + level + "\",\"msg\":\"cart updated\",\"user\":{\"id\":\"u"
                            + r.nextInt(50) + "\",\"tier\":\"" + (i % 3 == 0 ? "gold" : "free") + "\"},\"items\":"
                            + r.nextInt(9) + "}";
                    default -> (level.equals("error") ? "ERROR: login failed for user " : "INFO: login ok for user ")
                            + "u" + r.nextInt(50);
                };
                json.append(i > 0 ? "," : "").append("[\"").append(t0 + i * 5L * SEC).append("\",")
                        .append(QueryFixtureTest.JSON.writeValueAsString(line)).append(",{\"trace_id\":\"t")
                        .append(s).append('-').append(i).append("\"}]");
            }
            json.append("]}");
        }
        json.append("]}");
        HttpResponse<String> pushed = server.pushJson(json.toString());
        assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(204);
        HttpResponse<String> otlp = server.post("/otlp/v1/logs", OtlpRouteTest.otlpJson("payments", t0, 40)
                .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
        assertThat(otlp.statusCode()).as(otlp.body()).isEqualTo(200);
        assertThat(server.flush().statusCode()).isEqualTo(204);
        start = t0 - SEC;
        end = t0 + 700 * SEC;
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @TestFactory
    List<DynamicTest> everyListedRequest() throws IOException {
        List<QueryGrafanaRequestsTest.Line> all = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/drilldown-requests.txt")) {
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                String[] p = l.split(" ~~ ");
                assertThat(p).as(l).hasSize(5);
                all.add(new QueryGrafanaRequestsTest.Line(p[0].trim(), p[1].trim(), p[2].trim(), p[3].trim(),
                        p[4].trim()));
            }
        }
        assertThat(all).hasSizeGreaterThanOrEqualTo(20);
        List<DynamicTest> tests = new ArrayList<>();
        for (QueryGrafanaRequestsTest.Line line : all) {
            tests.add(DynamicTest.dynamicTest(line.name(), () -> check(line)));
        }
        return tests;
    }

    private String encodedQuery(String rawQuery) {
        List<String> parts = new ArrayList<>();
        for (String kv : rawQuery.split("&")) {
            int eq = kv.indexOf('=');
            String v = kv.substring(eq + 1).replace("{START}", Long.toString(start))
                    .replace("{END}", Long.toString(end))
                    .replace("{START_ISO}", Instant.ofEpochSecond(0, start).toString())
                    .replace("{END_ISO}", Instant.ofEpochSecond(0, end).toString());
            parts.add(URLEncoder.encode(kv.substring(0, eq), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(v, StandardCharsets.UTF_8));
        }
        return String.join("&", parts);
    }

    private void check(QueryGrafanaRequestsTest.Line line) throws Exception {
        int q = line.path().indexOf('?');
        HttpRequest.Builder b = server.request(line.path().substring(0, q) + "?"
                + encodedQuery(line.path().substring(q + 1))).GET();
        if (!line.headers().equals("-")) {
            for (String h : line.headers().split(";")) {
                int eq = h.indexOf('=');
                b.header(h.substring(0, eq), h.substring(eq + 1));
            }
        }
        HttpResponse<String> r = server.send(b);
        assertThat(r.statusCode()).as(line.name() + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        JsonNode body = QueryFixtureTest.JSON.readTree(r.body());
        JsonNode data = body.get("data");
        switch (line.expect()) {
            case "limits" -> {
                JsonNode limits = body.get("limits");
                assertThat(limits.get("discover_log_levels").asBoolean()).isTrue();
                assertThat(limits.get("discover_service_name")).isNotEmpty();
                assertThat(limits.get("volume_enabled").asBoolean()).isTrue();
                assertThat(limits.get("otlp_config").get("ResourceAttributes").get("AttributesConfig").get(0)
                        .get("Attributes")).extracting(JsonNode::asText).contains("service.name");
                assertThat(body.get("pattern_ingester_enabled").asBoolean()).isTrue();
                assertThat(body.get("version").asText()).isNotEmpty();
            }
            case "service-volume" -> assertThat(metricValues(data, "service_name"))
                    .containsExactlyInAnyOrder("checkout", "cart", "auth", "payments");
            case "namespace-volume" -> assertThat(metricValues(data, "namespace"))
                    .containsExactlyInAnyOrder("shop", "identity");
            case "levels-matrix" -> {
                assertThat(data.get("resultType").asText()).isEqualTo("matrix");
                assertThat(metricValues(data, "detected_level")).containsExactlyInAnyOrder("error", "info");
                long sum = 0;
                for (JsonNode s : data.get("result")) {
                    for (JsonNode v : s.get("values")) {
                        sum += Long.parseLong(v.get(1).asText());
                    }
                }
                assertThat(sum).isPositive();
            }
            case "detected-labels" -> {
                assertThat(body.get("detectedLabels")).isNotEmpty().allSatisfy(n -> {
                    assertThat(n.get("label").isTextual()).isTrue();
                    assertThat(n.get("cardinality").asInt()).isPositive();
                });
                assertThat(body.get("detectedLabels")).extracting(n -> n.get("label").asText()).contains("namespace");
            }
            case "fields-logfmt" -> {
                JsonNode method = field(body, "method");
                assertThat(method.get("parsers")).extracting(JsonNode::asText).containsExactly("logfmt");
                assertThat(method.get("cardinality").asInt()).isEqualTo(2);
                assertThat(field(body, "status").get("type").asText()).isEqualTo("int");
                assertThat(field(body, "duration").get("type").asText()).isEqualTo("duration");
                assertThat(field(body, "detected_level").get("parsers").isNull()).isTrue();
                assertThat(field(body, "trace_id").get("parsers").isNull()).isTrue();
            }
            case "fields-json" -> {
                JsonNode tier = field(body, "user_tier");
                assertThat(tier.get("parsers")).extracting(JsonNode::asText).containsExactly("json");
                assertThat(tier.get("jsonPath")).extracting(JsonNode::asText).containsExactly("user", "tier");
                assertThat(field(body, "items").get("type").asText()).isEqualTo("int");
            }
            case "fields-otlp" -> {
                assertThat(field(body, "span_id").get("parsers").isNull()).isTrue();
                assertThat(field(body, "severity_text").get("cardinality").asInt()).isEqualTo(2);
                assertThat(field(body, "detected_level").get("cardinality").asInt()).isEqualTo(2);
            }
            case "field-values" -> assertThat(body.get("values")).extracting(JsonNode::asText)
                    .containsExactly("GET", "POST");
            case "level-values" -> assertThat(body.get("values")).extracting(JsonNode::asText)
                    .containsExactly("error", "info");
            case "patterns" -> {
                assertThat(body.get("status").asText()).isEqualTo("success");
                assertThat(data).isNotEmpty();
                long total = 0;
                for (JsonNode p : data) {
                    assertThat(p.get("pattern").asText()).contains("<_>");
                    assertThat(p.get("level").asText()).isIn("error", "info");
                    for (JsonNode s : p.get("samples")) {
                        assertThat(s.get(0).isIntegralNumber()).isTrue();
                        assertThat(s.get(0).asLong()).isBetween(start / SEC - 120, end / SEC);
                        total += s.get(1).asLong();
                    }
                }
                assertThat(total).isEqualTo(LINES_PER_SERVICE);
            }
            case "logs-categorized" -> {
                JsonNode v = data.get("result").get(0).get("values").get(0);
                assertThat(v.get(2).get("structuredMetadata").has("detected_level")).isTrue();
                assertThat(v.get(2).get("parsed").has("method")).isTrue();
                assertThat(data.get("result").get(0).get("stream").get("service_name").asText()).isEqualTo("checkout");
            }
            case "logs-errors" -> {
                int n = 0;
                for (JsonNode s : data.get("result")) {
                    for (JsonNode v : s.get("values")) {
                        assertThat(v.get(1).asText()).startsWith("level=error");
                        n++;
                    }
                }
                assertThat(n).isEqualTo(LINES_PER_SERVICE / 4);
            }
            case "logs-get" -> {
                int n = 0;
                for (JsonNode s : data.get("result")) {
                    for (JsonNode v : s.get("values")) {
                        assertThat(v.get(1).asText()).contains("method=GET");
                        n++;
                    }
                }
                assertThat(n).isEqualTo(LINES_PER_SERVICE / 2);
            }
            case "method-matrix" -> assertThat(metricValues(data, "method")).containsExactlyInAnyOrder("GET", "POST");
            case "tier-matrix" -> assertThat(metricValues(data, "user_tier")).containsExactlyInAnyOrder("gold", "free");
            case "label-volume-range" -> {
                assertThat(data.get("resultType").asText()).isEqualTo("matrix");
                assertThat(metricValues(data, "namespace")).containsExactly("shop");
            }
            case "otlp-logs" -> {
                JsonNode stream = data.get("result").get(0);
                assertThat(stream.get("stream").get("service_name").asText()).isEqualTo("payments");
                JsonNode meta = stream.get("values").get(0).get(2).get("structuredMetadata");
                assertThat(meta.get("trace_id").asText()).hasSize(32);
                assertThat(meta.get("span_id").asText()).hasSize(16);
                assertThat(meta.get("detected_level").asText()).isIn("error", "info");
            }
            default -> throw new AssertionError("unknown expectation " + line.expect());
        }
    }

    private static Set<String> metricValues(JsonNode data, String label) {
        Set<String> out = new HashSet<>();
        for (JsonNode s : data.get("result")) {
            assertThat(s.get("metric").has(label)).as(s.toString()).isTrue();
            out.add(s.get("metric").get(label).asText());
        }
        return out;
    }

    private static JsonNode field(JsonNode body, String name) {
        for (JsonNode f : body.get("fields")) {
            if (f.get("label").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no detected field " + name + " in " + body);
    }
}
