package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The series buffer sorts by time stably (equal times keep arrival order), like a stable reference sort. */
final class SeriesBufferTest {

    @Test
    void sort_isStableAndMatchesReference() {
        Random r = new Random(3);
        for (int round = 0; round < 300; round++) {
            int n = r.nextInt(200);
            int bound = 1 + r.nextInt(round % 3 == 0 ? 5 : 1000);
            RangeAggregator.SeriesBuffer b = new RangeAggregator.SeriesBuffer();
            long[] ts = new long[n];
            for (int i = 0; i < n; i++) {
                ts[i] = r.nextInt(10) == 0 && i > 0 ? ts[i - 1] + r.nextInt(3) : r.nextInt(bound);
                b.add(ts[i], i);
            }
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, Comparator.comparingLong(i -> ts[i]));
            b.sort();
            assertThat(b.size).isEqualTo(n);
            for (int i = 0; i < n; i++) {
                assertThat(b.ts[i]).isEqualTo(ts[idx[i]]);
                assertThat(b.values[i]).as("round %d position %d", round, i).isEqualTo((double) idx[i]);
            }
        }
    }
}
