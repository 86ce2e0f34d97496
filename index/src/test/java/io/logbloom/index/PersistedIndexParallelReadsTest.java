package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Over a remote store a lookup lists its periods and opens its files side by side, and answers as one at a time. */
final class PersistedIndexParallelReadsTest {
    private static final String T = "tenant-a";
    private static final long HOUR = 3_600_000_000_000L;
    private static final long DAY = 24 * HOUR;
    private static final int DAYS = 12;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-11-22T00:00:00Z"));

    /**
     * Counts the lists and gets in flight at once; with {@code meet} on, a call waits (up to ten seconds) until a
     * second call of its kind has arrived, so reads made one after another would stall the test ten seconds and
     * count one in flight, never two.
     */
    private static class InFlight extends ForwardingObjectStore {
        final AtomicBoolean meet = new AtomicBoolean();
        final AtomicInteger lists = new AtomicInteger();
        final AtomicInteger gets = new AtomicInteger();
        final AtomicInteger maxLists = new AtomicInteger();
        final AtomicInteger maxGets = new AtomicInteger();
        volatile CountDownLatch listArrivals = new CountDownLatch(2);
        volatile CountDownLatch getArrivals = new CountDownLatch(2);

        InFlight(ObjectStore delegate) {
            super(delegate);
        }

        private void arrive(AtomicInteger now, AtomicInteger max, CountDownLatch arrivals) throws IOException {
            max.accumulateAndGet(now.incrementAndGet(), Math::max);
            if (meet.get()) {
                arrivals.countDown();
                try {
                    arrivals.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException();
                }
            }
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            arrive(lists, maxLists, listArrivals);
            try {
                return super.list(prefix);
            } finally {
                lists.decrementAndGet();
            }
        }

        @Override
        public byte[] get(String key) throws IOException {
            arrive(gets, maxGets, getArrivals);
            try {
                return super.get(key);
            } finally {
                gets.decrementAndGet();
            }
        }
    }

    /** One series per day, each with a ref inside its day: an index file per period. */
    private static List<SeriesChunks> daily() {
        List<SeriesChunks> series = new ArrayList<>();
        for (int d = 0; d < DAYS; d++) {
            Labels l = Labels.of("app", "x", "day", String.valueOf(d));
            series.add(new SeriesChunks(l, List.of(ref(T, l, d * DAY + HOUR, d * DAY + 2 * HOUR))));
        }
        return series;
    }

    @Test
    void remoteStore_periodsListedAndFilesOpenedSideBySide_sameAnswerAsOneAtATime() throws IOException {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        List<String> written = new IndexWriter(memory, config, CLOCK, "w").write(T, daily());
        assertThat(written).hasSize(DAYS);
        InFlight store = new InFlight(memory);
        store.meet.set(true);

        try (PersistedIndex parallel = new PersistedIndex(store, config, new IndexFileCache(store, config));
                PersistedIndex serial = new PersistedIndex(memory, config.withParallelReads(1), new IndexFileCache(memory, config))) {
            List<SeriesChunks> found = parallel.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY);
            assertThat(store.maxLists.get()).as("period listings in flight at once").isGreaterThan(1)
                    .isLessThanOrEqualTo(IndexConfig.DEFAULT_PARALLEL_READS);
            assertThat(store.maxGets.get()).as("index files read at once").isGreaterThan(1)
                    .isLessThanOrEqualTo(IndexConfig.DEFAULT_PARALLEL_READS);
            assertThat(found).isEqualTo(serial.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY)).hasSize(DAYS);
            assertThat(parallel.series(T, sel("day", "=~", "1.*"), 0, DAYS * DAY))
                    .isEqualTo(serial.series(T, sel("day", "=~", "1.*"), 0, DAYS * DAY)).hasSize(3);

            // the files are cached now: a second lookup reads none
            int gets = memory.gets.get();
            parallel.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY);
            assertThat(memory.gets.get()).isEqualTo(gets);
        }
    }

    @Test
    void oneAtATime_orLocalStore_readsInSequence() throws IOException {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        new IndexWriter(memory, config, CLOCK, "w").write(T, daily());
        InFlight store = new InFlight(memory);
        try (PersistedIndex serial = new PersistedIndex(store, config.withParallelReads(1), new IndexFileCache(store, config))) {
            assertThat(serial.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY)).hasSize(DAYS);
        }
        assertThat(store.maxLists.get()).isEqualTo(1);
        assertThat(store.maxGets.get()).isEqualTo(1);

        InFlight local = new InFlight(memory) {
            @Override
            public boolean readsAreLocal() {
                return true;
            }
        };
        try (PersistedIndex onDisk = new PersistedIndex(local, config, new IndexFileCache(local, config))) {
            assertThat(onDisk.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY)).hasSize(DAYS);
        }
        assertThat(local.maxLists.get()).isEqualTo(1);
        assertThat(local.maxGets.get()).isEqualTo(1);
    }

    @Test
    void fileVanishingBeforeItsParallelRead_listedAgainAndMergedFileFound() throws IOException {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        IndexWriter writer = new IndexWriter(memory, config, CLOCK, "w");
        writer.write(T, daily());
        Labels late = Labels.of("app", "x", "day", "3b");
        writer.write(T, List.of(new SeriesChunks(late, List.of(ref(T, late, 3 * DAY + HOUR, 3 * DAY + 3 * HOUR)))));
        AtomicBoolean compacted = new AtomicBoolean();
        // the first read of a period-3 file finds it gone: a compactor merged that period's two files meanwhile
        ObjectStore store = new ForwardingObjectStore(memory) {
            @Override
            public byte[] get(String key) throws IOException {
                if (key.startsWith("index/" + T + "/3/") && compacted.compareAndSet(false, true)) {
                    new IndexCompactor(memory, new IndexWriter(memory, config, CLOCK, "c")).compact(T, 3);
                    throw new ObjectNotFoundException(key);
                }
                return super.get(key);
            }
        };
        try (PersistedIndex index = new PersistedIndex(store, config, new IndexFileCache(store, config))) {
            assertThat(index.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY)).hasSize(DAYS + 1);
        }
        assertThat(compacted).isTrue();
        assertThat(memory.list("index/" + T + "/3/")).hasSize(1);
    }

    @Test
    void damagedFileReadInParallel_failsTheLookupNamingIt_andClosedIndexRefuses() throws IOException {
        InMemoryObjectStore memory = new InMemoryObjectStore();
        IndexConfig config = IndexConfig.defaults();
        new IndexWriter(memory, config, CLOCK, "w").write(T, daily());
        memory.put("index/" + T + "/5/damaged.idx", new byte[] {1, 2, 3});
        PersistedIndex index = new PersistedIndex(memory, config, new IndexFileCache(memory, config));
        assertThatThrownBy(() -> index.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining("index/" + T + "/5/damaged.idx");
        memory.delete("index/" + T + "/5/damaged.idx");
        index.close();
        assertThatThrownBy(() -> index.chunks(T, sel("app", "=", "x"), 0, DAYS * DAY))
                .isInstanceOf(IOException.class).hasMessageContaining("closed");
    }
}
