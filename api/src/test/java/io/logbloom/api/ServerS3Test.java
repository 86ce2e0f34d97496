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
            }
        }
    }
}
