package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** quantile_over_time by selection gives bit-identical results to interpolating over the sorted window. */
final class QuantileSelectTest {

    private static double bySorting(double phi, double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double rank = phi * (sorted.length - 1);
        int lower = (int) Math.max(0, Math.floor(rank));
        int upper = Math.min(sorted.length - 1, lower + 1);
        double weight = rank - Math.floor(rank);
        return sorted[lower] * (1 - weight) + sorted[upper] * weight;
    }

    @Test
    void quantile_equalsSortedReference_withDuplicatesNaNAndSignedZero() {
        Random r = new Random(11);
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.5};
        double[] phis = {0, 0.01, 0.25, 0.5, 0.9, 0.99, 1};
        for (int round = 0; round < 2000; round++) {
            int n = 1 + r.nextInt(round % 10 == 0 ? 500 : 30);
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                int kind = r.nextInt(10);
                v[i] = kind == 0 ? specials[r.nextInt(specials.length)] : kind < 5 ? r.nextInt(5) : r.nextGaussian() * 100;
            }
            for (double phi : phis) {
                double expected = bySorting(phi, v);
                double actual = RangeFunctions.quantile(phi, v.clone());
                assertThat(Double.doubleToRawLongBits(actual)).as("phi %s over %s", phi, Arrays.toString(v))
                        .isEqualTo(Double.doubleToRawLongBits(expected));
            }
            int k = r.nextInt(n);
            double[] sorted = v.clone();
            Arrays.sort(sorted);
            double[] selected = v.clone();
            assertThat(Double.doubleToRawLongBits(RangeFunctions.select(selected, k)))
                    .isEqualTo(Double.doubleToRawLongBits(sorted[k]));
            for (int i = k + 1; i < n; i++) {
                assertThat(Double.compare(selected[i], sorted[k])).isGreaterThanOrEqualTo(0);
            }
        }
    }
}
