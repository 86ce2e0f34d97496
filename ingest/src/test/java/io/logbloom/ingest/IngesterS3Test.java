package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.S3ObjectStore;
import io.logbloom.chunks.S3TestServer;
import io.logbloom.tokens.BloomTokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flush against a real S3 protocol server (s3proxy, in-process on 127.0.0.1). */
final class IngesterS3Test {
    @TempDir
    Path dir;

    @Test
    void flushToS3_chunksIndexAndBloomsReadableByANewIngester() throws Exception {
        IngesterFixture fx = new IngesterFixture();
        try (S3TestServer server = S3TestServer.start(); S3ObjectStore store = new S3ObjectStore(server.config())) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                entries.add(new LogEntry(fx.ts(i), "request " + i, List.of(new Label("user", "u" + (i % 7)))));
            }
            try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
                PushDecoder decoder = new PushDecoder();
                List<PushStream> decoded = decoder.decode(
                        PushBodies.protobuf(List.of(new PushStream("{app=\"shop\"}", entries))), "application/x-protobuf");
                assertThat(ingester.push("s3-tenant", decoded).ok()).isTrue();
                ingester.flushAll();
            }
            assertThat(store.list("s3-tenant/")).hasSize(1);
            assertThat(store.list("index/s3-tenant/")).isNotEmpty();
            assertThat(store.list("blooms/s3-tenant/")).hasSize(1);
            try (Ingester reader = fx.open(IngesterFixture.config(dir.resolve("other")), store)) {
                assertThat(IngesterFixture.stored(reader, store, "s3-tenant")).isEqualTo(entries);
                ChunkRef ref = IngesterFixture.refs(reader, "s3-tenant").get(0);
                SeriesBloom bloom = reader.blooms().load("s3-tenant", ref.fingerprint(),
                        SeriesBloom.periodNumber(ref.fromNanos())).orElseThrow();
                assertThat(bloom.covers(ref)).isTrue();
                assertThat(bloom.mightContain(ref.objectKey(), BloomTokenizer.chunkScopedHash(io.logbloom.chunks.ColumnarDirectory.blockScope(ref.objectKey(), 0), "user=u3"))).isTrue();
            }
        }
    }
}
