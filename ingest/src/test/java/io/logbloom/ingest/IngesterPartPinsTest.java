package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merged part's file stays on disk exactly while a reader that listed it before the merge holds it: the read view
 * and the unflushed snapshot pin their parts until closed, and the merge loop deletes the files of parts no one
 * holds at once instead of after {@link Ingester#RETIRE_GRACE}.
 */
final class IngesterPartPinsTest {
    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private final InMemoryObjectStore store = new InMemoryObjectStore();

    /** Seals only when told, merges only on flush; the merge loop (deleting merged parts) runs every 10 ms. */
    private IngestConfig config() {
        return IngesterFixture.config(dir).withFlush(new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofMillis(10), Duration.ofMillis(1), Duration.ofMillis(5))
                .withParts(Duration.ofHours(1), FlushConfig.DEFAULT_MERGE_MIN_BYTES));
    }

    private List<Path> partFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("wal").resolve("parts"))) {
            return files.filter(f -> f.toString().endsWith(".lbp")).toList();
        }
    }

    private void pushAndSeal(Ingester ingester, int from) throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = from; i < from + 20; i++) {
            entries.add(LogEntry.of(fx.ts(0) + i, "row " + i));
        }
        ingester.push("t", List.of(new PushStream("{app=\"a\"}", entries)));
        ingester.seal();
    }

    private static void awaitGone(List<Path> files) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (files.stream().anyMatch(Files::exists) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Test
    void mergedParts_withNoReader_areDeletedByTheFlush_notAfterTheGrace() throws Exception {
        IngestConfig config = IngesterFixture.config(dir); // no merge-loop round within the test: the flush deletes
        try (Ingester ingester = fx.open(config, store)) {
            pushAndSeal(ingester, 0);
            List<Path> parts = partFiles();
            assertThat(parts).hasSize(1);
            ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).close(); // pinned and handed back
            ingester.flushAll();
            assertThat(parts).noneMatch(Files::exists); // not two minutes later
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(20);
        }
    }

    @Test
    void mergedParts_aReaderListed_stayUntilItCloses_andItReadsThemMeanwhile() throws Exception {
        try (Ingester ingester = fx.open(config(), store)) {
            pushAndSeal(ingester, 0);
            pushAndSeal(ingester, 20);
            List<Path> parts = partFiles();
            assertThat(parts).hasSize(2);
            Ingester.ReadView view = ingester.read("t", List.of(ANY_APP), 0, Long.MAX_VALUE);
            Ingester.Unflushed snapshot = ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE);
            ingester.flushAll(); // both parts merged into an object and out of view
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).isEmpty();
            Thread.sleep(200); // twenty merge-loop rounds
            assertThat(parts).allMatch(Files::exists);
            List<LogEntry> read = new ArrayList<>();
            for (StreamSnapshot s : view.unflushed().streams()) {
                read.addAll(s.allEntries());
            }
            assertThat(read).hasSize(40);

            view.close();
            view.close(); // a second close hands back nothing more
            Thread.sleep(200);
            assertThat(parts).as("the snapshot still holds them").allMatch(Files::exists);
            assertThat(snapshot.streams()).singleElement().satisfies(s -> assertThat(s.allEntries()).hasSize(40));

            snapshot.close();
            awaitGone(parts);
            assertThat(parts).noneMatch(Files::exists);
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(40);
        }
    }
}
