package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.m;
import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CombinedIndexTest {
    private static final String T = "t1";
    private static final long DAY = 86_400_000_000_000L;

    @Test
    void chunks_headAndPersisted_unionedAndDeduplicated() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        Labels a = Labels.of("app", "a");
        Labels b = Labels.of("app", "b", "env", "prod");
        ChunkRef old = ref(T, a, 10, 20);
        ChunkRef both = ref(T, a, 30, 40);
        ChunkRef fresh = ref(T, a, 50, 60);
        ChunkRef onlyB = ref(T, b, DAY + 5, DAY + 6);
        HeadIndex flushed = new HeadIndex();
        flushed.add(T, a, old);
        flushed.add(T, a, both);
        flushed.add(T, b, onlyB);
        new IndexWriter(store, config, InstantSource.fixed(Instant.EPOCH), "w").writeFromHead(flushed, T);

        HeadIndex head = new HeadIndex();
        head.add(T, a, both);
        head.add(T, a, fresh);
        CombinedIndex combined = new CombinedIndex(head,
                new PersistedIndex(store, config, new IndexFileCache(store, config)));

        assertThat(combined.chunks(T, sel("app", "=~", "a|b"), 0, 2 * DAY)).containsExactly(
                new SeriesChunks(a, List.of(old, both, fresh)), new SeriesChunks(b, List.of(onlyB)));
        assertThat(combined.chunks(T, sel("app", "=", "a"), 35, 55))
                .containsExactly(new SeriesChunks(a, List.of(both, fresh)));
        assertThat(combined.series(T, sel("app", "=~", ".+"), 0, 2 * DAY)).containsExactly(a, b);
        assertThat(combined.labelNames(T, List.of(), 0, 2 * DAY)).containsExactly("app", "env");
        assertThat(combined.labelNames(T, List.of(), 0, DAY)).containsExactly("app");
        assertThat(combined.labelValues(T, "app", List.of(), 0, 2 * DAY)).containsExactly("a", "b");
        assertThat(combined.chunks("t2", sel("app", "=", "a"), 0, 2 * DAY)).isEmpty();
    }

    @Test
    void lookups_badArguments_rejectedWithoutParts() {
        CombinedIndex empty = new CombinedIndex(List.of());
        assertThatThrownBy(() -> empty.chunks(T, List.of(m("a", "!=", "x")), 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a!=\"x\"");
        assertThatThrownBy(() -> empty.labelNames(T, List.of(), 2, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before");
    }
}
