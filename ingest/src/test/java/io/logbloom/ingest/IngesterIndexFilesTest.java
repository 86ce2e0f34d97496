package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index files a flush writes are in the ingester's cache of opened files: lookups read none of them back. */
final class IngesterIndexFilesTest {
    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();

    @Test
    void flushedIndexFiles_lookedUpWithoutReadingThemBack() throws IOException {
        AtomicInteger indexReads = new AtomicInteger();
        ForwardingObjectStore store = new ForwardingObjectStore(new InMemoryObjectStore()) {
            @Override
            public byte[] get(String key) throws IOException {
                if (key.startsWith("index/")) {
                    indexReads.incrementAndGet();
                }
                return super.get(key);
            }
        };
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            for (int round = 0; round < 3; round++) {
                List<LogEntry> entries = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    entries.add(LogEntry.of(fx.ts(0) + round * 100 + i, "round " + round + " row " + i));
                }
                ingester.push("t", List.of(new PushStream("{app=\"a\"}", entries)));
                ingester.flushAll();
                try (Ingester.ReadView view = ingester.read("t", List.of(ANY_APP), 0, Long.MAX_VALUE)) {
                    assertThat(view.indexed()).singleElement()
                            .satisfies(s -> assertThat(s.chunks()).isNotEmpty());
                }
            }
            assertThat(store.list("index/t/")).isNotEmpty();
            assertThat(indexReads.get()).isZero();
        }
        // a new process has no such cache: it reads them, and finds the same rows
        try (Ingester restarted = fx.open(IngesterFixture.config(dir), store)) {
            assertThat(IngesterFixture.stored(restarted, store, "t")).hasSize(30);
            assertThat(indexReads.get()).isPositive();
        }
    }
}
