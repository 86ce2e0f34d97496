package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Replays every request listed in {@code grafana-requests.txt} and checks the response shape Grafana/logcli parse. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class QueryGrafanaRequestsTest {
    private static final long SEC = 1_000_000_000L;

    @TempDir
    static Path dir;

    private QueryFixtureTest.Fixture f;
    private long start;
    private long end;

    @BeforeAll
    void load() throws Exception {
        f = QueryFixtureTest.Fixture.start(dir, "");
        long t0 = (System.currentTimeMillis() / 1000 - 900) * SEC;
        StringBuilder json = new StringBuilder("{\"streams\":[{\"stream\":{\"app\":\"g\",\"env\":\"dev\"},\"values\":[");
        for (int i = 0; i < 60; i++) {
            json.append(i > 0 ? "," : "").append("[\"").append(t0 + i * 10L * SEC).append("\",\"level=")
                    .append(i % 3 == 0 ? "error" : "info").append(" method=").append(i % 2 == 0 ? "GET" : "POST")
                    .append(" status=").append(200 + i % 5).append("\",{\"trace_id\":\"t").append(i).append("\"}]");
        }
        json.append("]}]}");
        HttpResponse<String> r = f.pushJson(json.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        f.flush();
        start = t0 - SEC;
        end = t0 + 700 * SEC;
    }

    @AfterAll
    void stop() {
        f.close();
    }

    record Line(String name, String method, String path, String headers, String expect) {}

    static List<Line> lines() throws IOException {
        List<Line> out = new ArrayList<>();
        try (InputStream in = QueryGrafanaRequestsTest.class.getResourceAsStream("/grafana-requests.txt")) {
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                String[] p = l.split(" ~~ ");
                assertThat(p).as(l).hasSize(5);
                out.add(new Line(p[0].trim(), p[1].trim(), p[2].trim(), p[3].trim(), p[4].trim()));
            }
        }
        return out;
    }

    private String encodedQuery(String rawQuery) {
        List<String> parts = new ArrayList<>();
        for (String kv : rawQuery.split("&")) {
            int eq = kv.indexOf('=');
            String v = kv.substring(eq + 1).replace("{START}", Long.toString(start)).replace("{END}", Long.toString(end));
            parts.add(enc(kv.substring(0, eq)) + "=" + enc(v));
        }
        return String.join("&", parts);
    }

    @TestFactory
    List<DynamicTest> everyListedRequest() throws IOException {
        List<Line> all = lines();
        assertThat(all).hasSizeGreaterThan(25);
        List<DynamicTest> tests = new ArrayList<>();
        for (Line line : all) {
            tests.add(DynamicTest.dynamicTest(line.name(), () -> check(line)));
        }
        return tests;
    }

    private void check(Line line) throws Exception {
        int q = line.path().indexOf('?');
        String path = line.path().substring(0, q);
        String query = encodedQuery(line.path().substring(q + 1));
        if (line.method().equals("WS")) {
            checkTail(path + "?" + query);
            return;
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(f.base.resolve(line.method().equals("POST") ? path
                : path + "?" + query));
        if (line.method().equals("POST")) {
            b.header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(query));
        } else {
            b.GET();
        }
        if (!line.headers().equals("-")) {
            for (String h : line.headers().split(";")) {
                int eq = h.indexOf('=');
                b.header(h.substring(0, eq), h.substring(eq + 1));
            }
        }
        HttpResponse<String> r = f.send(b);
        assertThat(r.statusCode()).as(line.name() + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        JsonNode body = QueryFixtureTest.JSON.readTree(r.body());
        JsonNode data = body.get("data");
        switch (line.expect()) {
            case "health" -> {
                assertThat(data.get("resultType").asText()).isEqualTo("vector");
                assertThat(data.get("result")).hasSize(1);
                assertThat(data.get("result").get(0).get("value").get(0).asDouble()).isEqualTo(4.0);
                assertThat(data.get("result").get(0).get("value").get(1).asText()).isEqualTo("2");
            }
            case "streams", "streams-categorized" -> {
                assertThat(body.get("status").asText()).isEqualTo("success");
                assertThat(data.get("resultType").asText()).isEqualTo("streams");
                assertThat(data.get("result")).isNotEmpty();
                JsonNode v = data.get("result").get(0).get("values").get(0);
                assertThat(v.get(0).asText()).matches("\\d{19}");
                assertThat(v.size()).isEqualTo(line.expect().equals("streams") ? 2 : 3);
                if (line.expect().equals("streams-categorized")) {
                    assertThat(data.get("encodingFlags").get(0).asText()).isEqualTo("categorize-labels");
                    assertThat(v.get(2).get("structuredMetadata").has("trace_id")).isTrue();
                    assertThat(v.get(2).get("parsed").has("level")).isTrue();
                }
                assertThat(data.get("stats").get("summary").has("execTime")).isTrue();
            }
            case "matrix", "matrix-no-stats" -> {
                assertThat(data.get("resultType").asText()).isEqualTo("matrix");
                assertThat(data.get("result")).isNotEmpty();
                assertThat(data.get("result").get(0).get("values")).isNotEmpty();
                assertThat(data.has("stats")).isEqualTo(line.expect().equals("matrix"));
            }
            case "vector", "vector-no-stats" -> {
                assertThat(data.get("resultType").asText()).isEqualTo("vector");
                assertThat(data.get("result")).isNotEmpty();
                assertThat(data.get("result").get(0).get("value").get(1).isTextual()).isTrue();
            }
            case "strings" -> assertThat(data).isNotEmpty().allSatisfy(n -> assertThat(n.isTextual()).isTrue());
            case "series" -> assertThat(data).isNotEmpty().allSatisfy(n -> assertThat(n.has("app")).isTrue());
            case "stats" -> {
                assertThat(body.get("streams").asLong()).isEqualTo(1);
                assertThat(body.get("entries").asLong()).isEqualTo(60);
                assertThat(body.get("chunks").asLong()).isPositive();
                assertThat(body.get("bytes").asLong()).isPositive();
            }
            case "detected-labels" -> assertThat(body.get("detectedLabels")).isNotEmpty();
            case "detected-fields" -> assertThat(body.get("fields")).extracting(n -> n.get("label").asText())
                    .contains("trace_id");
            case "format" -> assertThat(data.asText()).isEqualTo("{app=\"g\"} | logfmt");
            default -> throw new AssertionError("unknown expectation " + line.expect());
        }
    }

    private void checkTail(String pathAndQuery) throws Exception {
        CompletableFuture<String> first = new CompletableFuture<>();
        WebSocket.Listener listener = new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    first.complete(partial.toString());
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                first.complete("closed " + statusCode + " " + reason);
                return null;
            }
        };
        WebSocket ws = f.http.newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + f.server.port() + pathAndQuery), listener)
                .get(10, TimeUnit.SECONDS);
        try {
            String msg = first.get(10, TimeUnit.SECONDS);
            JsonNode body = QueryFixtureTest.JSON.readTree(msg);
            assertThat(body.get("streams")).isNotEmpty();
            assertThat(body.get("streams").get(0).get("values").get(0).size()).isEqualTo(2);
        } finally {
            ws.abort();
        }
    }
}
