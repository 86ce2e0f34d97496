package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code detected_fields} offers what Logs Drilldown can break down: every field it names for a logfmt line is a label
 * {@code | logfmt} sets (a plain-text line's words are no fields, empty values are none, a leading digit is named
 * with '_'), and the breakdown query Drilldown sends for it finds lines.
 */
final class DetectedFieldsApiTest {
    private static final long SEC = 1_000_000_000L;

    @TempDir
    Path dir;

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void parsedKeyNamingAStreamLabel_isItsExtractedField_andOneNamingMetadata_isThatFieldParsedToo() throws Exception {
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, "limits: { discover_log_levels: false }")) {
            long t0 = (System.currentTimeMillis() / 1000 - 600) * SEC;
            String json = "{\"streams\":[{\"stream\":{\"service_name\":\"shop\",\"level\":\"info\"},\"values\":["
                    + "[\"" + t0 + "\",\"level=warn user=u1 took=5\",{\"user\":\"u9\"}]]}]}";
            assertThat(f.pushJson(json).statusCode()).isEqualTo(204);
            String range = "&start=" + (t0 - SEC) + "&end=" + (t0 + 60 * SEC);
            JsonNode body = f.ok("/loki/api/v1/detected_fields?query=" + enc("{service_name=\"shop\"}") + range);
            java.util.Map<String, String> parsers = new java.util.TreeMap<>();
            for (JsonNode field : body.get("fields")) {
                parsers.put(field.get("label").asText(), field.get("parsers").toString());
            }
            assertThat(parsers).isEqualTo(java.util.Map.of("level_extracted", "[\"logfmt\"]", "user", "[\"logfmt\"]",
                    "took", "[\"logfmt\"]"));
            // the names a breakdown of each finds
            for (String name : parsers.keySet()) {
                String q = "sum by (" + name + ") (count_over_time({service_name=\"shop\"} | logfmt | " + name
                        + "!=\"\" [5m]))";
                JsonNode counts = f.ok("/loki/api/v1/query?query=" + enc(q) + "&time=" + (t0 + 60 * SEC));
                assertThat(counts.get("data").get("result")).as(q).hasSize(1);
            }
        }
    }

    @Test
    void logfmtFields_areTheLabelsTheLogfmtStageSets_andEachBreaksDown() throws Exception {
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, "limits: { discover_log_levels: false }")) {
            long t0 = (System.currentTimeMillis() / 1000 - 600) * SEC;
            String json = "{\"streams\":[{\"stream\":{\"service_name\":\"shop\"},\"values\":["
                    + "[\"" + t0 + "\",\"INFO [worker-8] health check passed in 56ms, 1028 bytes\"],"
                    + "[\"" + (t0 + SEC) + "\",\"status=200 took= 1x=5 k.v=3 flag\"],"
                    + "[\"" + (t0 + 2 * SEC) + "\",\"{\\\"user\\\":{\\\"id\\\":7},\\\"ok\\\":true}\"]]}]}";
            assertThat(f.pushJson(json).statusCode()).isEqualTo(204);
            String range = "&start=" + (t0 - SEC) + "&end=" + (t0 + 60 * SEC);
            JsonNode body = f.ok("/loki/api/v1/detected_fields?query=" + enc("{service_name=\"shop\"}") + range);
            List<String> logfmt = new ArrayList<>();
            List<String> all = new ArrayList<>();
            for (JsonNode field : body.get("fields")) {
                all.add(field.get("label").asText());
                if (field.get("parsers").toString().contains("logfmt")) {
                    logfmt.add(field.get("label").asText());
                }
            }
            assertThat(all).containsExactlyInAnyOrder("status", "_1x", "k_v", "user_id", "ok");
            for (String name : logfmt) {
                String q = "sum by (" + name + ") (count_over_time({service_name=\"shop\"} | logfmt | drop __error__, "
                        + "__error_details__ | " + name + "!=\"\" [5m]))";
                JsonNode counts = f.ok("/loki/api/v1/query?query=" + enc(q) + "&time=" + (t0 + 60 * SEC));
                assertThat(counts.get("data").get("result")).as(q).hasSize(1);
            }
        }
    }
}
