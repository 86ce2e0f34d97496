package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class IndexListingCachingStoreTest {
    private static final Duration TTL = Duration.ofMinutes(1);
    private static final long DAY = 24 * 3_600_000_000_000L;
    private static final byte[] BYTES = {1};

    private final InMemoryObjectStore backing = new InMemoryObjectStore();
    private final AtomicLong now = new AtomicLong(1_000);
    private final IndexListingCachingStore store = new IndexListingCachingStore(backing, TTL, now::get);

    @Test
    void list_indexPrefix_answeredFromMemoryUntilTheTtlPasses() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);

        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx");
        backing.put("index/t/1/b.idx", BYTES); // another process's upload
        now.addAndGet(TTL.toNanos() - 1);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx");
        assertThat(backing.lists.get()).isEqualTo(1);

        now.addAndGet(1);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx", "index/t/1/b.idx");
        assertThat(backing.lists.get()).isEqualTo(2);
        assertThat(store.hits()).isEqualTo(1);
        assertThat(store.misses()).isEqualTo(2);
    }

    @Test
    void list_otherPrefixesAndTheIndexRoot_alwaysSentToTheStore() throws IOException {
        backing.put("t/objects/a", BYTES);
        store.list("t/");
        store.list("t/");
        store.list("");
        store.list("index/");
        store.list("index/");
        assertThat(backing.lists.get()).isEqualTo(5);
        assertThat(store.hits()).isZero();
    }

    @Test
    void putAndDelete_throughThisStore_seenAtOnceInEveryListingTheyFallUnder() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        store.list("index/t/1/");
        store.list("index/t/");
        store.list("index/u/1/");

        store.put("index/t/1/0.idx", BYTES);
        store.putFile("index/t/1/z.idx", writeTemp());
        store.delete("index/t/1/a.idx");

        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/0.idx", "index/t/1/z.idx");
        assertThat(store.list("index/t/")).containsExactly("index/t/1/0.idx", "index/t/1/z.idx");
        assertThat(store.list("index/u/1/")).isEmpty();
        assertThat(backing.lists.get()).isEqualTo(3);
        assertThat(backing.list("index/")).containsExactly("index/t/1/0.idx", "index/t/1/z.idx");
    }

    @Test
    void list_whileAWriteThroughThisStoreFinishes_isReturnedButNotKept() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        IndexListingCachingStore[] self = new IndexListingCachingStore[1];
        ForwardingObjectStore racing = new ForwardingObjectStore(backing) {
            private boolean raced;

            @Override
            public List<String> list(String prefix) throws IOException {
                List<String> before = super.list(prefix);
                if (!raced) {
                    raced = true;
                    self[0].put("index/t/1/b.idx", BYTES); // lands after the LIST read the bucket
                }
                return before;
            }
        };
        self[0] = new IndexListingCachingStore(racing, TTL, now::get);

        assertThat(self[0].list("index/t/1/")).containsExactly("index/t/1/a.idx");
        assertThat(self[0].list("index/t/1/")).containsExactly("index/t/1/a.idx", "index/t/1/b.idx");
        assertThat(self[0].misses()).isEqualTo(2);
    }

    @Test
    void read_ofAListedKeyAnotherProcessDeleted_dropsTheListing() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        backing.put("index/t/1/b.idx", BYTES);
        assertThat(store.list("index/t/1/")).hasSize(2);
        // a compactor elsewhere merged both files into one
        backing.put("index/t/1/merged.idx", BYTES);
        backing.delete("index/t/1/a.idx");
        backing.delete("index/t/1/b.idx");

        assertThatThrownBy(() -> store.get("index/t/1/a.idx")).isInstanceOf(ObjectNotFoundException.class);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/merged.idx");
        assertThat(backing.lists.get()).isEqualTo(2);
    }

    @Test
    void getRangeAndSize_ofAMissingKey_dropTheListingToo() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        store.list("index/t/1/");
        backing.delete("index/t/1/a.idx");
        assertThatThrownBy(() -> store.getRange("index/t/1/a.idx", 0, 1)).isInstanceOf(ObjectNotFoundException.class);
        assertThat(store.list("index/t/1/")).isEmpty();

        backing.put("index/t/1/b.idx", BYTES);
        store.list("index/t/1/"); // the empty listing is kept
        assertThat(store.list("index/t/1/")).isEmpty();
        assertThatThrownBy(() -> store.size("index/t/1/gone.idx")).isInstanceOf(ObjectNotFoundException.class);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/b.idx");
    }

    @Test
    void forgetTenant_dropsThatTenantsListingsOnly() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        backing.put("index/tt/1/a.idx", BYTES);
        store.list("index/t/1/");
        store.list("index/t/");
        store.list("index/tt/1/");
        backing.put("index/t/1/rewritten.idx", BYTES); // another process's delete rewrite

        store.forgetTenant("t");

        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx", "index/t/1/rewritten.idx");
        assertThat(store.list("index/t/")).containsExactly("index/t/1/a.idx", "index/t/1/rewritten.idx");
        assertThat(store.list("index/tt/1/")).containsExactly("index/tt/1/a.idx");
        assertThat(backing.lists.get()).isEqualTo(5);
    }

    @Test
    void listings_overTheKeyBound_leastRecentlyUsedDropped() throws IOException {
        IndexListingCachingStore small = new IndexListingCachingStore(backing, TTL, now::get, 3);
        backing.put("index/t/1/a.idx", BYTES);
        backing.put("index/t/1/b.idx", BYTES);
        backing.put("index/t/2/a.idx", BYTES);
        backing.put("index/t/3/a.idx", BYTES);
        small.list("index/t/1/"); // 2 keys
        small.list("index/t/2/"); // 3 keys
        small.list("index/t/1/"); // used: period 2 is now the eldest
        small.list("index/t/3/"); // 4 keys: period 2 goes
        assertThat(backing.lists.get()).isEqualTo(3);

        small.list("index/t/1/");
        small.list("index/t/3/");
        assertThat(backing.lists.get()).isEqualTo(3);
        small.list("index/t/2/");
        assertThat(backing.lists.get()).isEqualTo(4);
    }

    @Test
    void persistedIndex_overTheCache_seesItsOwnWritesAtOnceAndAForeignCompactionCorrectly() throws IOException {
        IndexConfig config = new IndexConfig(IndexConfig.DEFAULT_PERIOD, 0); // no opened-file cache: every lookup reads
        InstantSource clock = InstantSource.fixed(Instant.parse("2026-11-28T00:00:00Z"));
        PersistedIndex index = new PersistedIndex(store, config, new IndexFileCache(store, config));
        HeadIndex all = new HeadIndex();
        for (int i = 0; i < 4; i++) {
            Labels l = Labels.of("app", "a" + i);
            all.add("t", l, ref("t", l, i * 1000L, i * 1000L + 10));
            assertThat(index.chunks("t", sel("app", "=~", ".+"), 0, DAY)).hasSize(i);
            HeadIndex head = new HeadIndex();
            head.add("t", l, ref("t", l, i * 1000L, i * 1000L + 10));
            new IndexWriter(store, config, clock, "w" + i).writeFromHead(head, "t");
            assertThat(index.chunks("t", sel("app", "=~", ".+"), 0, DAY))
                    .isEqualTo(all.chunks("t", sel("app", "=~", ".+"), 0, DAY));
        }
        assertThat(backing.lists.get()).isEqualTo(1);

        // another process compacts the period: its merged file replaces the four this store listed
        new IndexCompactor(backing, new IndexWriter(backing, config, clock, "compactor")).compactTenant("t");
        assertThat(backing.list("index/t/0/")).singleElement().asString().contains("compactor");
        int listsBefore = backing.lists.get();

        assertThat(index.chunks("t", sel("app", "=~", ".+"), 0, DAY))
                .isEqualTo(all.chunks("t", sel("app", "=~", ".+"), 0, DAY));
        assertThat(index.chunks("t", sel("app", "=~", ".+"), 0, DAY))
                .isEqualTo(all.chunks("t", sel("app", "=~", ".+"), 0, DAY));
        assertThat(backing.lists.get()).as("listed again once, after the first read missed").isEqualTo(listsBefore + 1);
    }

    @Test
    void constructor_badTtl_refused() {
        assertThatThrownBy(() -> new IndexListingCachingStore(backing, Duration.ZERO, now::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }

    private static java.nio.file.Path writeTemp() throws IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("listing", ".idx");
        java.nio.file.Files.write(file, BYTES);
        file.toFile().deleteOnExit();
        return file;
    }

    @Test
    void reportedKeys_shownInKeptAndFreshListingsUnderTheirPrefix_untilNotReportedForTheTtl() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx");
        backing.put("index/t/1/b.idx", BYTES); // an ingester's upload, after the listing was kept
        backing.put("index/t/2/c.idx", BYTES);
        backing.put("index/u/1/d.idx", BYTES);

        store.reported(List.of("index/t/1/b.idx", "index/t/2/c.idx", "index/u/1/d.idx", "t/objects/x"));
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx", "index/t/1/b.idx");
        assertThat(store.list("index/t/2/")).containsExactly("index/t/2/c.idx"); // listed: shown once
        assertThat(store.list("index/t/")).containsExactly("index/t/1/a.idx", "index/t/1/b.idx", "index/t/2/c.idx");
        assertThat(store.list("index/u/1/")).containsExactly("index/u/1/d.idx");
        assertThat(backing.lists.get()).isEqualTo(4);

        // a report is shown until no report named it for a ttl, whatever the kept listing holds
        IndexListingCachingStore fresh = new IndexListingCachingStore(backing, TTL, now::get);
        long t0 = now.get();
        fresh.reported(List.of("index/t/9/r.idx")); // (not in the store: the test looks at the reports alone)
        now.incrementAndGet();
        assertThat(fresh.list("index/t/9/")).containsExactly("index/t/9/r.idx"); // kept: an empty listing
        now.set(t0 + TTL.toNanos() - 1);
        assertThat(fresh.list("index/t/9/")).containsExactly("index/t/9/r.idx");
        now.set(t0 + TTL.toNanos());
        assertThat(fresh.list("index/t/9/")).isEmpty();
        assertThat(fresh.hits()).isEqualTo(2);
    }

    @Test
    void reportedKeyFoundMissing_noLongerShown() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        store.list("index/t/1/");
        store.reported(List.of("index/t/1/gone.idx")); // a put that failed and did not land
        assertThat(store.list("index/t/1/")).contains("index/t/1/gone.idx");
        assertThatThrownBy(() -> store.get("index/t/1/gone.idx")).isInstanceOf(ObjectNotFoundException.class);
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx");
    }

    @Test
    void forgetAll_dropsEveryListingAndReport_andAListingRunningMeanwhileIsNotKept() throws IOException {
        backing.put("index/t/1/a.idx", BYTES);
        backing.put("index/u/1/b.idx", BYTES);
        store.list("index/t/1/");
        store.list("index/u/1/");
        store.reported(List.of("index/t/1/r.idx"));
        store.forgetAll();
        assertThat(store.list("index/t/1/")).containsExactly("index/t/1/a.idx");
        store.list("index/u/1/");
        assertThat(backing.lists.get()).isEqualTo(4);

        IndexListingCachingStore[] self = new IndexListingCachingStore[1];
        InMemoryObjectStore memory = new InMemoryObjectStore();
        ForwardingObjectStore racing = new ForwardingObjectStore(memory) {
            @Override
            public List<String> list(String prefix) throws IOException {
                List<String> keys = super.list(prefix);
                self[0].forgetAll(); // decided by another query while this LIST was on its way
                return keys;
            }
        };
        memory.put("index/t/1/a.idx", BYTES);
        self[0] = new IndexListingCachingStore(racing, TTL, now::get);
        self[0].list("index/t/1/");
        self[0].list("index/t/1/");
        assertThat(memory.lists.get()).isEqualTo(2);
    }

    @Test
    void reportsOverTheBound_listEveryLookup() throws IOException {
        IndexListingCachingStore small = new IndexListingCachingStore(backing, TTL, now::get, 3);
        backing.put("index/t/1/a.idx", BYTES);
        small.list("index/t/1/");
        small.reported(List.of("index/t/1/1", "index/t/1/2", "index/t/1/3", "index/t/1/4"));
        assertThat(small.list("index/t/1/")).containsExactly("index/t/1/a.idx");
        assertThat(backing.lists.get()).isEqualTo(2);
        assertThat(small.ttl()).isEqualTo(TTL);
    }
}
