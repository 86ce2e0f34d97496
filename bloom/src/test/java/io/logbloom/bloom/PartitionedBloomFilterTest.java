package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class PartitionedBloomFilterTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void randomItems_neverFalseNegative(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int capacity : new int[] {1, 7, 100, 5_000, 40_000}) {
            double errorRate = 0.5 / (1 + random.nextInt(1000));
            PartitionedBloomFilter filter = PartitionedBloomFilter.create(capacity, errorRate);
            // Add up to three times the capacity: an overfull filter errs more but never forgets.
            int items = 1 + random.nextInt(3 * capacity);
            long[] hashes = random.longs(items).toArray();
            for (long hash : hashes) {
                assertThat(filter.add(hash)).isNotEqualTo(AddResult.FULL);
            }
            for (long hash : hashes) {
                assertThat(filter.mightContain(hash)).as("seed %d capacity %d hash %d", seed, capacity, hash).isTrue();
            }
        }
    }

    @Test
    void add_reportsAddedThenAlreadyPresent_andCountsOnlyNewItems() {
        PartitionedBloomFilter filter = PartitionedBloomFilter.create(1000, 0.01);
        assertThat(filter.add("level=error")).isEqualTo(AddResult.ADDED);
        assertThat(filter.add("level=error")).isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.add(BloomHash.hash("level=error"))).isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.mightContain("level=error")).isTrue();
        assertThat(filter.mightContain("level=warn")).isFalse();
        assertThat(filter.itemsInserted()).isEqualTo(1);
        assertThat(filter.add("level=error".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isEqualTo(AddResult.ALREADY_PRESENT);
        assertThat(filter.mightContain("level=error".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isTrue();
    }

    @Test
    void emptyFilter_containsNothing() {
        PartitionedBloomFilter filter = PartitionedBloomFilter.create(100, 0.01);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            assertThat(filter.mightContain(random.nextLong())).isFalse();
        }
        assertThat(filter.fillRatio()).isZero();
    }

    @Test
    void accessors_describeTheSizing() {
        PartitionedBloomFilter filter = PartitionedBloomFilter.create(1_000_000, 0.01);
        assertThat(filter.capacity()).isEqualTo(1_000_000);
        assertThat(filter.errorRate()).isEqualTo(0.01);
        assertThat(filter.hashCount()).isEqualTo(7);
        assertThat(filter.bitCount() % (7 * 64)).isZero();
        assertThat(filter.sizeBytes()).isEqualTo(filter.bitCount() / 8);
        assertThat(filter.toString()).contains("capacity=1000000", "hashes=7");
    }

    @ParameterizedTest
    @CsvSource({"0.01", "0.001"})
    void falsePositiveRate_atOneMillionItems_withinTenPercentOfTarget(double errorRate) {
        int items = 1_000_000;
        PartitionedBloomFilter filter = PartitionedBloomFilter.create(items, errorRate);
        for (int i = 0; i < items; i++) {
            filter.add("member-" + i);
        }
        assertThat(filter.fillRatio()).isBetween(0.45, 0.52);
        int falsePositives = 0;
        for (int i = 0; i < items; i++) {
            if (filter.mightContain("absent-" + i)) {
                falsePositives++;
            }
        }
        double measured = (double) falsePositives / items;
        assertThat(measured).as("measured fp for target %s", errorRate).isLessThanOrEqualTo(errorRate * 1.1);
        assertThat(measured).as("measured fp for target %s", errorRate).isGreaterThan(errorRate * 0.5);
    }

    @ParameterizedTest
    @CsvSource({"0, 0.01, 'capacity must be at least 1, got 0'", "10, 1.0, 'errorRate must be in (0, 1), got 1.0'",
        "10, 0.0, 'errorRate must be in (0, 1), got 0.0'", "-3, 0.5, 'capacity must be at least 1, got -3'"})
    void invalidParameters_rejectedNamingParameterAndValue(long capacity, double errorRate, String message) {
        assertThatThrownBy(() -> PartitionedBloomFilter.create(capacity, errorRate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
