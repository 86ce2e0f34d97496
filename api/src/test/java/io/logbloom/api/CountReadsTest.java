package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.LabelMatcher;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A count of lines with a line filter reads, of each stored block it needs, the timestamp and line columns only (not
 * the structured metadata beside them, here a 32-hex-digit id per row), and a second count finds them in the cache.
 */
final class CountReadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;

    @Test
    void aFilteredCount_readsTimestampsAndLinesOnly_andTheNextOneFromTheCache() throws Exception {
        long ts = TestServer.nowNanos() - 60_000_000_000L;
        try (TestServer server = TestServer.start(dataDir, "ingester: { chunk_block_size: 2KB }")) {
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 300; i++) {
                values.append(i == 0 ? "" : ",").append("[\"").append(ts + i).append("\",\"GET /item/").append(i)
                        .append(i % 3 == 0 ? " status=500" : " status=200").append("\",{\"trace_id\":\"")
                        .append(String.format("%032x", i * 104729L)).append("\"}]");
            }
            assertThat(server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"c\"},\"values\":[" + values + "]}]}")
                    .statusCode()).isEqualTo(204);
            assertThat(server.flush().statusCode()).isEqualTo(204);

            List<ChunkRef> refs = server.server.ingester().index().chunks(TenantResolver.DEFAULT_TENANT, List.of(LabelMatcher.equal("app", "c")),
                    0, Long.MAX_VALUE).get(0).chunks();
            assertThat(refs).hasSize(1);
            ColumnarObjectReader reader = new ColumnarObjectReader(
                    RangeSource.ofObject(server.server.objectStore(), refs.get(0).objectKey()));
            List<ColumnarBlockInfo> blocks = reader.directory().blocks();
            assertThat(blocks).hasSizeGreaterThan(3);
            long timestampsAndLines = blocks.stream().mapToLong(ColumnarBlockInfo::timestampsAndLinesLength).sum();
            long whole = blocks.stream().mapToLong(ColumnarBlockInfo::length).sum();
            assertThat(timestampsAndLines).isLessThan(whole * 3 / 4); // the ids are most of each block

            String count = "sum(count_over_time({app=\"c\"} |= \"status=500\" [1m]))";
            JsonNode first = instant(server, count, ts + 1_000_000_000L);
            assertThat(first.path("data").path("result").get(0).path("value").get(1).asText()).isEqualTo("100");
            JsonNode firstStats = first.path("data").path("stats");
            assertThat(firstStats.path("querier").path("store").path("chunk").path("compressedBytes").asLong())
                    .isEqualTo(timestampsAndLines);
            assertThat(firstStats.path("index").path("chunksFromCache").asLong()).isZero();

            JsonNode second = instant(server, count, ts + 1_000_000_000L);
            assertThat(second.path("data").path("result").get(0).path("value").get(1).asText()).isEqualTo("100");
            JsonNode secondStats = second.path("data").path("stats");
            assertThat(secondStats.path("index").path("chunksFromCache").asLong()).isEqualTo(blocks.size());
            assertThat(secondStats.path("querier").path("store").path("chunk").path("compressedBytes").asLong())
                    .isEqualTo(timestampsAndLines);
        }
    }

    private static JsonNode instant(TestServer server, String query, long timeNanos) throws Exception {
        HttpResponse<String> r = server.get("/loki/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&time=" + timeNanos);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
