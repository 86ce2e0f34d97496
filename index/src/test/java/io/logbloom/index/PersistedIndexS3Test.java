package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.S3ObjectStore;
import io.logbloom.chunks.S3TestServer;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The persisted index on a real S3 protocol server: two writer processes, one reader, a compaction. */
final class PersistedIndexS3Test {
    private static final String T = "tenant-s3";
    private static final long HOUR = 3_600_000_000_000L;
    private static S3TestServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3TestServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void writersAndReaderSharingABucket_seeOneIndex() throws Exception {
        IndexConfig config = IndexConfig.defaults();
        InstantSource clock = InstantSource.fixed(Instant.parse("2026-11-22T00:00:00Z"));
        HeadIndex expected = new HeadIndex();
        try (S3ObjectStore writerStoreA = new S3ObjectStore(server.config());
                S3ObjectStore writerStoreB = new S3ObjectStore(server.config());
                S3ObjectStore readerStore = new S3ObjectStore(server.config())) {
            for (int process = 0; process < 2; process++) {
                HeadIndex head = new HeadIndex();
                for (int i = 0; i < 20; i++) {
                    Labels l = Labels.of("app", "app" + (i % 4), "process", "p" + process, "pod", "pod-" + i);
                    long from = (process * 20 + i) * HOUR;
                    head.add(T, l, ref(T, l, from, from + HOUR / 2));
                    expected.add(T, l, ref(T, l, from, from + HOUR / 2));
                }
                new IndexWriter(process == 0 ? writerStoreA : writerStoreB, config, clock, "p" + process)
                        .writeFromHead(head, T);
            }
            PersistedIndex reader = new PersistedIndex(readerStore, config, new IndexFileCache(readerStore, config));
            List<LabelMatcher> app1 = sel("app", "=", "app1");
            assertThat(reader.fileKeys(T, 0, 48 * HOUR)).hasSize(3);
            assertThat(reader.chunks(T, app1, 0, 48 * HOUR)).hasSize(10)
                    .isEqualTo(expected.chunks(T, app1, 0, 48 * HOUR));
            assertThat(reader.labelValues(T, "process", List.of(), 0, 48 * HOUR)).containsExactly("p0", "p1");

            new IndexCompactor(readerStore, new IndexWriter(readerStore, config, clock, "compactor")).compactTenant(T);
            assertThat(reader.fileKeys(T, 0, 48 * HOUR)).hasSize(2);
            assertThat(reader.chunks(T, app1, 0, 48 * HOUR)).isEqualTo(expected.chunks(T, app1, 0, 48 * HOUR));
        }
    }
}
