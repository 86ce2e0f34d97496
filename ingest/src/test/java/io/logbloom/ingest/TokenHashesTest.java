package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class TokenHashesTest {
    @Test
    void distinct_sortedWithoutDuplicates_acrossGrowth() {
        TokenHashes hashes = new TokenHashes(1 << 20);
        TreeSet<Long> expected = new TreeSet<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            long h = random.nextInt(8_000) * 0x9E3779B97F4A7C15L; // many repeats, as word tokens have
            expected.add(h);
            assertThat(hashes.add(h)).isTrue();
        }
        assertThat(hashes.distinct()).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
    }

    @Test
    void add_refusedOnceDistinctHashesExceedTheBound_repeatsNeverCount() {
        TokenHashes hashes = new TokenHashes(3_000);
        for (int round = 0; round < 5; round++) {
            for (long h = 0; h < 3_000; h++) {
                assertThat(hashes.add(h)).isTrue();
            }
        }
        boolean refused = false;
        for (long h = 3_000; h < 10_000 && !refused; h++) {
            refused = !hashes.add(h);
        }
        assertThat(refused).isTrue();
    }

    @Test
    void bound_belowOne_rejected() {
        assertThatThrownBy(() -> new TokenHashes(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max distinct hashes must be at least 1, got 0");
    }
}
