package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every validation rule and limit over HTTP: status code and Loki-like message; auth on. */
final class ServerLimitsTest {
    private static final String TENANT = "limited";
    private static final String[] AUTH = {"X-Scope-OrgID", TENANT};

    @TempDir
    Path dataDir;

    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir, """
                auth_enabled: true
                limits:
                  max_line_size: 100B
                  max_label_names_per_series: 3
                  max_label_name_length: 10
                  max_label_value_length: 20
                  reject_old_samples_max_age: 1h
                  creation_grace_period: 10m
                  max_global_streams_per_user: 4
                  ingestion_rate_mb: 0.01
                  ingestion_burst_size_mb: 0.02
                  # these tests pin the limit messages of the streams as pushed; enrichment is tested elsewhere
                  discover_service_name: []
                  discover_log_levels: false
                """);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static String push(String streamJson, long ts, String line) {
        return "{\"streams\":[{\"stream\":" + streamJson + ",\"values\":[[\"" + ts + "\",\"" + line + "\"]]}]}";
    }

    @Test
    void auth_missingHeader_401_validHeader_204() throws Exception {
        HttpResponse<String> anonymous = server.pushJson(push("{\"app\":\"a\"}", TestServer.nowNanos(), "x"));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).isEqualTo("no org id\n");
        assertThat(server.pushJson(push("{\"app\":\"a\"}", TestServer.nowNanos(), "x"), AUTH).statusCode())
                .isEqualTo(204);
        HttpResponse<String> badTenant = server.pushJson(push("{\"app\":\"a\"}", TestServer.nowNanos(), "x"),
                "X-Scope-OrgID", "a/b");
        assertThat(badTenant.statusCode()).isEqualTo(400);
    }

    @Test
    void lineTooLong_400_namesStreamAndSizes() throws Exception {
        HttpResponse<String> r = server.pushJson(push("{\"app\":\"a\"}", TestServer.nowNanos(), "x".repeat(101)), AUTH);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Max entry size '100' bytes exceeded for stream '{app=\"a\"}'", "'101' bytes");
    }

    @Test
    void tooManyLabels_400() throws Exception {
        HttpResponse<String> r = server.pushJson(push("{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\",\"d\":\"4\"}",
                TestServer.nowNanos(), "x"), AUTH);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("has 4 label names; limit 3");
    }

    @Test
    void labelNameAndValueTooLong_400() throws Exception {
        HttpResponse<String> name = server.pushJson(push("{\"abcdefghijk\":\"v\"}", TestServer.nowNanos(), "x"), AUTH);
        assertThat(name.statusCode()).isEqualTo(400);
        assertThat(name.body()).contains("has label name too long: 'abcdefghijk'");
        HttpResponse<String> value = server.pushJson(push("{\"app\":\"" + "v".repeat(21) + "\"}",
                TestServer.nowNanos(), "x"), AUTH);
        assertThat(value.statusCode()).isEqualTo(400);
        assertThat(value.body()).contains("has label value too long: '" + "v".repeat(21) + "'");
    }

    @Test
    void timestampTooOldOrTooNew_400() throws Exception {
        long twoHoursAgo = TestServer.nowNanos() - TimeUnit.HOURS.toNanos(2);
        HttpResponse<String> old = server.pushJson(push("{\"app\":\"t\"}", twoHoursAgo, "old"), AUTH);
        assertThat(old.statusCode()).isEqualTo(400);
        assertThat(old.body()).contains("entry for stream '{app=\"t\"}' has timestamp too old");
        long inAnHour = TestServer.nowNanos() + TimeUnit.HOURS.toNanos(1);
        HttpResponse<String> future = server.pushJson(push("{\"app\":\"t\"}", inAnHour, "new"), AUTH);
        assertThat(future.statusCode()).isEqualTo(400);
        assertThat(future.body()).contains("entry for stream '{app=\"t\"}' has timestamp too new");
    }

    @Test
    void partlyBadPush_goodEntriesKept() throws Exception {
        long ts = TestServer.nowNanos();
        String body = "{\"streams\":[{\"stream\":{\"app\":\"mixed\"},\"values\":[[\"" + ts + "\",\"good\"],[\"" + (ts + 1)
                + "\",\"" + "y".repeat(150) + "\"],[\"" + (ts + 2) + "\",\"also good\"]]}]}";
        HttpResponse<String> r = server.pushJson(body, AUTH);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Max entry size");
        assertThat(server.flush().statusCode()).isEqualTo(204);
        assertThat(server.stored(TENANT, LabelMatcher.equal("app", "mixed")).values()).singleElement()
                .satisfies(e -> assertThat(e).extracting(LogEntry::line).containsExactly("good", "also good"));
    }

    @Test
    void tooManyStreams_rejected() throws Exception {
        for (int i = 0; i < 4; i++) {
            assertThat(server.pushJson(push("{\"s\":\"" + i + "\"}", TestServer.nowNanos(), "x"), AUTH).statusCode())
                    .isEqualTo(204);
        }
        HttpResponse<String> fifth = server.pushJson(push("{\"s\":\"5\"}", TestServer.nowNanos(), "x"), AUTH);
        assertThat(fifth.statusCode()).isEqualTo(400);
        assertThat(fifth.body()).contains("Maximum active stream limit exceeded when trying to create stream {s=\"5\"}");
    }

    @Test
    void ingestionRate_429WithLokiMessage() throws Exception {
        String line = "z".repeat(90);
        StringBuilder values = new StringBuilder();
        long ts = TestServer.nowNanos();
        for (int i = 0; i < 400; i++) {
            values.append(i == 0 ? "" : ",").append("[\"").append(ts + i).append("\",\"").append(line).append("\"]");
        }
        String body = "{\"streams\":[{\"stream\":{\"app\":\"rate\"},\"values\":[" + values + "]}]}";
        HttpResponse<String> r = server.pushJson(body, AUTH);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
        assertThat(r.body()).contains("Ingestion rate limit exceeded for user " + TENANT);
    }

    @Test
    void newSeriesPerHour_bloomLimiter_rejectsNewSeriesKeepsKnownOnes() throws Exception {
        server.close();
        server = TestServer.start(dataDir.resolve("series"), "limits: { max_new_series_per_hour: 2 }");
        for (int i = 0; i < 2; i++) {
            assertThat(server.pushJson(push("{\"s\":\"" + i + "\"}", TestServer.nowNanos(), "x")).statusCode())
                    .isEqualTo(204);
        }
        HttpResponse<String> third = server.pushJson(push("{\"s\":\"third\"}", TestServer.nowNanos(), "x"));
        assertThat(third.statusCode()).isEqualTo(400);
        assertThat(third.body()).contains("Maximum new series per hour limit (2) exceeded when trying to create stream",
                "s=\"third\"");
        assertThat(server.pushJson(push("{\"s\":\"0\"}", TestServer.nowNanos(), "again")).statusCode())
                .isEqualTo(204);
    }
}
