package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ChunkEncoding;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent pushes while the flush loop closes and flushes full chunks and readers query: nothing lost, nothing twice. */
final class IngesterConcurrencyTest {
    @TempDir
    Path dir;

    @Test
    void concurrentPushesFlushesAndReads_everyEntryStoredExactlyOnce() throws Exception {
        IngesterFixture fx = new IngesterFixture();
        ObjectStore store = new FileSystemObjectStore(dir.resolve("store"));
        IngestConfig config = IngesterFixture.config(dir)
                .withChunk(new ChunkConfig(2048, 4096, ChunkEncoding.SNAPPY))
                .withFlush(new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofMillis(10),
                        Duration.ofMillis(1), Duration.ofMillis(5)).withParts(Duration.ofMillis(10), 16 * 1024));
        int threads = 4;
        int batches = 60;
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        try (Ingester ingester = fx.open(config, store)) {
            Thread reader = new Thread(() -> {
                while (!done.get()) {
                    try {
                        ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).close();
                        ingester.index().chunks("t", List.of(ANY_APP), 0, Long.MAX_VALUE);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
            });
            reader.start();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                writers.add(new Thread(() -> {
                    try {
                        for (int b = 0; b < batches; b++) {
                            List<PushStream> push = new ArrayList<>();
                            for (int s = 0; s < 3; s++) {
                                List<LogEntry> entries = new ArrayList<>();
                                for (int i = 0; i < 10; i++) {
                                    entries.add(LogEntry.of(fx.ts(b) + i, "stream " + s + " writer " + id + " batch " + b + " line " + i
                                            + " padding padding padding padding"));
                                }
                                push.add(new PushStream("{app=\"s" + s + "\"}", entries));
                            }
                            PushResult r = ingester.push("t", push);
                            if (!r.ok()) {
                                failures.add(new AssertionError(r.errors().toString()));
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (Thread w : writers) {
                w.join();
            }
            done.set(true);
            reader.join();
            ingester.flushAll();
            assertThat(failures).isEmpty();
            List<LogEntry> stored = IngesterFixture.stored(ingester, store, "t");
            assertThat(stored).hasSize(threads * batches * 3 * 10);
            Set<String> distinct = new HashSet<>();
            for (LogEntry e : stored) {
                distinct.add(e.timestampNanos() + e.line());
            }
            assertThat(distinct).hasSize(stored.size());
            assertThat(IngesterFixture.refs(ingester, "t").size()).as("parts were merged while pushes ran")
                    .isGreaterThan(3);
        }
    }
}
