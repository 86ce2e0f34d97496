package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.logbloom.chunks.S3TestServer;
import io.logbloom.ingest.proto.PushProto;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Needle in a haystack over HTTP: many small chunks, one unique trace id; blooms skip almost every
 * chunk and the result equals the blooms-off result; flushed data is still queried after a restart
 * on the filesystem and on the S3 backends.
 */
final class QueryNeedleTest {
    private static final long SEC = 1_000_000_000L;
    private static final String SMALL_CHUNKS = "ingester:\n  chunk_block_size: 1KB\n  chunk_target_size: 2KB\n";

    @TempDir
    Path dir;

    private static long load(QueryFixtureTest.Fixture f) throws Exception {
        long t0 = (System.currentTimeMillis() / 1000 - 1800) * SEC;
        for (int batch = 0; batch < 4; batch++) {
            PushProto.PushRequest.Builder req = PushProto.PushRequest.newBuilder();
            for (String app : List.of("checkout", "search")) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < 250; i++) {
                    lines.add("level=info app=" + app + " msg=\"handled request " + (batch * 250 + i)
                            + "\" duration=" + (i % 97) + "ms");
                }
                PushProto.StreamAdapter.Builder stream = TestServer.protoStream("{app=\"" + app + "\"}",
                        t0 + batch * 250L * SEC, lines, Map.of()).toBuilder();
                for (int i = 0; i < stream.getEntriesCount(); i++) {
                    int n = batch * 250 + i;
                    stream.setEntries(i, stream.getEntries(i).toBuilder()
                            .setTimestamp(com.google.protobuf.Timestamp.newBuilder().setSeconds(t0 / SEC + n))
                            .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder()
                                    .setName("trace_id").setValue(app + "-" + Integer.toHexString(n * 7919 + 13))));
                }
                req.addStreams(stream);
            }
            HttpResponse<String> r = f.pushProtobuf(TestServer.snappyProtobuf(req.build()));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        }
        f.flush();
        return t0;
    }

    private static JsonNode needle(QueryFixtureTest.Fixture f, long t0, boolean blooms) throws Exception {
        String path = "/loki/api/v1/query_range?query=" + enc("{app=~\".+\"} | trace_id=\"checkout-"
                + Integer.toHexString(777 * 7919 + 13) + "\"") + "&start=" + (t0 - SEC) + "&end=" + (t0 + 3600 * SEC)
                + "&limit=100";
        return blooms ? f.ok(path) : f.ok(path, "X-Logbloom-Blooms", "off");
    }

    private static void assertNeedle(JsonNode on, JsonNode off) {
        assertThat(on.get("data").get("result")).isEqualTo(off.get("data").get("result"));
        JsonNode result = on.get("data").get("result");
        assertThat(result).hasSize(1);
        assertThat(result.get(0).get("values")).hasSize(1);
        assertThat(result.get(0).get("values").get(0).get(1).asText()).contains("handled request 777\"");
        JsonNode index = on.get("data").get("stats").get("index");
        long total = index.get("totalChunks").asLong();
        long skipped = index.get("chunksSkipped").asLong();
        long fetched = on.get("data").get("stats").get("querier").get("store").get("totalChunksDownloaded").asLong();
        assertThat(total).isGreaterThan(10);
        assertThat(skipped).isPositive();
        // the needle's block, plus bloom false positives: object keys (and so token hashes) differ per run, and
        // every block of both streams is probed at a ~1 % error rate, so allow 5 % of the blocks
        assertThat(fetched).isLessThanOrEqualTo(1 + Math.max(2, total / 20));
        assertThat(index.get("postFilterChunks").asLong()).isEqualTo(total - skipped);
        assertThat(off.get("data").get("stats").get("querier").get("store").get("totalChunksDownloaded").asLong())
                .isEqualTo(total);
    }

    @Test
    void needle_filesystem_skipsChunks_sameResult_survivesRestart() throws Exception {
        long t0;
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, SMALL_CHUNKS)) {
            t0 = load(f);
            assertNeedle(needle(f, t0, true), needle(f, t0, false));
        }
        try (QueryFixtureTest.Fixture restarted = QueryFixtureTest.Fixture.start(dir, SMALL_CHUNKS)) {
            assertNeedle(needle(restarted, t0, true), needle(restarted, t0, false));
            JsonNode count = restarted.ok("/loki/api/v1/query?query=" + enc("sum(count_over_time({app=~\".+\"}[2h]))")
                    + "&time=" + (t0 + 3600 * SEC));
            assertThat(count.get("data").get("result").get(0).get("value").get(1).asText()).isEqualTo("2000");
        }
    }

    @Test
    void needle_s3_survivesRestart() throws Exception {
        try (S3TestServer s3 = S3TestServer.start()) {
            String yaml = SMALL_CHUNKS + "storage:\n  backend: s3\n  s3:\n    endpoint: \"" + s3.endpoint()
                    + "\"\n    bucket: " + s3.bucket() + "\n    region: " + S3TestServer.REGION
                    + "\n    access_key_id: " + S3TestServer.ACCESS_KEY + "\n    secret_access_key: "
                    + S3TestServer.SECRET_KEY + "\n";
            long t0;
            try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, yaml)) {
                t0 = load(f);
            }
            try (QueryFixtureTest.Fixture restarted = QueryFixtureTest.Fixture.start(dir.resolve("fresh"), yaml)) {
                assertNeedle(needle(restarted, t0, true), needle(restarted, t0, false));
            }
        }
    }
}
