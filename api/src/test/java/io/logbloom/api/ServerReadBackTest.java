package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.ForwardingObjectStore;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Target {@code all} keeps what its flushes write for its queries: needles after each flush find their line without
 * reading a series bloom or an index file back from the store (the ingester hands both to the query side as written).
 */
final class ServerReadBackTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void needlesAfterEachFlush_readNoBloomOrIndexFileBack() throws Exception {
        AtomicInteger bloomReads = new AtomicInteger();
        AtomicInteger indexReads = new AtomicInteger();
        LogbloomConfig config = LogbloomConfig.parse("", Map.of()).withOverrides(0, "127.0.0.1", dir);
        try (TestServer server = TestServer.start(config, store -> new ForwardingObjectStore(store) {
            @Override
            public byte[] get(String key) throws IOException {
                byte[] bytes = super.get(key); // a bloom writer's look for a bloom not written yet does not count
                (key.startsWith("blooms/") ? bloomReads : key.startsWith("index/") ? indexReads : new AtomicInteger())
                        .incrementAndGet();
                return bytes;
            }
        })) {
            long t0 = TestServer.nowNanos() - 60_000_000_000L;
            for (int round = 0; round < 3; round++) {
                StringBuilder streams = new StringBuilder();
                for (int s = 0; s < 4; s++) {
                    long ts = t0 + round * 1000L + s;
                    streams.append(s == 0 ? "" : ",").append("{\"stream\":{\"app\":\"web\",\"pod\":\"p").append(s)
                            .append("\"},\"values\":[[\"").append(ts).append("\",\"round ").append(round).append(" pod ")
                            .append(s).append("\",{\"trace_id\":\"r").append(round).append("p").append(s)
                            .append("\"}]]}");
                }
                assertThat(server.pushJson("{\"streams\":[" + streams + "]}").statusCode()).isEqualTo(204);
                assertThat(server.flush().statusCode()).isEqualTo(204);
                for (int s = 0; s < 4; s++) {
                    assertThat(needle(server, "r" + round + "p" + s, t0)).isEqualTo("round " + round + " pod " + s);
                }
                assertThat(needle(server, "r0p1", t0)).isEqualTo("round 0 pod 1");
            }
            assertThat(bloomReads.get()).as("series blooms read back").isZero();
            assertThat(indexReads.get()).as("index files read back").isZero();
        }
    }

    /** The one line the needle finds. */
    private static String needle(TestServer server, String traceId, long start) throws Exception {
        String query = URLEncoder.encode("{app=\"web\"} | trace_id=\"" + traceId + "\"", StandardCharsets.UTF_8);
        JsonNode body = JSON.readTree(server.get("/loki/api/v1/query_range?query=" + query + "&start=" + start
                + "&end=" + (TestServer.nowNanos() + 1) + "&limit=100").body());
        JsonNode result = body.path("data").path("result");
        assertThat(result).as(body.toString()).hasSize(1);
        assertThat(result.get(0).path("values")).hasSize(1);
        return result.get(0).path("values").get(0).get(1).asText();
    }
}
