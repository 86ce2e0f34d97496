package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.S3ObjectStore;
import io.logbloom.chunks.S3TestServer;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.proto.PushProto;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Push and flush with {@code storage.backend: s3} against a real S3 protocol server (s3proxy). */
final class ServerS3Test {
    @TempDir
    Path dataDir;

    @Test
    void flush_s3Backend_chunksIndexAndBloomsInBucket_survivesRestart() throws Exception {
        try (S3TestServer s3 = S3TestServer.start()) {
            String yaml = "storage:\n  backend: s3\n  s3:\n    endpoint: \"" + s3.endpoint() + "\"\n    bucket: "
                    + s3.bucket() + "\n    region: " + S3TestServer.REGION + "\n    access_key_id: "
                    + S3TestServer.ACCESS_KEY + "\n    secret_access_key: " + S3TestServer.SECRET_KEY + "\n";
            long ts = TestServer.nowNanos();
            try (TestServer server = TestServer.start(dataDir, yaml)) {
                PushProto.PushRequest request = PushProto.PushRequest.newBuilder()
                        .addStreams(TestServer.protoStream("{app=\"s3\"}", ts, List.of("one", "two"),
                                Map.of("trace_id", "t-1")))
                        .build();
                assertThat(server.pushProtobuf(request).statusCode()).isEqualTo(204);
                assertThat(server.flush().statusCode()).isEqualTo(204);
            }
            S3ObjectStore bucket = new S3ObjectStore(s3.config());
            assertThat(bucket.list("fake/")).isNotEmpty();
            assertThat(bucket.list("blooms/fake/")).isNotEmpty();
            assertThat(bucket.list("index/fake/")).isNotEmpty();
            assertThat(bucket.list("")).hasSizeGreaterThan(2);

            try (TestServer restarted = TestServer.start(dataDir, yaml)) {
                assertThat(restarted.stored("fake", LabelMatcher.equal("app", "s3")).values()).singleElement()
                        .satisfies(e -> assertThat(e).extracting(LogEntry::line).containsExactly("one", "two"));
                // needles over the bucket: the first lists the index and opens the object with one suffix-ranged GET;
                // the next ones list nothing (querier.index_listing_ttl) and send no size request
                String needle = "/loki/api/v1/query_range?query=" + java.net.URLEncoder.encode(
                        "{app=\"s3\"} | trace_id=\"t-1\"", java.nio.charset.StandardCharsets.UTF_8)
                        + "&start=" + (ts - 1_000_000_000L) + "&end=" + (ts + 1_000_000_000L);
                assertThat(restarted.get(needle).body()).contains("\"one\"", "\"two\"");
                String misses = "logbloom_index_listing_cache_requests_total{outcome=\"miss\"}";
                String listedOnce = metricLine(restarted, misses);
                assertThat(requests(restarted, "get_tail")).isPositive();
                for (int i = 0; i < 3; i++) {
                    assertThat(restarted.get(needle).body()).contains("\"one\"", "\"two\"");
                }
                assertThat(metricLine(restarted, misses)).isEqualTo(listedOnce);
                assertThat(metricLine(restarted, "logbloom_index_listing_cache_requests_total{outcome=\"hit\"}"))
                        .doesNotEndWith(" 0.0");
                assertThat(requests(restarted, "size")).isZero();
            }
        }
    }

    /** The exposition line starting with {@code series}. */
    private static String metricLine(TestServer server, String series) throws Exception {
        return server.get("/metrics").body().lines().filter(l -> l.startsWith(series + " ")).findFirst().orElseThrow();
    }

    /** Requests of {@code operation} the server sent to its store, answered or not, from {@code /metrics}. */
    private static double requests(TestServer server, String operation) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "logbloom_object_store_request_duration_seconds_count\\{operation=\"" + operation
                        + "\",outcome=\"[a-z_]+\"} (\\S+)").matcher(server.get("/metrics").body());
        double total = 0;
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
        }
        return total;
    }
}
