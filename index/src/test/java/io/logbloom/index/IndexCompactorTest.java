package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class IndexCompactorTest {
    private static final String T = "t";
    private static final long HOUR = 3_600_000_000_000L;
    private static final long DAY = 24 * HOUR;
    private final IndexConfig config = IndexConfig.defaults();
    private final InstantSource clock = InstantSource.fixed(Instant.parse("2026-11-22T00:00:00Z"));

    /** Ten flush cycles, each persisting a few series over days 0..2. */
    private List<String> writeCycles(ObjectStore store, HeadIndex all) throws IOException {
        List<String> keys = new ArrayList<>();
        for (int cycle = 0; cycle < 10; cycle++) {
            HeadIndex head = new HeadIndex();
            for (int s = 0; s < 5; s++) {
                Labels l = Labels.of("app", "a" + s, "cycle", "c" + (cycle % 3));
                long from = cycle * 5 * HOUR + s * HOUR;
                head.add(T, l, ref(T, l, from, from + 2 * HOUR));
                all.add(T, l, ref(T, l, from, from + 2 * HOUR));
            }
            keys.addAll(new IndexWriter(store, config, clock, "w" + cycle).writeFromHead(head, T));
        }
        return keys;
    }

    @Test
    void compactTenant_mergesEachPeriodIntoOneFile_lookupsUnchanged() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        HeadIndex all = new HeadIndex();
        List<String> written = writeCycles(store, all);
        PersistedIndex persisted = new PersistedIndex(store, config, new IndexFileCache(store, config));
        List<SeriesChunks> before = persisted.chunks(T, sel("app", "=~", ".+"), 0, 3 * DAY);
        assertThat(before).isEqualTo(all.chunks(T, sel("app", "=~", ".+"), 0, 3 * DAY));

        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor"));
        List<String> merged = compactor.compactTenant(T);

        // periods 0 and 1 had many files; period 2 only cycle 9's, which stays as it is
        assertThat(merged).hasSize(2).allMatch(k -> k.startsWith("index/t/0/compactor-") || k.startsWith("index/t/1/compactor-"));
        assertThat(store.list("index/t/0/")).containsExactly(merged.get(0));
        assertThat(store.list("index/t/1/")).containsExactly(merged.get(1));
        assertThat(store.list("index/t/2/")).hasSize(1).allMatch(k -> k.startsWith("index/t/2/w9-"));
        assertThat(written).doesNotContainAnyElementsOf(merged);
        PersistedIndex fresh = new PersistedIndex(store, config, new IndexFileCache(store, config));
        assertThat(fresh.chunks(T, sel("app", "=~", ".+"), 0, 3 * DAY)).isEqualTo(before);
        assertThat(fresh.labelValues(T, "cycle", List.of(), 0, 3 * DAY)).containsExactly("c0", "c1", "c2");
        assertThat(compactor.compactTenant(T)).isEmpty();
        assertThat(compactor.compact(T, 0)).isEmpty();
    }

    @Test
    void compact_corruptedInput_deletesNothing() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        writeCycles(store, new HeadIndex());
        List<String> before = store.list("index/t/0/");
        byte[] bad = store.get(before.get(1));
        bad[10] ^= 1;
        store.put(before.get(1), bad);
        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor"));
        assertThatThrownBy(() -> compactor.compact(T, 0))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining(before.get(1));
        assertThat(store.list("index/t/0/")).isEqualTo(before);
    }

    @Test
    void lookup_listedFileDeletedByCompaction_listsAgain() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        HeadIndex all = new HeadIndex();
        writeCycles(store, all);
        new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor")).compactTenant(T);
        ObjectStore stale = new ForwardingObjectStore(store) {
            private boolean first = true;

            @Override
            public List<String> list(String prefix) throws IOException {
                List<String> keys = new ArrayList<>(super.list(prefix));
                if (first) {
                    first = false;
                    keys.add(0, "index/t/0/w0-0000000000000-00000000.idx");
                }
                return keys;
            }
        };
        PersistedIndex persisted = new PersistedIndex(stale, config, new IndexFileCache(stale, config));
        assertThat(persisted.chunks(T, sel("app", "=~", ".+"), 0, DAY))
                .isEqualTo(all.chunks(T, sel("app", "=~", ".+"), 0, DAY));
    }

    /** Delegates every call; subclasses override what they fake. */

    @Test
    void rewrite_dropsRefs_keepsTheRest_andListsTenantsAndPeriods() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        writeCycles(store, new HeadIndex());
        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor"));
        assertThat(compactor.tenants()).containsExactly(T);
        var files = compactor.filesByPeriod(T);
        assertThat(files.keySet()).containsExactly(0L, 1L, 2L);

        IndexCompactor.PeriodContent content = compactor.read(T, 0, files.get(0L));
        List<SeriesChunks> kept = content.series().stream()
                .map(s -> new SeriesChunks(s.labels(), s.chunks().stream().filter(r -> r.fromNanos() >= 10 * HOUR).toList()))
                .toList();
        String key = compactor.rewrite(content, kept).orElseThrow();

        assertThat(store.list("index/t/0/")).containsExactly(key);
        IndexCompactor.PeriodContent after = compactor.read(T, 0, List.of(key));
        assertThat(after.series()).allSatisfy(s -> assertThat(s.chunks()).allMatch(r -> r.fromNanos() >= 10 * HOUR));
        assertThat(after.series()).flatMap(SeriesChunks::chunks).isNotEmpty();
    }

    @Test
    void rewrite_nothingKept_deletesEveryInput() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        writeCycles(store, new HeadIndex());
        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor"));
        IndexCompactor.PeriodContent content = compactor.read(T, 2, compactor.filesByPeriod(T).get(2L));

        assertThat(compactor.rewrite(content, List.of())).isEmpty();
        assertThat(store.list("index/t/2/")).isEmpty();
        assertThat(compactor.filesByPeriod(T).keySet()).containsExactly(0L, 1L);
    }
}
