package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class PartitionLayoutTest {

    @ParameterizedTest
    @CsvSource({"0.5, 1", "0.25, 2", "0.2, 3", "0.01, 7", "0.005, 8", "0.001, 10", "0.0001, 14", "0.9, 1"})
    void hashes_areCeilOfLog2OfInverseErrorRate(double errorRate, int hashes) {
        assertThat(PartitionLayout.hashesFor(errorRate)).isEqualTo(hashes);
    }

    @ParameterizedTest
    @CsvSource({"0.01", "0.001", "0.0001", "0.05", "0.3"})
    void bitsPerItem_withinHalfAPercentOfTheStandardFormulaOrAboveWhenKRoundsUp(double errorRate) {
        long capacity = 1_000_000;
        PartitionLayout layout = PartitionLayout.of(capacity, errorRate);
        double standard = -Math.log(errorRate) / (Math.log(2) * Math.log(2));
        double bitsPerItem = (double) layout.hashes() * layout.partitionBits() / capacity;
        assertThat(bitsPerItem).isGreaterThanOrEqualTo(standard * 0.999).isLessThan(standard * 1.06);
        double expectedFp = Math.pow(1 - Math.exp(-(double) capacity / layout.partitionBits()), layout.hashes());
        assertThat(expectedFp).isLessThanOrEqualTo(errorRate);
    }

    @Test
    void tinyCapacity_getsOneWordPerPartition() {
        PartitionLayout layout = PartitionLayout.of(1, 0.01);
        assertThat(layout.wordsPerPartition()).isEqualTo(1);
        assertThat(layout.sizeBytes()).isEqualTo(7 * 8);
    }

    @Test
    void unrepresentable_rejectedWithReason() {
        assertThatThrownBy(() -> PartitionLayout.of(Long.MAX_VALUE / 2, 0.01))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("capacity 4611686018427387903 at errorRate 0.01 needs 7 partitions of");
        assertThatThrownBy(() -> PartitionLayout.of(10, 1e-30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("errorRate 1.0E-30 needs 100 hashes, more than the maximum 64");
    }
}
