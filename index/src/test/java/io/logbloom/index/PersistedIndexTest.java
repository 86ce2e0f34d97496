package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.m;
import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class PersistedIndexTest {
    private static final String T = "tenant-a";
    private static final long HOUR = 3_600_000_000_000L;
    private static final long DAY = 24 * HOUR;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-11-22T00:00:00Z"));

    @TempDir
    static Path tmp;

    static Stream<Arguments> stores() throws IOException {
        return Stream.of(Arguments.of("memory", new InMemoryObjectStore()),
                Arguments.of("filesystem", new FileSystemObjectStore(tmp.resolve("store-" + System.nanoTime()))));
    }

    private static PersistedIndex persisted(ObjectStore store, IndexConfig config) {
        return new PersistedIndex(store, config, new IndexFileCache(store, config));
    }

    /** Random series over four days with refs of up to three hours, some crossing midnight. */
    private static HeadIndex randomHead(Random random, String tenant, int seriesCount) {
        HeadIndex head = new HeadIndex();
        for (int i = 0; i < seriesCount; i++) {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("app", "app" + random.nextInt(10));
            if (random.nextInt(4) > 0) {
                labels.put("env", List.of("prod", "dev", "staging").get(random.nextInt(3)));
            }
            if (random.nextInt(3) == 0) {
                labels.put("team", random.nextBoolean() ? "" : "t" + random.nextInt(3));
            }
            labels.put("pod", "pod-" + i);
            Labels l = Labels.of(labels);
            int refs = 1 + random.nextInt(4);
            for (int r = 0; r < refs; r++) {
                long from = (long) (random.nextDouble() * 4 * DAY);
                long through = from + (long) (random.nextDouble() * 3 * HOUR);
                head.add(tenant, l, ref(tenant, l, from, through));
            }
        }
        return head;
    }

    private static final List<List<LabelMatcher>> SELECTORS = List.of(
            sel("app", "=", "app3"),
            sel("app", "=~", "app[1-4]", "env", "!=", "prod"),
            sel("app", "=~", ".+", "env", "=", ""),
            sel("app", "!~", "app[0-6]", "pod", "=~", "pod-.*"),
            sel("team", "=~", ".+"),
            sel("team", "=", "", "env", "=~", "dev|staging"),
            sel("pod", "=", "pod-7"),
            sel("pod", "=~", "pod-1[0-9]"),
            sel("nothing", "=", "x"),
            List.of());

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void lookups_headVsPersisted_equalOverRandomData(String name, ObjectStore store) throws IOException {
        Random random = new Random(42);
        HeadIndex head = randomHead(random, T, 300);
        IndexConfig config = IndexConfig.defaults();
        // two writers, each persisting a different, overlapping half of the head: readers must union them
        List<SeriesChunks> all = head.chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        List<String> keys = new ArrayList<>();
        keys.addAll(new IndexWriter(store, config, CLOCK, "w1").write(T, all.subList(0, 200)));
        keys.addAll(new IndexWriter(store, config, CLOCK, "w2").write(T, all.subList(150, all.size())));
        assertThat(keys).hasSizeGreaterThan(5).allMatch(k -> k.matches("index/tenant-a/[0-9]+/w[12]-\\d{13}-[0-9a-f]{8}\\.idx"));
        PersistedIndex persisted = persisted(store, config);
        List<long[]> ranges = new ArrayList<>(List.of(new long[] {Long.MIN_VALUE, Long.MAX_VALUE},
                new long[] {0, DAY}, new long[] {DAY - HOUR, DAY + HOUR}, new long[] {5 * DAY, 6 * DAY}));
        for (int i = 0; i < 20; i++) {
            long from = (long) (random.nextDouble() * 4.5 * DAY);
            ranges.add(new long[] {from, from + (long) (random.nextDouble() * DAY)});
        }
        for (List<LabelMatcher> matchers : SELECTORS.subList(0, 8)) {
            assertThat(head.series(T, matchers, 0, 5 * DAY)).as("selector %s selects something", matchers).isNotEmpty();
        }
        for (List<LabelMatcher> matchers : SELECTORS) {
            for (long[] r : ranges) {
                String what = matchers + " over [" + r[0] + ", " + r[1] + ")";
                assertThat(persisted.chunks(T, matchers, r[0], r[1])).as(what)
                        .isEqualTo(head.chunks(T, matchers, r[0], r[1]));
                assertThat(persisted.series(T, matchers, r[0], r[1])).as(what)
                        .isEqualTo(head.series(T, matchers, r[0], r[1]));
                assertThat(persisted.labelNames(T, matchers, r[0], r[1])).as(what)
                        .isEqualTo(head.labelNames(T, matchers, r[0], r[1]));
                assertThat(persisted.labelValues(T, "env", matchers, r[0], r[1])).as(what)
                        .isEqualTo(head.labelValues(T, "env", matchers, r[0], r[1]));
            }
        }
        assertThat(persisted.chunks(T, List.of(), 0, 5 * DAY).stream().mapToInt(s -> s.chunks().size()).sum())
                .isEqualTo(all.stream().mapToInt(s -> s.chunks().size()).sum());
    }

    @Test
    void writerAdmittingToTheCache_lookupsReadNoIndexFileBack() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        IndexFileCache cache = new IndexFileCache(store, config);
        PersistedIndex persisted = new PersistedIndex(store, config, cache);
        Labels l = Labels.of("app", "x");
        ChunkRef crossing = ref(T, l, DAY - HOUR, DAY + HOUR);
        List<String> keys = new IndexWriter(store, config, CLOCK, "w", cache)
                .write(T, List.of(new SeriesChunks(l, List.of(crossing))));
        assertThat(keys).hasSize(2);
        int getsBefore = store.gets.get();

        assertThat(persisted.chunks(T, sel("app", "=", "x"), 0, 2 * DAY))
                .containsExactly(new SeriesChunks(l, List.of(crossing)));
        assertThat(store.gets.get()).as("index files read back").isEqualTo(getsBefore);
        assertThat(cache.loadCount()).isZero();
        // what a fresh cache reads from the store is the same
        assertThat(persisted(store, config).chunks(T, sel("app", "=", "x"), 0, 2 * DAY))
                .isEqualTo(persisted.chunks(T, sel("app", "=", "x"), 0, 2 * DAY));

        cache.admit("index/tenant-a/5/damaged.idx", new byte[] {1, 2, 3}); // left out, not thrown
        store.put("index/tenant-a/5/damaged.idx", new byte[] {1, 2, 3});
        assertThatThrownBy(() -> persisted.chunks(T, sel("app", "=", "x"), 5 * DAY, 6 * DAY))
                .isInstanceOf(IndexFormatException.class);
    }

    @Test
    void chunks_refSpanningPeriods_foundFromEitherPeriodOnce() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        Labels l = Labels.of("app", "x");
        ChunkRef crossing = ref(T, l, DAY - HOUR, DAY + HOUR);
        List<String> keys = new IndexWriter(store, config, CLOCK, "w").write(T, List.of(new SeriesChunks(l, List.of(crossing))));
        assertThat(keys).hasSize(2).allMatch(k -> k.startsWith("index/tenant-a/0/") || k.startsWith("index/tenant-a/1/"));
        PersistedIndex persisted = persisted(store, config);
        List<LabelMatcher> app = sel("app", "=", "x");
        assertThat(persisted.chunks(T, app, 0, DAY - HOUR)).isEmpty();
        assertThat(persisted.chunks(T, app, 0, DAY - HOUR + 1)).containsExactly(new SeriesChunks(l, List.of(crossing)));
        assertThat(persisted.chunks(T, app, DAY + HOUR, 2 * DAY)).containsExactly(new SeriesChunks(l, List.of(crossing)));
        assertThat(persisted.chunks(T, app, DAY + HOUR + 1, 2 * DAY)).isEmpty();
        assertThat(persisted.chunks(T, app, 0, 2 * DAY)).containsExactly(new SeriesChunks(l, List.of(crossing)));
        assertThat(persisted.fileKeys(T, DAY, DAY)).isEmpty();
    }

    @Test
    void lookups_tenantsIsolated() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        IndexWriter writer = new IndexWriter(store, config, CLOCK, "w");
        writer.writeFromHead(randomHead(new Random(1), "a", 20), "a");
        writer.writeFromHead(randomHead(new Random(2), "b", 20), "b");
        writer.writeFromHead(randomHead(new Random(3), "ab", 20), "ab");
        PersistedIndex persisted = persisted(store, config);
        List<LabelMatcher> all = sel("pod", "=~", ".+");
        for (String tenant : List.of("a", "b", "ab")) {
            List<SeriesChunks> found = persisted.chunks(tenant, all, 0, 5 * DAY);
            assertThat(found).hasSize(20);
            assertThat(found).flatExtracting(SeriesChunks::chunks).allMatch(r -> r.tenant().equals(tenant));
        }
        assertThat(persisted.chunks("c", all, 0, 5 * DAY)).isEmpty();
    }

    @Test
    void lookups_useCacheAndListWidePeriodRangesOnce() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        new IndexWriter(store, config, CLOCK, "w").writeFromHead(randomHead(new Random(5), T, 50), T);
        IndexFileCache cache = new IndexFileCache(store, config);
        PersistedIndex persisted = new PersistedIndex(store, config, cache);
        List<LabelMatcher> all = sel("app", "=~", ".+");
        int files = persisted.fileKeys(T, 0, 5 * DAY).size();
        List<SeriesChunks> first = persisted.chunks(T, all, 0, 5 * DAY);
        int gets = store.gets.get();
        assertThat(gets).isEqualTo(files);
        assertThat(persisted.chunks(T, all, 0, 5 * DAY)).isEqualTo(first);
        assertThat(store.gets.get()).isEqualTo(gets);
        assertThat(cache.loadCount()).isEqualTo(files);
        assertThat(cache.hitCount()).isEqualTo(files);
        assertThat(cache.cachedBytes()).isPositive();
        int lists = store.lists.get();
        assertThat(persisted.chunks(T, all, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(first);
        assertThat(store.lists.get()).isEqualTo(lists + 1);
        store.put("index/" + T + "/1/notes.txt", new byte[] {1});
        store.put("index/" + T + "/x/y.idx", new byte[] {1});
        assertThat(persisted.chunks(T, all, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(first);
        assertThat(persisted.chunks(T, all, 0, 5 * DAY)).isEqualTo(first);
    }

    @Test
    void cache_boundedBySize_evictsAndReloads() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = new IndexConfig(Duration.ofHours(24), 1);
        new IndexWriter(store, config, CLOCK, "w").writeFromHead(randomHead(new Random(5), T, 10), T);
        IndexFileCache cache = new IndexFileCache(store, config);
        PersistedIndex persisted = new PersistedIndex(store, config, cache);
        persisted.series(T, sel("app", "=~", ".+"), 0, DAY);
        persisted.series(T, sel("app", "=~", ".+"), 0, DAY);
        assertThat(cache.loadCount()).isEqualTo(2);
        assertThat(cache.cachedBytes()).isLessThanOrEqualTo(1);
    }

    @Test
    void lookups_corruptedFile_failNamingKey() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        String key = new IndexWriter(store, config, CLOCK, "w")
                .write(T, List.of(new SeriesChunks(Labels.of("app", "x"), List.of(ref(T, Labels.of("app", "x"), 5, 6)))))
                .get(0);
        byte[] bytes = store.get(key);
        bytes[bytes.length / 2] ^= 0x10;
        store.put(key, bytes);
        PersistedIndex persisted = persisted(store, config);
        assertThatThrownBy(() -> persisted.chunks(T, sel("app", "=", "x"), 0, 10))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining(key).hasMessageContaining("checksum");
    }

    @Test
    void lookups_fileUnderWrongTenant_rejected() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        String key = new IndexWriter(store, config, CLOCK, "w")
                .write(T, List.of(new SeriesChunks(Labels.of("app", "x"), List.of(ref(T, Labels.of("app", "x"), 5, 6)))))
                .get(0);
        store.put("index/intruder/0/copy.idx", store.get(key));
        assertThatThrownBy(() -> persisted(store, config).series("intruder", sel("app", "=", "x"), 0, 10))
                .isInstanceOf(IndexFormatException.class)
                .hasMessageContaining("index/intruder/0/copy.idx").hasMessageContaining("tenant-a");
    }

    @Test
    void lookups_badSelector_rejectedEvenWithoutFiles() {
        InMemoryObjectStore store = new InMemoryObjectStore();
        PersistedIndex persisted = persisted(store, IndexConfig.defaults());
        assertThatThrownBy(() -> persisted.series(T, List.of(m("app", "=~", ".*")), 0, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty-compatible");
        assertThatThrownBy(() -> persisted.series("a/b", sel("app", "=", "x"), 0, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a/b");
    }

    @Test
    void writer_badWriterId_rejected() {
        InMemoryObjectStore store = new InMemoryObjectStore();
        for (String id : List.of("", "a/b", "..", "x y")) {
            assertThatThrownBy(() -> new IndexWriter(store, IndexConfig.defaults(), CLOCK, id))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + id + "'");
        }
    }

    @Test
    void writer_emptyContent_writesNothing() throws IOException {
        InMemoryObjectStore store = new InMemoryObjectStore();
        assertThat(new IndexWriter(store, IndexConfig.defaults(), CLOCK, "w").writeFromHead(new HeadIndex(), T)).isEmpty();
        assertThat(store.list("")).isEmpty();
    }
}
