package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    private static ChunkRef inObject(Labels labels, String object, long from, long through) {
        return new ChunkRef(T, labels.fingerprint(), from, through, 7, 100, 10, T + "/objects/" + object + ".lbo");
    }

    @Test
    void rewrite_replacingObjects_readerListingOldAndNewFileCountsEachRowOnce() throws IOException {
        Labels a = Labels.of("app", "a");
        Labels b = Labels.of("app", "b");
        InMemoryObjectStore backing = new InMemoryObjectStore();
        new IndexWriter(backing, config, clock, "ingester").write(T, List.of(
                new SeriesChunks(a, List.of(inObject(a, "old1", HOUR, 2 * HOUR))),
                new SeriesChunks(b, List.of(inObject(b, "old2", HOUR, 3 * HOUR)))));
        List<SeriesChunks> seenMidRewrite = new ArrayList<>();
        ObjectStore store = new ForwardingObjectStore(backing) {
            @Override
            public void delete(String key) throws IOException {
                // the moment between the new file's put and the old file's delete: a reader lists both
                PersistedIndex reader = new PersistedIndex(backing, config, new IndexFileCache(backing, config));
                seenMidRewrite.addAll(reader.chunks(T, List.of(), 0, DAY));
                super.delete(key);
            }
        };
        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "compactor"));
        IndexCompactor.PeriodContent content = compactor.read(T, 0, compactor.filesByPeriod(T).get(0L));
        ChunkRef replacement = inObject(a, "new1", HOUR, 2 * HOUR);
        List<SeriesChunks> kept = List.of(new SeriesChunks(a, List.of(replacement)),
                new SeriesChunks(b, List.of(inObject(b, "old2", HOUR, 3 * HOUR))));

        compactor.rewrite(content, kept, Set.of(T + "/objects/old1.lbo"));

        assertThat(seenMidRewrite).isEqualTo(kept);
        PersistedIndex after = new PersistedIndex(backing, config, new IndexFileCache(backing, config));
        assertThat(after.chunks(T, List.of(), 0, DAY)).isEqualTo(kept);
    }

    @Test
    void compact_supersededObjectStillStored_markCarriedUntilItIsDeleted() throws IOException {
        Labels a = Labels.of("app", "a");
        InMemoryObjectStore store = new InMemoryObjectStore();
        String oldObject = T + "/objects/old1.lbo";
        store.put(oldObject, new byte[] {1}); // swept later than the index switch (retention_delete_delay)
        String old = new IndexWriter(store, config, clock, "ingester")
                .write(T, List.of(new SeriesChunks(a, List.of(inObject(a, "old1", HOUR, 2 * HOUR))))).get(0);
        IndexCompactor compactor = new IndexCompactor(store, new IndexWriter(store, config, clock, "c"));
        compactor.rewrite(compactor.read(T, 0, List.of(old)),
                List.of(new SeriesChunks(a, List.of(inObject(a, "new1", HOUR, 2 * HOUR)))), Set.of(oldObject));
        new IndexWriter(store, config, InstantSource.fixed(Instant.parse("2026-11-22T01:00:00Z")), "ingester")
                .write(T, List.of(new SeriesChunks(a, List.of(inObject(a, "later", 3 * HOUR, 4 * HOUR)))));

        String merged = compactor.compact(T, 0).orElseThrow();

        assertThat(IndexFileReader.open(merged, store.get(merged)).supersededObjectKeys()).containsExactly(oldObject);
        assertThat(new PersistedIndex(store, config, new IndexFileCache(store, config)).supersedes(T, oldObject, 0, DAY))
                .isTrue();
        store.delete(oldObject);
        new IndexWriter(store, config, InstantSource.fixed(Instant.parse("2026-11-22T02:00:00Z")), "ingester")
                .write(T, List.of(new SeriesChunks(a, List.of(inObject(a, "latest", 5 * HOUR, 6 * HOUR)))));
        String next = compactor.compact(T, 0).orElseThrow();
        assertThat(IndexFileReader.open(next, store.get(next)).supersededObjectKeys()).isEmpty();
    }

    @Test
    void compact_oldFileOutlivingARewrite_staysSupersededUntilNoInputRefersToIt() throws IOException {
        Labels a = Labels.of("app", "a");
        InMemoryObjectStore backing = new InMemoryObjectStore();
        String old = new IndexWriter(backing, config, clock, "ingester")
                .write(T, List.of(new SeriesChunks(a, List.of(inObject(a, "old1", HOUR, 2 * HOUR))))).get(0);
        ObjectStore failingOnce = new ForwardingObjectStore(backing) {
            private boolean failed;

            @Override
            public void delete(String key) throws IOException {
                if (!failed) {
                    failed = true;
                    throw new IOException("crashed before deleting " + key);
                }
                super.delete(key);
            }
        };
        IndexCompactor crashing = new IndexCompactor(failingOnce, new IndexWriter(failingOnce, config, clock, "c1"));
        List<SeriesChunks> replaced = List.of(new SeriesChunks(a, List.of(inObject(a, "new1", HOUR, 2 * HOUR))));
        assertThatThrownBy(() -> crashing.rewrite(crashing.read(T, 0, List.of(old)), replaced,
                Set.of(T + "/objects/old1.lbo"))).hasMessageContaining("crashed");
        assertThat(backing.list("index/t/0/")).hasSize(2).contains(old);
        PersistedIndex reader = new PersistedIndex(backing, config, new IndexFileCache(backing, config));
        assertThat(reader.chunks(T, List.of(), 0, DAY)).isEqualTo(replaced);
        assertThat(reader.supersedes(T, T + "/objects/old1.lbo", 0, DAY)).isTrue();
        assertThat(reader.supersedes(T, T + "/objects/new1.lbo", 0, DAY)).isFalse();
        assertThat(reader.supersedes(T, T + "/objects/old1.lbo", DAY, 2 * DAY)).as("another period").isFalse();

        // merging the old file with the new one keeps the old object superseded: the old file may outlive the merge
        IndexCompactor compactor = new IndexCompactor(backing, new IndexWriter(backing, config, clock, "c2"));
        IndexCompactor.PeriodContent both = compactor.read(T, 0, compactor.filesByPeriod(T).get(0L));
        assertThat(both.series()).isEqualTo(replaced);
        assertThat(both.superseded()).containsExactly(T + "/objects/old1.lbo");
        String merged = compactor.rewrite(both, both.series()).orElseThrow();
        assertThat(IndexFileReader.open(merged, backing.get(merged)).supersededObjectKeys())
                .containsExactly(T + "/objects/old1.lbo");

        // once no input refers to it any more, the next merge forgets it
        new IndexWriter(backing, config, InstantSource.fixed(Instant.parse("2026-11-22T01:00:00Z")), "ingester")
                .write(T, List.of(new SeriesChunks(a, List.of(inObject(a, "later", 3 * HOUR, 4 * HOUR)))));
        String last = compactor.compact(T, 0).orElseThrow();
        assertThat(IndexFileReader.open(last, backing.get(last)).supersededObjectKeys()).isEmpty();
        assertThat(new PersistedIndex(backing, config, new IndexFileCache(backing, config))
                .supersedes(T, T + "/objects/old1.lbo", 0, DAY)).isFalse();
        assertThat(new PersistedIndex(backing, config, new IndexFileCache(backing, config)).chunks(T, List.of(), 0, DAY))
                .flatExtracting(SeriesChunks::chunks).extracting(ChunkRef::objectKey)
                .containsExactly(T + "/objects/new1.lbo", T + "/objects/later.lbo");
    }
}
