package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metric range queries over old flushed data answered from the results cache, and the Cache-Control opt-out. */
final class QueryResultsCacheApiTest {
    private static final long SEC = 1_000_000_000L;
    private static final Pattern HITS =
            Pattern.compile("logbloom_querier_results_cache_requests_total\\{outcome=\"hit\"} ([0-9.eE+]+)");

    @TempDir
    Path dir;

    @Test
    void queryRange_repeated_answeredFromCache_unlessNoCache() throws Exception {
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, "")) {
            long t0 = (System.currentTimeMillis() / 1000 - 3 * 3600) * SEC;
            HttpResponse<String> push = f.pushJson("{\"streams\":[{\"stream\":{\"app\":\"old\"},\"values\":["
                    + "[\"" + t0 + "\",\"a\"],[\"" + (t0 + 30 * SEC) + "\",\"b\"]]}]}");
            assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
            f.flush();
            String q = "/loki/api/v1/query_range?query=" + enc("count_over_time({app=\"old\"}[1m])") + "&start="
                    + (t0 - 600 * SEC) + "&end=" + (t0 + 600 * SEC) + "&step=60";
            JsonNode first = f.ok(q);
            JsonNode second = f.ok(q);
            assertThat(second.get("data").get("result")).isEqualTo(first.get("data").get("result"));
            assertThat(first.get("data").get("result").get(0).get("values")).isNotEmpty();
            double hits = hits(f);
            assertThat(hits).isPositive();
            JsonNode bypassed = f.ok(q, "Cache-Control", "no-cache");
            assertThat(bypassed.get("data").get("result")).isEqualTo(first.get("data").get("result"));
            assertThat(hits(f)).isEqualTo(hits);
        }
    }

    private static double hits(QueryFixtureTest.Fixture f) throws Exception {
        Matcher m = HITS.matcher(f.get("/metrics").body());
        assertThat(m.find()).as("hit counter exposed").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
