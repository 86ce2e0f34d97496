package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.compactor.Compactor;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Small-object compaction end to end over HTTP: push several flush cycles, compact, same answers from fewer objects, blocks skipped by blooms. */
final class ServerObjectCompactionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEC = 1_000_000_000L;

    @TempDir
    Path dir;

    /** A query's answer: its lines (sorted) and the chunk refs the index matched. */
    private record Answer(List<String> lines, long refs) {}

    private static JsonNode body(TestServer s, String query, long start, long end, String blooms) throws Exception {
        HttpResponse<String> r = s.send(s.request("/loki/api/v1/query_range?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&start=" + start + "&end=" + end
                + "&limit=1000&direction=forward").header("X-Scope-OrgID", "fake").header("X-Logbloom-Blooms", blooms)
                .GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static Answer query(TestServer s, String query, long start, long end) throws Exception {
        JsonNode body = body(s, query, start, end, "on");
        List<String> out = new ArrayList<>();
        for (JsonNode stream : body.path("data").path("result")) {
            for (JsonNode v : stream.path("values")) {
                out.add(stream.path("stream") + " " + v.get(0).asText() + " " + v.get(1).asText());
            }
        }
        out.sort(null);
        return new Answer(out, body.path("data").path("stats").path("querier").path("store").path("totalChunksRef")
                .asLong());
    }

    @Test
    void severalFlushCycles_compacted_sameAnswers_fewerObjectsAndRefs_needleSkipsBlocksOfMergedObject() throws Exception {
        Clock clock = Clock.systemUTC();
        LogbloomServer server = start("", clock);
        try (TestServer s = TestServer.attach(server)) {
            long t0 = clock.millis() * 1_000_000L - 120 * SEC;
            int cycles = 6;
            for (int i = 0; i < cycles; i++) {
                long ts = t0 + i * 10 * SEC;
                assertThat(s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[[\"" + ts
                        + "\",\"GET /page/" + i + " status=200\"],[\"" + (ts + 1) + "\",\"GET /page/" + i
                        + " status=500 trace=t" + i + "\"]]},{\"stream\":{\"app\":\"api\"},\"values\":[[\"" + (ts + 2)
                        + "\",\"POST /orders/" + i + "\"]]}]}").statusCode()).isEqualTo(204);
                assertThat(s.flush().statusCode()).isEqualTo(204);
            }
            var store = server.objectStore();
            int objectsBefore = store.list("fake/objects/").size();
            assertThat(objectsBefore).isGreaterThanOrEqualTo(cycles);
            long end = t0 + cycles * 10 * SEC;
            List<String> queries = List.of("{app=~\".+\"}", "{app=\"web\"} |= \"status=500\"", "{app=\"api\"}",
                    "{app=\"web\"} |= \"trace=t3\"");
            List<Answer> before = new ArrayList<>();
            for (String q : queries) {
                before.add(query(s, q, t0 - SEC, end));
            }
            assertThat(before.get(0).lines()).hasSize(3 * cycles);

            Compactor.PassResult pass = server.operations().compactor().runOnce();

            assertThat(pass.objectsMerged()).isEqualTo(objectsBefore);
            assertThat(pass.mergedObjectsWritten()).isEqualTo(1);
            assertThat(store.list("fake/objects/")).hasSize(1); // old objects swept (retention_delete_delay: 0s)
            for (int i = 0; i < queries.size(); i++) {
                Answer after = query(s, queries.get(i), t0 - SEC, end);
                assertThat(after.lines()).as(queries.get(i)).isEqualTo(before.get(i).lines());
                assertThat(after.refs()).as(queries.get(i)).isLessThan(before.get(i).refs());
            }
            // the merged object's tokens are in its series blooms: a needle skips the blocks without it (the api
            // series' block has no "trace"; a needle proves only words whose both boundaries it shows)
            String needle = "{app=~\".+\"} |= \"status=500 trace=t3\"";
            JsonNode on = body(s, needle, t0 - SEC, end, "on");
            JsonNode off = body(s, needle, t0 - SEC, end, "off");
            assertThat(on.path("data").path("result")).isEqualTo(off.path("data").path("result"));
            assertThat(on.path("data").path("result").get(0).path("values")).hasSize(1);
            assertThat(on.path("data").path("stats").path("index").path("chunksSkipped").asLong()).isPositive();
            assertThat(off.path("data").path("stats").path("index").path("chunksSkipped").asLong()).isZero();
            assertThat(s.get("/metrics").body()).contains("logbloom_compactor_merged_objects_total " + objectsBefore);
        }
    }

    @Test
    void compactedObject_isWrittenInTheIngestersFormat_blocksCutAtTheConfiguredBlockSize() throws Exception {
        Clock clock = Clock.systemUTC();
        LogbloomServer server = start("""
                ingester:
                  chunk_block_size: 1KB
                """, clock);
        try (TestServer s = TestServer.attach(server)) {
            long t0 = clock.millis() * 1_000_000L - 120 * SEC;
            int cycles = 4;
            for (int i = 0; i < cycles; i++) {
                StringBuilder values = new StringBuilder();
                for (int j = 0; j < 50; j++) { // 50 lines of ~100 bytes: about five 1 KB blocks per cycle
                    values.append(j == 0 ? "" : ",").append("[\"").append(t0 + i * 10 * SEC + j).append("\",\"")
                            .append("GET /page/").append(i).append('/').append(j).append(" status=200 ")
                            .append("x".repeat(70)).append("\"]");
                }
                assertThat(s.pushJson("{\"streams\":[{\"stream\":{\"app\":\"web\"},\"values\":[" + values
                        + "]}]}").statusCode()).isEqualTo(204);
                assertThat(s.flush().statusCode()).isEqualTo(204);
            }
            var store = server.objectStore();
            List<String> written = store.list("fake/objects/");
            assertThat(written).hasSize(cycles);
            int blocksWritten = 0;
            for (String key : written) {
                blocksWritten += blocks(store, key).size();
            }

            Compactor.PassResult pass = server.operations().compactor().runOnce();

            assertThat(pass.mergedObjectsWritten()).isEqualTo(1);
            List<String> merged = store.list("fake/objects/");
            assertThat(merged).hasSize(1);
            List<io.logbloom.chunks.ColumnarBlockInfo> blocks = blocks(store, merged.get(0));
            assertThat(blocks).allSatisfy(b -> assertThat(b.rawBytes()).isLessThanOrEqualTo(1024));
            assertThat(blocks.size()).isGreaterThanOrEqualTo(blocksWritten - cycles);
            assertThat(blocks.stream().mapToInt(io.logbloom.chunks.ColumnarBlockInfo::rows).sum()).isEqualTo(50 * cycles);
        }
    }

    /** A started server with {@code yaml} and a compactor that deletes what it replaces at once and runs only when asked. */
    private LogbloomServer start(String yaml, Clock clock) throws Exception {
        LogbloomConfig config = LogbloomConfig.parse(yaml + """
                compactor:
                  retention_delete_delay: 0s
                  compaction_interval: 24h
                """, Map.of()).withOverrides(0, "127.0.0.1", dir.resolve("data"));
        LogbloomServer server = new LogbloomServer(config, clock, ConfigMapping.objectStore(config.storage()));
        server.start();
        return server;
    }

    private static List<io.logbloom.chunks.ColumnarBlockInfo> blocks(io.logbloom.chunks.ObjectStore store, String key)
            throws Exception {
        return new io.logbloom.chunks.ColumnarObjectReader(io.logbloom.chunks.RangeSource.ofBytes(key, store.get(key)))
                .directory().blocks();
    }
}
