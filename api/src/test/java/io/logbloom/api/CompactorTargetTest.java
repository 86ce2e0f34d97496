package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code target: compactor}: the compactor loop and the delete API over the bucket, nothing else, no Kafka. */
final class CompactorTargetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void config_compactorTarget_needsNoKafka() {
        LogbloomConfig c = LogbloomConfig.parse("target: compactor", Map.of());
        assertThat(c.cluster().target()).isEqualTo(LogbloomConfig.Target.COMPACTOR);
        assertThat(c.cluster().usesKafka()).isFalse();
    }

    @Test
    void compactorTarget_servesDeleteApiAndCompactorMetrics_notPushOrQueries() throws Exception {
        try (TestServer s = TestServer.start(dir, "target: compactor")) {
            assertThat(s.get("/ready").statusCode()).isEqualTo(200);

            String query = URLEncoder.encode("{app=\"web\"} |= \"user=bob\"", StandardCharsets.UTF_8);
            HttpResponse<String> added = s.send(s.request(DeleteRoutes.PATH + "?query=" + query
                    + "&start=1700000000&end=1700000600").header("X-Scope-OrgID", "fake")
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(204);
            JsonNode listed = JSON.readTree(s.send(s.request(DeleteRoutes.PATH).header("X-Scope-OrgID", "fake")
                    .GET()).body());
            assertThat(listed).hasSize(1);
            assertThat(listed.get(0).path("status").asText()).isEqualTo("received");

            assertThat(s.get("/metrics").body()).contains("logbloom_compactor_");

            HttpResponse<String> push = s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[[\"1\",\"x\"]]}]}");
            assertThat(push.statusCode()).isEqualTo(404);
            assertThat(s.get("/loki/api/v1/query_range?query=" + URLEncoder.encode("{app=\"web\"}",
                    StandardCharsets.UTF_8)).statusCode()).isEqualTo(404);
            assertThat(s.post("/flush", new byte[0]).statusCode()).isEqualTo(404);
        }
    }
}
