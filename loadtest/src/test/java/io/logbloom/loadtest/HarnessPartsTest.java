package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

final class HarnessPartsTest {
    @ParameterizedTest
    @CsvSource({"30s,30000", "500ms,500", "2m,120000", "1h,3600000", "1m30s,90000", "1.5s,1500"})
    void duration_parsesLokiStyle(String text, long millis) {
        assertThat(DurationConverter.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void duration_malformed_namesTheValue() {
        assertThatThrownBy(() -> DurationConverter.parse("30")).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("'30'");
        assertThatThrownBy(() -> DurationConverter.parse("5s later")).hasMessageContaining("'5s later'");
    }

    @Test
    void rateLimiter_spacesReservationsAndDoesNotBankIdleTime() {
        AtomicLong now = new AtomicLong(0);
        RateLimiter limiter = new RateLimiter(1_000, now::get);
        assertThat(limiter.reserve(100)).isEqualTo(0);
        assertThat(limiter.reserve(100)).isEqualTo(100_000_000L);
        assertThat(limiter.reserve(1)).isEqualTo(200_000_000L);
        now.set(10_000_000_000L);
        long slot = limiter.reserve(100);
        assertThat(slot).isEqualTo(10_000_000_000L - 100_000_000L);
        assertThat(limiter.reserve(100)).isEqualTo(10_000_000_000L);
        assertThatThrownBy(() -> new RateLimiter(0, now::get)).hasMessageContaining("got 0.0");
    }

    @Test
    void responsivenessWatch_givesUpOnlyAfterGraceWithFailures() {
        AtomicLong now = new AtomicLong(0);
        ResponsivenessWatch watch = new ResponsivenessWatch(Duration.ofSeconds(2), now::get);
        now.set(5_000_000_000L);
        assertThat(watch.verdict("http://x")).as("silence without failures is not a verdict").isNull();
        watch.observe(new HttpOutcome(-1, "timeout", "no answer within PT10S", -1, new byte[0]));
        assertThat(watch.verdict("http://x")).contains("http://x stopped answering", "timeout: no answer");
        watch.observe(new HttpOutcome(503, null, "busy", 1, new byte[0]));
        assertThat(watch.verdict("http://x")).isNull();
        watch.observe(new HttpOutcome(-1, "connection_refused", "refused", -1, new byte[0]));
        now.addAndGet(1_000_000_000L);
        assertThat(watch.verdict("http://x")).isNull();
        now.addAndGet(1_000_000_000L);
        assertThat(watch.verdict("http://x")).contains("1 failed requests");
    }

    private static final Needle NEEDLE = new Needle(Map.of("run", "r"), "abc", "the line", 5);

    private static QueryResponseCheck.Verdict check(Needle expected, String body, Duration step) {
        return new QueryResponseCheck().check(new PlannedQuery("q", "{run=\"r\"}", 0, 10, 100, step, expected),
                body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void responseCheck_needleFoundMissingWrong() {
        String found = "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{\"run\":\"r\"},"
                + "\"values\":[[\"5\",\"the line\"]]}]}}";
        assertThat(check(NEEDLE, found, null).failure()).isNull();
        assertThat(check(NEEDLE, "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[]}}", null)
                .failure()).isEqualTo(QueryResponseCheck.MISSING);
        String two = found.replace("[[\"5\",\"the line\"]]", "[[\"5\",\"the line\"],[\"6\",\"other\"]]");
        assertThat(check(NEEDLE, two, null).failure()).isEqualTo(QueryResponseCheck.WRONG);
        assertThat(check(NEEDLE, found.replace("the line", "another line"), null).failure()).isEqualTo(QueryResponseCheck.WRONG);
        assertThat(check(null, two, null)).isEqualTo(new QueryResponseCheck.Verdict(null, "", 2));
    }

    private static QueryResponseCheck.Verdict checkCount(long expected, String result) {
        return new QueryResponseCheck().check(new PlannedQuery("q", "sum(count_over_time({run=\"r\"} |= \"x\" [9s]))", 10, 10,
                100, Duration.ofSeconds(1), null, expected), ("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
                        + "\"result\":" + result + "}}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void responseCheck_countSumsTheLastPointOfEverySeries() {
        String two = "[{\"metric\":{\"level\":\"info\"},\"values\":[[9,\"1\"],[10,\"4\"]]},"
                + "{\"metric\":{\"level\":\"warn\"},\"values\":[[10,\"3\"]]}]";
        assertThat(checkCount(7, two).failure()).isNull();
        assertThat(checkCount(8, two).failure()).isEqualTo(QueryResponseCheck.COUNT_WRONG);
        assertThat(checkCount(8, two).detail()).contains("counted 7 lines where the push acknowledged 8");
        assertThat(checkCount(0, "[]").failure()).isNull();
        assertThat(checkCount(3, "[]").failure()).isEqualTo(QueryResponseCheck.COUNT_WRONG);
        assertThat(checkCount(3, "[{\"metric\":{},\"values\":[[10,\"NaN?\"]]}]").failure())
                .isEqualTo(QueryResponseCheck.BAD_RESPONSE);
        assertThatThrownBy(() -> new PlannedQuery("q", "{run=\"r\"}", 0, 1, 5, null, null, 3))
                .hasMessageContaining("needs a metric query");
    }

    @Test
    void responseCheck_shapeErrors() {
        assertThat(check(null, "not json", null).failure()).isEqualTo(QueryResponseCheck.BAD_RESPONSE);
        assertThat(check(null, "{\"status\":\"error\"}", null).failure()).isEqualTo(QueryResponseCheck.BAD_RESPONSE);
        String matrix = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[]}]}}";
        assertThat(check(null, matrix, Duration.ofSeconds(1)).failure()).isNull();
        assertThat(check(null, matrix, null).detail()).contains("resultType 'matrix' but expected 'streams'");
    }

    @Test
    void manifest_writtenBeforeLineTallies_readsWithNone(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("old.json");
        java.nio.file.Files.writeString(file, "{\"runId\":\"r1\",\"seed\":1,\"streams\":3,\"startNanos\":0,"
                + "\"endNanos\":10,\"linesPushed\":10,\"needles\":[],\"rarePhrases\":[]}");
        assertThat(Manifest.read(file).linesContaining()).isEmpty();

        Manifest tallied = new Manifest("r1", 1, 3, 0, 10, 10, java.util.List.of(NEEDLE), LogGenerator.RARE_PHRASES,
                Map.of("status=500", 7L));
        tallied.write(file);
        assertThat(Manifest.read(file).linesContaining()).containsExactly(Map.entry("status=500", 7L));
    }

    @Test
    void queryMix_coversEveryKindOverTheManifestRange() {
        Manifest manifest = new Manifest("r1", 1, 3, 10_000_000_000L, 70_000_000_000L, 10, java.util.List.of(NEEDLE),
                LogGenerator.RARE_PHRASES, Map.of());
        QueryMix mix = new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 50);
        SplittableRandom random = new SplittableRandom(1);
        Map<String, PlannedQuery> byKind = new java.util.TreeMap<>();
        for (int i = 0; i < 500; i++) {
            PlannedQuery query = mix.next(random);
            byKind.putIfAbsent(query.operation(), query);
            assertThat(query.startNanos()).isEqualTo(9_000_000_000L);
            assertThat(query.endNanos()).isEqualTo(71_000_000_000L);
        }
        assertThat(byKind).containsOnlyKeys(QueryMix.NEEDLE, QueryMix.SUBSTRING, QueryMix.LABELS, QueryMix.RATE, QueryMix.QUANTILE);
        assertThat(byKind.get(QueryMix.NEEDLE).logql()).isEqualTo("{run=\"r\"} | trace_id=\"abc\"");
        assertThat(byKind.get(QueryMix.NEEDLE).expected()).isEqualTo(NEEDLE);
        assertThat(byKind.get(QueryMix.SUBSTRING).logql()).startsWith("{run=\"r1\"} |= \"");
        assertThat(byKind.get(QueryMix.LABELS).logql()).contains("run=\"r1\"", "level=~\"warn|error\"");
        assertThat(byKind.get(QueryMix.RATE).logql()).isEqualTo("sum by (level) (rate({run=\"r1\"}[1m]))");
        assertThat(byKind.get(QueryMix.RATE).step()).isEqualTo(Duration.ofSeconds(1));
        assertThat(byKind.get(QueryMix.QUANTILE).logql())
                .isEqualTo("quantile_over_time(0.99, {run=\"r1\"} |= \"duration_ms=\" | logfmt | unwrap duration_ms [1m]) by (level)");
    }

    @Test
    void queryMix_subsetOfKinds_sendsOnlyThose() {
        Manifest manifest = new Manifest("r1", 1, 3, 0, 10, 10, java.util.List.of(NEEDLE), LogGenerator.RARE_PHRASES,
                Map.of());
        QueryMix mix = new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 5,
                java.util.List.of("needle", "query_rate"), Map.of());
        SplittableRandom random = new SplittableRandom(2);
        java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
        for (int i = 0; i < 600; i++) {
            counts.merge(mix.next(random).operation(), 1, Integer::sum);
        }
        assertThat(counts).containsOnlyKeys(QueryMix.NEEDLE, QueryMix.RATE);
        assertThat(counts.get(QueryMix.NEEDLE)).isBetween(440, 560);
        assertThatThrownBy(() -> new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 5,
                java.util.List.of("grep"), Map.of())).hasMessageContaining("'grep'");
        assertThatThrownBy(() -> new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 5,
                java.util.List.of(), Map.of())).hasMessageContaining("at least one");
    }

    @Test
    void queryMix_count_oneInstantPointWhoseWindowCoversTheRange() {
        Manifest manifest = new Manifest("r1", 1, 3, 10_000_000_000L, 70_500_000_000L, 10, java.util.List.of(NEEDLE),
                LogGenerator.RARE_PHRASES, Map.of("status=500", 7L, "say \"hi\"", 0L));
        QueryMix mix = new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 5,
                java.util.List.of("count"), manifest.linesContaining());
        SplittableRandom random = new SplittableRandom(4);
        Map<String, PlannedQuery> byText = new java.util.TreeMap<>();
        for (int i = 0; i < 100; i++) {
            PlannedQuery query = mix.next(random);
            byText.putIfAbsent(query.logql(), query);
            assertThat(query.operation()).isEqualTo(QueryMix.COUNT);
            // at the end of the widened range [9 s, 71.5 s], a 63 s window reaches back to 8.5 s
            assertThat(query.startNanos()).isEqualTo(71_500_000_000L);
            assertThat(query.endNanos()).isEqualTo(71_500_000_000L);
            assertThat(query.step()).isEqualTo(Duration.ofSeconds(1));
        }
        assertThat(byText).hasSize(2);
        assertThat(byText.get("sum(count_over_time({run=\"r1\"} |= \"status=500\" [63s]))").expectedCount()).isEqualTo(7);
        assertThat(byText.get("sum(count_over_time({run=\"r1\"} |= \"say \\\"hi\\\"\" [63s]))").expectedCount()).isZero();
    }

    @Test
    void queryMix_countWithoutTallies_refusedSayingHowToGetThem() {
        Manifest manifest = new Manifest("r1", 1, 3, 0, 10, 10, java.util.List.of(NEEDLE), LogGenerator.RARE_PHRASES,
                Map.of());
        assertThatThrownBy(() -> new QueryMix("r1", NeedleReservoir.of(manifest), QueryMix.fixed(manifest), 5,
                java.util.List.of("needle", "count"), Map.of())).hasMessageContaining("--count-lines-containing");
    }

    @Test
    void queryMix_withoutNeedlesYet_returnsNullForNeedlePicks() {
        QueryMix mix = new QueryMix("r1", new NeedleReservoir(10, 1), QueryMix.growing(0, () -> 5), 10);
        SplittableRandom random = new SplittableRandom(3);
        int nulls = 0;
        for (int i = 0; i < 100; i++) {
            if (mix.next(random) == null) {
                nulls++;
            }
        }
        assertThat(nulls).isBetween(30, 70);
    }

    @Test
    void reservoir_keepsAUniformBoundedSample() {
        NeedleReservoir reservoir = new NeedleReservoir(10, 7);
        GeneratorConfig config = new GeneratorConfig(7, "r", 1, 1, false);
        assertThat(reservoir.manifest(config, Map.of())).isNull();
        for (int i = 0; i < 1_000; i++) {
            reservoir.acknowledged(new Needle(Map.of("run", "r"), "t" + i, "l", i), 5, i, i + 1);
        }
        Manifest manifest = reservoir.manifest(config, Map.of());
        assertThat(manifest.needles()).hasSize(10);
        assertThat(manifest.linesPushed()).isEqualTo(5_000);
        assertThat(manifest.startNanos()).isZero();
        assertThat(manifest.endNanos()).isEqualTo(1_000);
        assertThat(manifest.needles().stream().filter(n -> Integer.parseInt(n.traceId().substring(1)) >= 10)).isNotEmpty();
    }

    @Test
    void lokiClient_badUrl_rejected() {
        assertThatThrownBy(() -> new LokiClient(java.net.URI.create("ftp://x"), null, Duration.ofSeconds(1)))
                .hasMessageContaining("'ftp://x'");
    }
}
