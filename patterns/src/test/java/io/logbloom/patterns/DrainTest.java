package io.logbloom.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class DrainTest {
    private static final long T0 = 1_700_000_000_000L;

    /**
     * A fixed corpus: four known templates with variable parts, interleaved, 2000 lines from seed 7. The
     * method is a word without digits in the tree's prefix, so GET and POST lines form two templates, as
     * in Drain's fixed-depth tree.
     */
    static List<String> corpus() {
        Random r = new Random(7);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            switch (r.nextInt(4)) {
                case 0 -> lines.add("user u" + r.nextInt(500) + " logged in from 10.0." + r.nextInt(256) + "."
                        + r.nextInt(256));
                case 1 -> lines.add("level=info method=" + (r.nextBoolean() ? "GET" : "POST") + " path=/api/items/"
                        + r.nextInt(1000) + " status=200 duration=" + r.nextInt(900) + "ms");
                case 2 -> lines.add("connection to db-" + r.nextInt(9) + " timed out after " + r.nextInt(60)
                        + " seconds");
                default -> lines.add("level=error msg=cache miss key=k" + r.nextInt(10_000) + " shard="
                        + r.nextInt(16));
            }
        }
        return lines;
    }

    @Test
    void train_fixedCorpus_knownTemplatesAndCountsAddUp() {
        PatternMiner miner = new PatternMiner(DrainConfig.defaults(), 3 * 3_600_000L);
        List<String> lines = corpus();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(miner.train("t", Map.of("app", "a"), "", T0 + i * 100L, lines.get(i), T0)).isTrue();
        }
        List<MinedPattern> patterns = miner.patterns("t", l -> true, T0, T0 + 3_600_000L, 60_000);
        assertThat(patterns).extracting(MinedPattern::pattern).containsExactlyInAnyOrder(
                "user <_> logged in from <_>",
                "level=info method=GET path=<_> status=200 duration=<_>",
                "level=info method=POST path=<_> status=200 duration=<_>",
                "connection to <_> timed out after <_> seconds",
                "level=error msg=cache miss key=<_> shard=<_>");
        assertThat(patterns.stream().mapToLong(MinedPattern::total).sum()).isEqualTo(lines.size());
        for (MinedPattern p : patterns) {
            assertThat(p.samples()).allSatisfy(s -> assertThat(s.timestampMillis() % 60_000).isZero());
        }
    }

    @Test
    void train_tooFewTokens_skipped() {
        Drain drain = new Drain(DrainConfig.defaults());
        assertThat(drain.train("just three tokens", T0)).isNull();
        assertThat(drain.train("now four tokens here", T0)).isNotNull();
        assertThat(drain.train("x ".repeat(81).trim(), T0)).isNull();
        assertThat(drain.train("y".repeat(3001), T0)).isNull();
    }

    @Test
    void train_clusterLimit_evictsLeastRecentlyUsed() {
        Drain drain = new Drain(new DrainConfig(30, 0.3, 15, 3, 4, 80, 3000));
        for (String w : List.of("alpha", "beta", "gamma", "delta")) {
            drain.train(w + " one two three", T0);
            drain.train("different " + w + " shape of words here", T0);
        }
        assertThat(drain.clusters()).hasSize(3);
    }

    @Test
    void pruneBefore_dropsOldSamplesAndEmptyClusters() {
        Drain drain = new Drain(DrainConfig.defaults());
        drain.train("old line with four", T0);
        drain.train("completely other shape of line", T0 + 3_600_000L);
        drain.pruneBefore(T0 + 1_000);
        assertThat(drain.clusters()).extracting(Drain.Cluster::pattern)
                .containsExactly("completely other shape of line");
    }

    @Test
    void patterns_stepSumsBuckets_andStreamFilterApplies() {
        PatternMiner miner = new PatternMiner(DrainConfig.defaults(), 3_600_000L);
        for (int i = 0; i < 30; i++) {
            miner.train("t", Map.of("service_name", "a"), "info", T0 + i * 1_000L, "served request number " + i, T0);
            miner.train("t", Map.of("service_name", "b"), "info", T0 + i * 1_000L, "served request number " + i, T0);
        }
        List<MinedPattern> both = miner.patterns("t", l -> true, T0, T0 + 60_000, 20_000);
        assertThat(both).hasSize(1);
        assertThat(both.get(0).pattern()).isEqualTo("served request number <_>");
        assertThat(both.get(0).level()).isEqualTo("info");
        assertThat(both.get(0).samples()).extracting(MinedPattern.Sample::count).containsExactly(40L, 20L);
        List<MinedPattern> onlyA = miner.patterns("t", l -> "a".equals(l.get("service_name")), T0, T0 + 60_000,
                20_000);
        assertThat(onlyA.get(0).total()).isEqualTo(30);
        assertThat(miner.patterns("other", l -> true, T0, T0 + 60_000, 20_000)).isEmpty();
    }

    @Test
    void join_gluedWildcardsCollapse() {
        assertThat(LineTokens.join(new String[] {"a=", "<_>", "b"}, new boolean[] {false, true, false}))
                .isEqualTo("a=<_> b");
        assertThat(LineTokens.join(new String[] {"<_>", "<_>", "end"}, new boolean[] {false, true, false}))
                .isEqualTo("<_> end");
    }
}
