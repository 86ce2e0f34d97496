package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class HeadIndexTest {
    private static final String T = "tenant-a";
    static final Labels S1 = Labels.of("app", "api", "env", "prod");
    static final Labels S2 = Labels.of("app", "api", "env", "dev", "team", "a");
    static final Labels S3 = Labels.of("app", "web", "env", "prod");
    static final Labels S4 = Labels.of("app", "web");
    static final Labels S5 = Labels.of("app", "db", "env", "");
    static final List<Labels> ALL = List.of(S1, S2, S3, S4, S5);

    static HeadIndex populated() {
        HeadIndex head = new HeadIndex();
        for (int i = 0; i < ALL.size(); i++) {
            head.add(T, ALL.get(i), ref(T, ALL.get(i), 100 + i, 200 + i));
        }
        return head;
    }

    static Stream<Arguments> selectors() {
        return Stream.of(
                Arguments.of(sel("app", "=", "api"), List.of(S1, S2)),
                Arguments.of(sel("app", "=", "api", "env", "!=", "prod"), List.of(S2)),
                Arguments.of(sel("app", "=", "web", "env", "=", ""), List.of(S4)),
                Arguments.of(sel("app", "=", "db", "env", "=", ""), List.of(S5)),
                Arguments.of(sel("app", "=", "web", "env", "!=", ""), List.of(S3)),
                Arguments.of(sel("app", "=~", "web|api", "env", "=~", ""), List.of(S4)),
                Arguments.of(sel("app", "=~", "a.*"), List.of(S1, S2)),
                Arguments.of(sel("app", "=~", "p"), List.of()),
                Arguments.of(sel("app", "=~", "ap"), List.of()),
                Arguments.of(sel("app", "=~", ".+", "env", "!~", "prod|dev"), List.of(S4, S5)),
                Arguments.of(sel("app", "=~", ".+", "env", "!~", "prod|dev|"), List.of()),
                Arguments.of(sel("app", "=~", ".+", "env", "=~", "prod|dev|"), ALL),
                Arguments.of(sel("app", "=~", ".+", "team", "!=", "a"), List.of(S1, S3, S4, S5)),
                Arguments.of(sel("app", "=", "api", "team", "=~", "a|"), List.of(S1, S2)),
                Arguments.of(sel("app", "=", "nope"), List.of()),
                Arguments.of(sel("missing", "=", "x"), List.of()),
                Arguments.of(sel("missing", "=~", ".+"), List.of()),
                Arguments.of(sel("app", "=", "web", "missing", "!=", "x"), List.of(S3, S4)),
                Arguments.of(sel("app", "=", "web", "missing", "!~", ".*"), List.of()),
                Arguments.of(sel("app", "=", "web", "missing", "=", ""), List.of(S3, S4)),
                Arguments.of(sel("env", "=~", "prod"), List.of(S1, S3)),
                Arguments.of(sel("env", "=~", "PROD"), List.of()),
                Arguments.of(sel("env", "!~", ".*"), List.of()),
                Arguments.of(sel("app", "!=", "web", "env", "=~", ".+"), List.of(S1, S2)),
                Arguments.of(List.of(), ALL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selectors")
    void series_matchers_followLokiSemantics(List<LabelMatcher> matchers, List<Labels> expected) {
        HeadIndex head = populated();
        assertThat(head.series(T, matchers, 0, 1000)).containsExactlyElementsOf(sorted(expected));
        // the brute-force oracle agrees: every matcher on every series
        List<Labels> brute = ALL.stream().filter(l -> matchers.stream().allMatch(m -> m.matches(l))).toList();
        assertThat(head.series(T, matchers, 0, 1000)).containsExactlyElementsOf(sorted(brute));
        assertThat(head.chunks(T, matchers, 0, 1000)).extracting(SeriesChunks::labels)
                .containsExactlyElementsOf(sorted(expected));
    }

    static Stream<List<LabelMatcher>> emptyCompatibleSelectors() {
        return Stream.of(sel("app", "=~", ".*"), sel("app", "=", ""), sel("env", "!=", "prod"),
                sel("env", "!~", "x", "app", "=~", ".*"), sel("app", "=~", "|x"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("emptyCompatibleSelectors")
    void lookup_onlyEmptyCompatibleMatchers_rejected(List<LabelMatcher> matchers) {
        HeadIndex head = populated();
        assertThatThrownBy(() -> head.series(T, matchers, 0, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one regexp or equality matcher that does not have an empty-compatible")
                .hasMessageContaining(matchers.get(0).toString());
        assertThatThrownBy(() -> head.chunks(T, matchers, 0, 1000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> head.labelNames(T, matchers, 0, 1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void lookup_badArguments_rejectedWithValue() {
        HeadIndex head = populated();
        assertThatThrownBy(() -> head.series("../x", sel("app", "=", "api"), 0, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("../x");
        assertThatThrownBy(() -> head.series(T, sel("app", "=", "api"), 10, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5").hasMessageContaining("10");
        assertThatThrownBy(() -> head.add(T, S1, ref("other", S1, 1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other");
    }

    @Test
    void chunks_timeRange_onlyOverlappingRefsSortedByTime() {
        HeadIndex head = new HeadIndex();
        ChunkRef late = ref(T, S1, 300, 399);
        ChunkRef early = ref(T, S1, 100, 199);
        ChunkRef mid = ref(T, S1, 200, 299);
        head.add(T, S1, late);
        head.add(T, S1, early);
        head.add(T, S1, mid);
        head.add(T, S1, mid);
        List<LabelMatcher> app = sel("app", "=", "api");
        assertThat(head.chunks(T, app, 0, 1000)).containsExactly(new SeriesChunks(S1, List.of(early, mid, late)));
        assertThat(head.chunks(T, app, 199, 200)).containsExactly(new SeriesChunks(S1, List.of(early)));
        assertThat(head.chunks(T, app, 150, 301)).containsExactly(new SeriesChunks(S1, List.of(early, mid, late)));
        assertThat(head.chunks(T, app, 400, 500)).isEmpty();
        assertThat(head.chunks(T, app, 0, 100)).isEmpty();
        assertThat(head.chunks(T, app, 150, 150)).isEmpty();
        assertThat(head.series(T, app, 400, 500)).isEmpty();
        assertThat(head.labelNames(T, List.of(), 400, 500)).isEmpty();
        assertThat(head.labelNames(T, List.of(), 0, 101)).containsExactly("app", "env");
    }

    @Test
    void labelNamesAndValues_restrictedByMatchersAndTime() {
        HeadIndex head = populated();
        assertThat(head.labelNames(T, List.of(), 0, 1000)).containsExactly("app", "env", "team");
        assertThat(head.labelNames(T, sel("app", "=", "web"), 0, 1000)).containsExactly("app", "env");
        assertThat(head.labelValues(T, "app", List.of(), 0, 1000)).containsExactly("api", "db", "web");
        assertThat(head.labelValues(T, "env", List.of(), 0, 1000)).containsExactly("", "dev", "prod");
        assertThat(head.labelValues(T, "env", sel("app", "=", "api"), 0, 1000)).containsExactly("dev", "prod");
        assertThat(head.labelValues(T, "missing", List.of(), 0, 1000)).isEmpty();
        // S1 covers [100, 200], S2 [101, 201] ... S5 [104, 204]
        assertThat(head.labelValues(T, "app", List.of(), 0, 101)).containsExactly("api");
        assertThat(head.labelValues(T, "app", List.of(), 204, 205)).containsExactly("db");
    }

    @Test
    void tenants_isolated() {
        HeadIndex head = populated();
        head.add("tenant-b", S3, ref("tenant-b", S3, 5, 6));
        assertThat(head.series("tenant-b", sel("app", "=~", ".+"), 0, 1000)).containsExactly(S3);
        assertThat(head.series("tenant-c", sel("app", "=~", ".+"), 0, 1000)).isEmpty();
        assertThat(head.chunks(T, sel("app", "=", "web"), 0, 50)).isEmpty();
        assertThat(head.tenants()).containsExactly(T, "tenant-b");
        assertThat(head.seriesCount(T)).isEqualTo(5);
        assertThat(head.seriesCount("tenant-b")).isEqualTo(1);
        assertThat(head.seriesCount("tenant-c")).isZero();
    }

    @Test
    void add_fingerprintCollision_seriesStayDistinct() {
        HeadIndex head = new HeadIndex(labels -> 42L);
        ChunkRef r1 = ref(T, S1, 1, 2);
        ChunkRef r3 = ref(T, S3, 3, 4);
        head.add(T, S1, r1);
        head.add(T, S3, r3);
        head.add(T, S1, ref(T, S1, 5, 6));
        assertThat(head.series(T, sel("env", "=", "prod"), 0, 10)).containsExactly(S1, S3);
        assertThat(head.chunks(T, sel("app", "=", "web"), 0, 10)).containsExactly(new SeriesChunks(S3, List.of(r3)));
        assertThat(head.chunks(T, sel("app", "=", "api"), 0, 10).get(0).chunks()).hasSize(2);
    }

    @Test
    void removeChunksEndingBefore_dropsOldRefsAndEmptySeries() {
        HeadIndex head = new HeadIndex();
        head.add(T, S1, ref(T, S1, 1, 10));
        head.add(T, S1, ref(T, S1, 11, 20));
        head.add(T, S2, ref(T, S2, 1, 9));
        assertThat(head.removeChunksEndingBefore(10)).isEqualTo(1);
        assertThat(head.series(T, sel("app", "=", "api"), 0, 100)).containsExactly(S1);
        assertThat(head.labelValues(T, "env", List.of(), 0, 100)).containsExactly("prod");
        assertThat(head.removeChunksEndingBefore(100)).isEqualTo(2);
        assertThat(head.series(T, sel("app", "=", "api"), 0, 100)).isEmpty();
        assertThat(head.tenants()).isEmpty();
    }

    @Test
    void add_concurrentWritersAndReaders_noLostRefs() throws Exception {
        HeadIndex head = new HeadIndex();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        Labels l = Labels.of("app", "a" + (i % 50), "w", "w" + writer);
                        head.add(T, l, ref(T, l, i, i + 1));
                    }
                }));
            }
            futures.add(pool.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    head.chunks(T, sel("app", "=~", "a1.*"), 0, Long.MAX_VALUE);
                }
            }));
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<SeriesChunks> all = head.chunks(T, List.of(), 0, Long.MAX_VALUE);
        assertThat(all).hasSize(150);
        assertThat(all.stream().mapToInt(s -> s.chunks().size()).sum()).isEqualTo(6000);
    }

    @ParameterizedTest(name = "regex {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"pod-1.*", "pod-1", "pod-12?", "pod-1*", "pod-1{0,1}",
            "pod-1+", "pod-1.+", "pod-(1|2)3", "pod-1[0-3]", "pod-\\d", "pod-1|pod-22", "po.-1", "(?i)POD-1.*",
            "pod-1\\d*", "pod-", "p", "pod-100.*", "x.*"})
    void series_regexOverManyValues_equalsBruteForce(String regex) {
        HeadIndex head = new HeadIndex();
        List<Labels> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Labels l = Labels.of("app", "a", "pod", "pod-" + i);
            all.add(l);
            head.add(T, l, ref(T, l, 1, 2));
        }
        for (List<LabelMatcher> matchers : List.of(sel("pod", "=~", regex), sel("app", "=", "a", "pod", "!~", regex))) {
            List<Labels> brute = all.stream().filter(l -> matchers.stream().allMatch(m -> m.matches(l))).sorted().toList();
            assertThat(head.series(T, matchers, 0, 10)).as("%s", matchers).isEqualTo(brute);
        }
    }

    @Test
    void literalPrefix_conservative() {
        assertThat(SeriesPostings.literalPrefix("pod-12.*")).isEqualTo("pod-12");
        assertThat(SeriesPostings.literalPrefix("pod-12?")).isEqualTo("pod-1");
        assertThat(SeriesPostings.literalPrefix("pod-12+")).isEqualTo("pod-12");
        assertThat(SeriesPostings.literalPrefix("a|b")).isEmpty();
        assertThat(SeriesPostings.literalPrefix("(?i)abc")).isEmpty();
        assertThat(SeriesPostings.literalPrefix("a*")).isEmpty();
    }

    private static List<Labels> sorted(List<Labels> labels) {
        return labels.stream().sorted().toList();
    }
}
