package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.RangeOp;
import java.util.Arrays;

/**
 * The over-time functions applied to the samples of one series inside one window [a, z) of sorted arrays.
 * Variance is the population variance (Welford's online algorithm), quantiles interpolate linearly between
 * closest ranks like Prometheus' quantile_over_time, rate_counter is Prometheus' extrapolated counter rate.
 * Stateless.
 */
final class RangeFunctions {

    private RangeFunctions() {
    }

    static double apply(RangeOp op, Double param, long[] ts, double[] v, int a, int z, double rangeSeconds) {
        int n = z - a;
        switch (op) {
            case COUNT_OVER_TIME:
                return n;
            case RATE:
            case BYTES_RATE:
                return sum(v, a, z) / rangeSeconds;
            case BYTES_OVER_TIME:
            case SUM_OVER_TIME:
                return sum(v, a, z);
            case AVG_OVER_TIME: {
                double mean = 0;
                for (int i = a; i < z; i++) {
                    mean += (v[i] - mean) / (i - a + 1);
                }
                return mean;
            }
            case MIN_OVER_TIME: {
                double m = v[a];
                for (int i = a + 1; i < z; i++) {
                    if (v[i] < m || Double.isNaN(m)) {
                        m = v[i];
                    }
                }
                return m;
            }
            case MAX_OVER_TIME: {
                double m = v[a];
                for (int i = a + 1; i < z; i++) {
                    if (v[i] > m || Double.isNaN(m)) {
                        m = v[i];
                    }
                }
                return m;
            }
            case STDVAR_OVER_TIME:
            case STDDEV_OVER_TIME: {
                double mean = 0;
                double m2 = 0;
                for (int i = a; i < z; i++) {
                    double delta = v[i] - mean;
                    mean += delta / (i - a + 1);
                    m2 += delta * (v[i] - mean);
                }
                double var = m2 / n;
                return op == RangeOp.STDDEV_OVER_TIME ? Math.sqrt(var) : var;
            }
            case QUANTILE_OVER_TIME:
                return quantile(param, Arrays.copyOfRange(v, a, z));
            case FIRST_OVER_TIME:
                return v[a];
            case LAST_OVER_TIME:
                return v[z - 1];
            case RATE_COUNTER:
                return counterRate(ts, v, a, z, rangeSeconds);
            default:
                throw new IllegalStateException("BUG: no window function for " + op);
        }
    }

    private static double sum(double[] v, int a, int z) {
        double s = 0;
        for (int i = a; i < z; i++) {
            s += v[i];
        }
        return s;
    }

    /** Prometheus' quantile: phi outside [0,1] gives ±Inf, else linear interpolation at rank phi*(n-1). */
    static double quantile(double phi, double[] values) {
        if (values.length == 0 || Double.isNaN(phi)) {
            return Double.NaN;
        }
        if (phi < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (phi > 1) {
            return Double.POSITIVE_INFINITY;
        }
        double rank = phi * (values.length - 1);
        int lower = (int) Math.max(0, Math.floor(rank));
        int upper = Math.min(values.length - 1, lower + 1);
        double weight = rank - Math.floor(rank);
        double low = select(values, lower);
        double high = upper == lower ? low : minFrom(values, upper);
        return low * (1 - weight) + high * weight;
    }

    /**
     * The k-th smallest value in {@link Double#compare} order (the order of {@code Arrays.sort(double[])}: -0.0
     * before 0.0, NaN last), leaving every later position holding a value not smaller. Quickselect with a
     * median-of-three pivot and a three-way partition (repeated values, common in logged durations, do not
     * degrade it): linear on average where sorting each window was n log n per step.
     */
    static double select(double[] a, int k) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            double p = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi]);
            int lt = lo;
            int i = lo;
            int gt = hi;
            while (i <= gt) {
                int c = Double.compare(a[i], p);
                if (c < 0) {
                    swap(a, lt++, i++);
                } else if (c > 0) {
                    swap(a, i, gt--);
                } else {
                    i++;
                }
            }
            if (k < lt) {
                hi = lt - 1;
            } else if (k > gt) {
                lo = gt + 1;
            } else {
                return p;
            }
        }
        return a[k];
    }

    private static double medianOfThree(double x, double y, double z) {
        if (Double.compare(x, y) > 0) {
            double t = x;
            x = y;
            y = t;
        }
        if (Double.compare(y, z) > 0) {
            y = z;
        }
        return Double.compare(x, y) > 0 ? x : y;
    }

    private static double minFrom(double[] a, int from) {
        double m = a[from];
        for (int i = from + 1; i < a.length; i++) {
            if (Double.compare(a[i], m) < 0) {
                m = a[i];
            }
        }
        return m;
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /**
     * Prometheus' extrapolatedRate for counters: the increase between first and last sample (adding back
     * values lost at counter resets), extrapolated to the window edges when the samples come close enough
     * (within 1.1 average intervals), divided by the window length.
     */
    static double counterRate(long[] ts, double[] v, int a, int z, double rangeSeconds) {
        // Loki 3.4's extrapolatedRate, quirks included, so answers match Loki's: fewer than two samples give 0
        // (the series stays); sample times are nanoseconds while the range is subtracted in milliseconds and
        // every duration is divided by 1000 as if times were milliseconds; the range starts that far before the
        // first sample and ends at the last one, so durationToEnd is 0
        int n = z - a;
        if (n < 2) {
            return 0;
        }
        long firstTime = ts[a];
        long lastTime = ts[z - 1];
        long rangeMillis = (long) (rangeSeconds * 1000);
        double result = v[z - 1] - v[a];
        double prev = 0;
        for (int i = a; i < z; i++) {
            if (v[i] < prev) {
                result += prev;
            }
            prev = v[i];
        }
        double durationToStart = (firstTime - (firstTime - rangeMillis)) / 1000.0;
        double durationToEnd = 0;
        double sampled = (lastTime - firstTime) / 1000.0;
        double avgInterval = sampled / (n - 1);
        if (result > 0 && v[a] >= 0) {
            double durationToZero = sampled * (v[a] / result);
            if (durationToZero < durationToStart) {
                durationToStart = durationToZero;
            }
        }
        double threshold = avgInterval * 1.1;
        double extrapolateTo = sampled;
        extrapolateTo += durationToStart < threshold ? durationToStart : avgInterval / 2;
        extrapolateTo += durationToEnd < threshold ? durationToEnd : avgInterval / 2;
        result = result * (extrapolateTo / sampled);
        return result / rangeSeconds;
    }
}
