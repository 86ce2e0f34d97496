package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class ScalableBloomFilterTest {

    @Test
    void growth_multipliesCapacityAndTightensErrorRate() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults().withInitialCapacity(100));
        for (int i = 0; i < 1_000; i++) {
            filter.add("token-" + i);
        }
        PartitionedBloomFilter[] subFilters = filter.subFilters();
        assertThat(subFilters).hasSize(4);
        assertThat(subFilters).extracting(PartitionedBloomFilter::capacity).containsExactly(100L, 200L, 400L, 800L);
        assertThat(subFilters).extracting(PartitionedBloomFilter::errorRate).containsExactly(0.005, 0.0025, 0.00125, 0.000625);
        for (int i = 0; i < 3; i++) {
            assertThat(subFilters[i].itemsInserted()).isEqualTo(subFilters[i].capacity());
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void randomItemsAcrossGrowth_neverFalseNegative(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        BloomConfig config = BloomConfig.defaults()
                .withInitialCapacity(1 + random.nextInt(200))
                .withErrorRate(0.3 / (1 + random.nextInt(300)))
                .withExpansion(1 + random.nextDouble() * 3)
                .withTightening(0.3 + random.nextDouble() * 0.6);
        ScalableBloomFilter filter = ScalableBloomFilter.create(config);
        long[] hashes = random.longs(20_000 + random.nextInt(20_000)).toArray();
        for (long hash : hashes) {
            assertThat(filter.add(hash)).isNotEqualTo(AddResult.FULL);
        }
        assertThat(filter.stats().subFilters()).as("%s", config).isGreaterThan(3);
        for (long hash : hashes) {
            assertThat(filter.mightContain(hash)).as("seed %d %s", seed, config).isTrue();
        }
    }

    @ParameterizedTest
    @CsvSource({"0.01", "0.001"})
    void falsePositiveRate_afterFiveGrowthsAtOneMillionItems_withinTenPercentOfTarget(double errorRate) {
        int items = 1_000_000;
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                BloomConfig.defaults().withInitialCapacity(25_000).withErrorRate(errorRate));
        for (int i = 0; i < items; i++) {
            filter.add("member-" + i);
        }
        assertThat(filter.stats().subFilters()).isGreaterThanOrEqualTo(6);
        int falsePositives = 0;
        for (int i = 0; i < items; i++) {
            if (filter.mightContain("absent-" + i)) {
                falsePositives++;
            }
        }
        assertThat((double) falsePositives / items).isLessThanOrEqualTo(errorRate * 1.1);
    }

    @Test
    void sizeLimit_reachedAfterGrowth_reportsFullAndKeepsEveryAddedItem() {
        BloomConfig config = BloomConfig.defaults().withInitialCapacity(1000).withMaxSizeBytes(6000);
        ScalableBloomFilter filter = ScalableBloomFilter.create(config);
        List<String> added = new ArrayList<>();
        int full = 0;
        for (int i = 0; i < 10_000; i++) {
            String token = "token-" + i;
            AddResult result = filter.add(token);
            if (result == AddResult.ADDED) {
                added.add(token);
            } else if (result == AddResult.FULL) {
                full++;
                assertThat(filter.mightContain(token)).as("a refused item leaves no trace").isFalse();
            }
        }
        BloomStats stats = filter.stats();
        assertThat(filter.isFull()).isTrue();
        assertThat(full).isGreaterThan(5_000);
        assertThat(stats.subFilters()).isEqualTo(2);
        assertThat(stats.sizeBytes()).isLessThanOrEqualTo(6000);
        assertThat(stats.capacity()).isEqualTo(3000).isEqualTo(stats.maxScaledCapacity());
        assertThat(stats.itemsInserted()).isEqualTo(added.size()).isEqualTo(3000);
        for (String token : added) {
            assertThat(filter.mightContain(token)).isTrue();
            assertThat(filter.add(token)).isEqualTo(AddResult.ALREADY_PRESENT);
        }
    }

    @Test
    void nonScaling_refusesNewItemsPastCapacity_butAcceptsKnownOnes() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                BloomConfig.defaults().withInitialCapacity(100).withNonScaling(true));
        int addedCount = 0;
        int i = 0;
        AddResult result;
        while ((result = filter.add("token-" + i)) != AddResult.FULL) {
            if (result == AddResult.ADDED) {
                addedCount++;
            }
            i++;
        }
        assertThat(addedCount).isEqualTo(100);
        assertThat(filter.isFull()).isTrue();
        assertThat(filter.add("token-0")).isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.add("one more")).isEqualTo(AddResult.FULL);
        assertThat(filter.stats()).isEqualTo(new BloomStats(
                100, filter.subFilters()[0].sizeBytes(), 1, 100, 0.01, 2.0, 0.5, 100));
        assertThat(filter.subFilters()[0].errorRate()).as("a single filter gets the whole budget").isEqualTo(0.01);
    }

    @Test
    void stats_reportValkeyInfoFields() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                new BloomConfig(100, 0.01, 2, 0.5, 128L << 20, false));
        filter.add("item");
        BloomStats stats = filter.stats();
        assertThat(stats.capacity()).isEqualTo(100);
        assertThat(stats.subFilters()).isEqualTo(1);
        assertThat(stats.itemsInserted()).isEqualTo(1);
        assertThat(stats.errorRate()).isEqualTo(0.01);
        assertThat(stats.expansion()).isEqualTo(2.0);
        assertThat(stats.tightening()).isEqualTo(0.5);
        assertThat(stats.sizeBytes()).isEqualTo(PartitionLayout.of(100, 0.005).sizeBytes());
        // 100 · (2^18 − 1): 18 sub-filters fit in 128 MiB, the value Valkey's BF.INFO shows for
        // a default filter (capacity 100, 0.01, expansion 2, tightening 0.5, 128 MiB limit).
        assertThat(stats.maxScaledCapacity()).isEqualTo(26_214_300L);
    }

    @Test
    void textBytesAndBufferForms_ofOneToken_areTheSameItem() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults());
        byte[] line = "ts=1 msg=\"café au lait\" end".getBytes(StandardCharsets.UTF_8);
        byte[] token = "café au lait".getBytes(StandardCharsets.UTF_8);
        assertThat(filter.add(ByteBuffer.wrap(line, 10, token.length))).isEqualTo(AddResult.ADDED);
        assertThat(filter.add("café au lait")).isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.add(token)).isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.mightContain(new StringBuilder("café au lait"))).isTrue();
        assertThat(filter.mightContain(token)).isTrue();
        assertThat(filter.mightContain(ByteBuffer.wrap(token))).isTrue();
        assertThat(filter.mightContain(BloomHash.hash(token))).isTrue();
        assertThat(filter.mightContain("café")).isFalse();
    }

    @Test
    void create_firstSubFilterLargerThanLimit_rejectedNamingSizes() {
        assertThatThrownBy(() -> ScalableBloomFilter.create(BloomConfig.defaults().withMaxSizeBytes(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxSizeBytes 100 is smaller than the 1472 bytes of the first sub-filter"
                        + " (initialCapacity 1024, errorRate 0.005)");
    }

    @Test
    void concurrentAddsAcrossGrowth_neverLoseAnItem() throws Exception {
        int threads = 4;
        int perThread = 50_000;
        ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults().withInitialCapacity(500));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    int misses = 0;
                    for (int i = 0; i < perThread; i++) {
                        String token = "thread-" + thread + "-token-" + i;
                        if (filter.add(token) == AddResult.FULL || !filter.mightContain(token)) {
                            misses++;
                        }
                        // Re-check an earlier item while other threads grow the filter.
                        if (!filter.mightContain("thread-" + thread + "-token-" + (i / 2))) {
                            misses++;
                        }
                    }
                    return misses;
                }));
            }
            start.countDown();
            for (Future<Integer> future : futures) {
                assertThat(future.get(60, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                assertThat(filter.mightContain("thread-" + t + "-token-" + i)).isTrue();
            }
        }
        BloomStats stats = filter.stats();
        assertThat(stats.subFilters()).isGreaterThanOrEqualTo(7);
        assertThat(stats.itemsInserted()).isBetween((long) (threads * perThread * 0.99), (long) threads * perThread);
    }
}
