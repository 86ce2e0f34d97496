package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.logbloom.api.QueryFixtureTest.Fixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stats fields Loki computes and Logbloom once wrote as constants. */
final class QueryStatsFieldsTest {
    @TempDir
    Path dir;

    @Test
    void stats_structuredMetadataIngesterAndQueue_areComputed() throws Exception {
        long now = TestServer.nowNanos();
        // enrichment off: detected_level would add metadata bytes of its own
        try (Fixture f = Fixture.start(dir, "limits: { discover_service_name: [], discover_log_levels: false }\n")) {
            // metadata bytes: trace_id(8)+t1(2) and trace_id(8)+t2(2) = 20
            String push = "{\"streams\":[{\"stream\":{\"app\":\"a\"},\"values\":["
                    + "[\"" + (now - 2_000_000_000L) + "\",\"one\",{\"trace_id\":\"t1\"}],"
                    + "[\"" + (now - 1_000_000_000L) + "\",\"two\",{\"trace_id\":\"t2\"}]]}]}";
            assertThat(f.pushJson(push).statusCode()).isEqualTo(204);
            String range = "&start=" + (now - 60_000_000_000L) + "&end=" + (now + 1_000_000_000L);

            JsonNode byMetadata = f.ok("/loki/api/v1/query_range?query="
                    + QueryFixtureTest.enc("{app=\"a\"} | trace_id=\"t1\"") + range).get("data").get("stats");
            assertThat(byMetadata.get("summary").get("totalStructuredMetadataBytesProcessed").asLong()).isEqualTo(20);
            assertThat(byMetadata.get("summary").get("totalBytesProcessed").asLong()).isEqualTo(6);
            assertThat(byMetadata.get("summary").get("queueTime").asDouble()).isGreaterThanOrEqualTo(0);
            assertThat(byMetadata.get("summary").get("shards").asLong()).isZero();
            assertThat(byMetadata.get("ingester").get("totalReached").asInt()).isEqualTo(1);
            assertThat(byMetadata.get("ingester").get("store").get("queryReferencedStructuredMetadata").asBoolean()).isTrue();
            assertThat(byMetadata.get("ingester").get("store").get("chunk").get("headChunkStructuredMetadataBytes").asLong())
                    .isEqualTo(20);

            JsonNode plain = f.ok("/loki/api/v1/query_range?query=" + QueryFixtureTest.enc("{app=\"a\"} |= \"o\"") + range)
                    .get("data").get("stats");
            assertThat(plain.get("querier").get("store").get("queryReferencedStructuredMetadata").asBoolean()).isFalse();
            assertThat(plain.get("ingester").get("store").get("queryReferencedStructuredMetadata").asBoolean()).isFalse();
        }
    }

    @Test
    void pipelineErrorInMetricQuery_is400WithLokisMessage() throws Exception {
        long now = TestServer.nowNanos();
        try (Fixture f = Fixture.start(dir, "")) {
            String push = "{\"streams\":[{\"stream\":{\"app\":\"w\",\"pod\":\"p\"},\"values\":["
                    + "[\"" + (now - 2_000_000_000L) + "\",\"not json\"],"
                    + "[\"" + (now - 1_000_000_000L) + "\",\"{\\\"latency_ms\\\":5}\"]]}]}";
            assertThat(f.pushJson(push).statusCode()).isEqualTo(204);
            String at = "&time=" + now;
            // lines without the unwrapped label give no sample, so the non-JSON line is no error (issue 16)
            JsonNode ok = f.ok("/loki/api/v1/query?query="
                    + QueryFixtureTest.enc("max_over_time({app=\"w\"} | json | unwrap latency_ms [5m]) by (pod)") + at);
            assertThat(ok.get("data").get("result").get(0).get("value").get(1).asText()).isEqualTo("5");
            var error = f.get("/loki/api/v1/query?query="
                    + QueryFixtureTest.enc("sum by (pod) (count_over_time({app=\"w\"} | json [5m]))") + at);
            assertThat(error.statusCode()).isEqualTo(400);
            assertThat(error.body()).startsWith("pipeline error: 'JSONParserErr' for series: '{__error__=\"JSONParserErr\"");
        }
    }
}
