package io.logbloom.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What an ingester tells a cluster's queriers it wrote: every put since a moment, or that it cannot say. */
final class RecentIndexFilesTest {
    private static final long START = 1_800_000_000_000L;

    private final AtomicLong millis = new AtomicLong(START);
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

    @Test
    void since_namesTheTenantsWritesAtOrAfterTheMoment_evenBeforeTheLogStarted() {
        RecentIndexFiles recent = new RecentIndexFiles(clock);
        recent.written("index/a/1/w-1.idx");
        millis.addAndGet(1_000);
        recent.written("index/a/2/w-2.idx");
        recent.written("index/ab/2/w-3.idx");
        recent.written("index/b/2/w-4.idx");

        assertThat(recent.since("a", START)).contains(List.of("index/a/1/w-1.idx", "index/a/2/w-2.idx"));
        assertThat(recent.since("a", START + 1)).contains(List.of("index/a/2/w-2.idx"));
        assertThat(recent.since("a", START + 1_001)).contains(List.of());
        assertThat(recent.since("ab", 0)).as("nothing was written before the log began")
                .contains(List.of("index/ab/2/w-3.idx"));
        assertThat(recent.id()).isNotEqualTo(new RecentIndexFiles(clock).id());
    }

    @Test
    void writesOlderThanKept_forgotten_andAMomentBeforeThemUnknown() {
        RecentIndexFiles recent = new RecentIndexFiles(clock);
        recent.written("index/a/1/old.idx");
        millis.addAndGet(RecentIndexFiles.KEPT.toMillis() / 2);
        recent.written("index/a/1/mid.idx");
        millis.addAndGet(RecentIndexFiles.KEPT.toMillis() / 2 + 1);

        assertThat(recent.since("a", START)).as("the old write is gone: it cannot say").isEqualTo(Optional.empty());
        assertThat(recent.since("a", START + 1)).contains(List.of("index/a/1/mid.idx"));
    }

    @Test
    void overTheBound_theOldestDropped_andAMomentBeforeItUnknown() {
        RecentIndexFiles recent = new RecentIndexFiles(clock, 2);
        for (int i = 0; i < 3; i++) {
            recent.written("index/a/1/" + i + ".idx");
            millis.incrementAndGet();
        }
        assertThat(recent.since("a", START)).isEmpty();
        assertThat(recent.since("a", START + 1)).contains(List.of("index/a/1/1.idx", "index/a/1/2.idx"));
    }

    @Test
    void indexWriter_recordsEveryPut_evenOneThatFailed() throws IOException {
        RecentIndexFiles recent = new RecentIndexFiles(clock);
        InMemoryObjectStore memory = new InMemoryObjectStore();
        boolean[] fail = {false};
        ForwardingObjectStore store = new ForwardingObjectStore(memory) {
            @Override
            public void put(String key, byte[] data) throws IOException {
                super.put(key, data); // landed, and yet the store answers an error (a timeout after the write)
                if (fail[0]) {
                    throw new IOException("timed out");
                }
            }
        };
        IndexWriter writer = new IndexWriter(store, IndexConfig.defaults(), clock, "w", null, recent);
        Labels l = Labels.of("app", "x");
        ChunkRef ref = IndexFixtures.ref("a", l, 1, 2);
        List<String> keys = writer.write("a", List.of(new SeriesChunks(l, List.of(ref))));
        fail[0] = true;
        ChunkRef later = IndexFixtures.ref("a", l, 3, 4);
        assertThatThrownBy(() -> writer.write("a", List.of(new SeriesChunks(l, List.of(later)))))
                .isInstanceOf(IOException.class);

        List<String> named = recent.since("a", START).orElseThrow();
        assertThat(named).hasSize(2).startsWith(keys.get(0));
        assertThat(memory.list("index/a/")).containsExactlyInAnyOrderElementsOf(named);
    }
}
