package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.ForwardingObjectStore;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Target {@code all} keeps its listings of index files ({@code querier.index_listing_ttl}): queries after each flush
 * still see every flushed line at once (the flush's index file enters the kept listing as it is written), while the
 * object store is listed far less often than once per query.
 */
final class ServerIndexListingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HITS =
            Pattern.compile("logbloom_index_listing_cache_requests_total\\{outcome=\"hit\"} (\\S+)");
    private static final int ROUNDS = 4;
    private static final int QUERIES_PER_ROUND = 3;

    @TempDir
    Path dir;

    @Test
    void queriesAfterEachFlush_seeEveryLine_withoutListingTheStoreEachTime() throws Exception {
        AtomicInteger indexLists = new AtomicInteger();
        try (TestServer server = start("", indexLists)) {
            pushFlushAndQuery(server);
            assertThat(indexLists.get()).as("index listings sent to the store").isLessThan(ROUNDS);
            Matcher hits = HITS.matcher(server.get("/metrics").body());
            assertThat(hits.find()).as("hit counter exported").isTrue();
            assertThat(Double.parseDouble(hits.group(1))).isGreaterThanOrEqualTo(ROUNDS * QUERIES_PER_ROUND - ROUNDS);
            // the store's own requests are exported below the listing cache: only listings it sent are counted
            assertThat(server.get("/metrics").body())
                    .contains("logbloom_object_store_request_duration_seconds_count{operation=\"list\",outcome=\"ok\"}")
                    .contains("logbloom_object_store_request_duration_seconds_count{operation=\"put\",outcome=\"ok\"}");
        }
    }

    @Test
    void ttlZero_listsTheStoreAtEveryQuery() throws Exception {
        AtomicInteger indexLists = new AtomicInteger();
        try (TestServer server = start("querier: { index_listing_ttl: 0s }\n", indexLists)) {
            pushFlushAndQuery(server);
            assertThat(indexLists.get()).isGreaterThanOrEqualTo(ROUNDS * QUERIES_PER_ROUND);
            assertThat(server.get("/metrics").body()).doesNotContain("logbloom_index_listing_cache_requests");
        }
    }

    @Test
    void deleteProcessedByAnotherProcessesCompactor_staysHidden_onceItsRequestsReload() throws Exception {
        LogbloomConfig compactorConfig = LogbloomConfig.parse("target: compactor\n"
                + "compactor: { compaction_interval: 24h, retention_delete_delay: 1h }\n", Map.of())
                .withOverrides(0, "127.0.0.1", dir);
        // its clock a day ahead: the request is past its cancel period there
        LogbloomServer other = new LogbloomServer(compactorConfig, Clock.offset(Clock.systemUTC(), Duration.ofHours(25)),
                ConfigMapping.objectStore(compactorConfig.storage()));
        other.start();
        try (TestServer all = TestServer.start(dir, "compactor: { compaction_interval: 24h }\n");
                TestServer compactor = TestServer.attach(other)) {
            long t0 = TestServer.nowNanos() - 60_000_000_000L;
            assertThat(all.pushJson("{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[[\"" + t0
                    + "\",\"keep a\"],[\"" + (t0 + 1) + "\",\"secret b\"],[\"" + (t0 + 2) + "\",\"keep c\"]]}]}")
                    .statusCode()).isEqualTo(204);
            assertThat(all.flush().statusCode()).isEqualTo(204);
            assertThat(lines(all, "web", t0)).isEqualTo(3); // listing kept, index file opened
            String query = URLEncoder.encode("{app=\"web\"} |= \"secret\"", StandardCharsets.UTF_8);
            HttpResponse<String> added = all.send(all.request(DeleteRoutes.PATH + "?query=" + query + "&start="
                    + (t0 / 1_000_000_000L - 3600)).header("X-Scope-OrgID", "fake")
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(204);
            assertThat(lines(all, "web", t0)).isEqualTo(2); // hidden by the query-time filter

            // the other process rewrites the object without the line and marks the request processed
            assertThat(compactor.server.operations().compactor().runOnce().requestsProcessed()).isEqualTo(1);
            all.server.operations().reloadDeleteRequests(); // the filter stops; the kept listing must go too

            assertThat(lines(all, "web", t0)).isEqualTo(2);
        }
    }

    private TestServer start(String yaml, AtomicInteger indexLists) {
        LogbloomConfig config = LogbloomConfig.parse(yaml, Map.of()).withOverrides(0, "127.0.0.1", dir);
        return TestServer.start(config, store -> new ForwardingObjectStore(store) {
            @Override
            public List<String> list(String prefix) throws IOException {
                if (prefix.startsWith("index/")) {
                    indexLists.incrementAndGet();
                }
                return super.list(prefix);
            }
        });
    }

    /** Each round pushes lines, flushes them into the store and queries them back a few times. */
    private static void pushFlushAndQuery(TestServer server) throws Exception {
        long start = TestServer.nowNanos() - 60_000_000_000L;
        for (int round = 0; round < ROUNDS; round++) {
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                values.append(i == 0 ? "" : ",").append("[\"").append(start + round * 1000L + i)
                        .append("\",\"round ").append(round).append(" line ").append(i).append("\"]");
            }
            assertThat(server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"listing\"},\"values\":[" + values + "]}]}")
                    .statusCode()).isEqualTo(204);
            assertThat(server.flush().statusCode()).isEqualTo(204);
            for (int q = 0; q < QUERIES_PER_ROUND; q++) {
                assertThat(linesFound(server, start)).as("round %d query %d", round, q).isEqualTo((round + 1) * 5);
            }
        }
    }

    private static int linesFound(TestServer server, long start) throws Exception {
        return lines(server, "listing", start);
    }

    private static int lines(TestServer server, String app, long start) throws Exception {
        String query = URLEncoder.encode("{app=\"" + app + "\"}", StandardCharsets.UTF_8);
        JsonNode body = JSON.readTree(server.get("/loki/api/v1/query_range?query=" + query + "&start=" + start
                + "&end=" + (TestServer.nowNanos() + 1) + "&limit=1000").body());
        int lines = 0;
        for (JsonNode stream : body.path("data").path("result")) {
            lines += stream.path("values").size();
        }
        return lines;
    }
}
