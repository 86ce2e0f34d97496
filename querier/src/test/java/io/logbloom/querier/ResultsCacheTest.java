package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.logql.MetricResult;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The results cache's byte bound, LRU order and metrics. */
final class ResultsCacheTest {
    private final QuerierMetrics metrics = new QuerierMetrics(new PrometheusRegistry());

    private static ResultsCache.SplitKey key(int i) {
        return new ResultsCache.SplitKey("t", "count_over_time({a=\"b\"}[1m])", 60, i * 3600L, i * 3600L + 3540);
    }

    private static ResultsCache.Entry entry(int points) {
        List<MetricResult.Point> pts = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            pts.add(new MetricResult.Point(i, i));
        }
        return new ResultsCache.Entry(new MetricResult.Matrix(List.of(new MetricResult.Series(Map.of("a", "b"), pts))),
                List.of(), List.of(), 0);
    }

    @Test
    void put_overBudget_evictsLeastRecentlyUsedFirst() {
        long one = weightOf(entry(10));
        ResultsCache cache = new ResultsCache(3 * one, metrics);
        cache.put(key(1), entry(10));
        cache.put(key(2), entry(10));
        cache.put(key(3), entry(10));
        assertThat(cache.get(key(1))).isNotNull(); // 1 is now the most recently used
        cache.put(key(4), entry(10));
        assertThat(cache.get(key(2))).isNull();
        assertThat(cache.get(key(1))).isNotNull();
        assertThat(cache.get(key(3))).isNotNull();
        assertThat(cache.get(key(4))).isNotNull();
        assertThat(cache.bytes()).isEqualTo(3 * one).isEqualTo(metrics.resultsCacheBytes());
        assertThat(metrics.resultsCacheEvictions()).isEqualTo(1);
    }

    @Test
    void put_entryLargerThanBudget_notStored() {
        ResultsCache cache = new ResultsCache(1000, metrics);
        cache.put(key(1), entry(100));
        assertThat(cache.size()).isZero();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void remove_releasesBytes() {
        ResultsCache cache = new ResultsCache(1 << 20, metrics);
        cache.put(key(1), entry(10));
        cache.put(key(1), entry(20));
        assertThat(cache.size()).isEqualTo(1);
        cache.remove(key(1));
        assertThat(cache.bytes()).isZero();
        assertThat(metrics.resultsCacheBytes()).isZero();
    }

    @Test
    void config_rejectsBadValues() {
        assertThatThrownBy(() -> new ResultsCacheConfig(-1, Duration.ofHours(1), Duration.ZERO))
                .hasMessageContaining("results_cache_size");
        assertThatThrownBy(() -> new ResultsCacheConfig(1, Duration.ZERO, Duration.ZERO))
                .hasMessageContaining("split_queries_by_interval");
        assertThatThrownBy(() -> new ResultsCacheConfig(1, Duration.ofHours(1), Duration.ofMinutes(-1)))
                .hasMessageContaining("max_cache_freshness");
        assertThat(ResultsCacheConfig.defaults().enabled()).isTrue();
        assertThat(ResultsCacheConfig.disabled().enabled()).isFalse();
    }

    private long weightOf(ResultsCache.Entry e) {
        ResultsCache probe = new ResultsCache(Long.MAX_VALUE, new QuerierMetrics(new PrometheusRegistry()));
        probe.put(key(1), e);
        return probe.bytes();
    }
}
