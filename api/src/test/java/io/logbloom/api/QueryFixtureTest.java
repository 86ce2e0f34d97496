package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query-API test fixture (a real server on 127.0.0.1:0 with the query and tail routes, an HTTP
 * client, JSON helpers) and its own smoke test.
 */
final class QueryFixtureTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void fixture_servesReadyAndQueryRoutes() throws Exception {
        try (Fixture f = Fixture.start(dir, "")) {
            assertThat(f.get("/ready").statusCode()).isIn(200, 503);
            HttpResponse<String> labels = f.get("/loki/api/v1/labels");
            assertThat(labels.statusCode()).as(labels.body()).isEqualTo(200);
            assertThat(JSON.readTree(labels.body()).get("status").asText()).isEqualTo("success");
        }
    }

    /** A server (with its query and tail routes), and request helpers. Not thread-safe. */
    static final class Fixture implements AutoCloseable {
        final LogbloomServer server;
        final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        final URI base;

        private Fixture(LogbloomServer server) {
            this.server = server;
            this.base = URI.create("http://127.0.0.1:" + server.port());
        }

        static Fixture start(Path dataDir, String yaml) {
            java.util.Objects.requireNonNull(dataDir, "dataDir is null");
            String withWal = yaml.contains("wal:") ? yaml
                    : yaml + "\nwal:\n  directory: \"" + dataDir.resolve("wal").toString().replace("\\", "/") + "\"\n";
            LogbloomConfig config = LogbloomConfig.parse(withWal, Map.of()).withOverrides(0, "127.0.0.1", dataDir);
            LogbloomServer server = new LogbloomServer(config, Clock.systemUTC());
            server.start();
            return new Fixture(server);
        }

        HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
            return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> get(String pathAndQuery, String... headers) throws IOException, InterruptedException {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET();
            if (headers.length > 0) {
                b.headers(headers);
            }
            return send(b);
        }

        HttpResponse<String> postForm(String path, String form, String... headers)
                throws IOException, InterruptedException {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form));
            if (headers.length > 0) {
                b.headers(headers);
            }
            return send(b);
        }

        HttpResponse<String> pushJson(String json) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(base.resolve("/loki/api/v1/push"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)));
        }

        HttpResponse<String> pushProtobuf(byte[] snappyBody) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(base.resolve("/loki/api/v1/push"))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(snappyBody)));
        }

        void flush() throws IOException, InterruptedException {
            HttpResponse<String> r = send(HttpRequest.newBuilder(base.resolve("/flush"))
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        }

        /** GET that must succeed; returns the parsed JSON. */
        JsonNode ok(String pathAndQuery, String... headers) throws IOException, InterruptedException {
            HttpResponse<String> r = get(pathAndQuery, headers);
            assertThat(r.statusCode()).as(pathAndQuery + " -> " + r.body()).isEqualTo(200);
            return JSON.readTree(r.body());
        }

        @Override
        public void close() {
            server.close();
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
