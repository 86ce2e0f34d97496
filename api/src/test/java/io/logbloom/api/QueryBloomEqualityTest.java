package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The invariant over HTTP: a randomized corpus of log and metric queries returns exactly the same
 * result with blooms on and off, on generated data with structured metadata, with and without
 * n-gram mode; and the corpus does skip chunks.
 */
final class QueryBloomEqualityTest {
    private static final long SEC = 1_000_000_000L;
    private static final String[] APPS = {"cart", "auth", "mail"};
    private static final String[] WORDS = {"GET", "POST", "timeout", "refused", "ok", "retry"};

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void randomizedCorpus_bloomsOnOffIdentical(boolean ngrams) throws Exception {
        String yaml = "ingester:\n  chunk_block_size: 1KB\n  chunk_target_size: 2KB\nbloom:\n  ngram_enabled: "
                + ngrams + "\n";
        Random rnd = new Random(ngrams ? 17 : 19);
        long t0 = (System.currentTimeMillis() / 1000 - 3000) * SEC;
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, yaml)) {
            for (int batch = 0; batch < 3; batch++) {
                StringBuilder json = new StringBuilder("{\"streams\":[");
                for (int a = 0; a < APPS.length; a++) {
                    json.append(a > 0 ? "," : "").append("{\"stream\":{\"app\":\"").append(APPS[a])
                            .append("\",\"cluster\":\"eu\"},\"values\":[");
                    for (int i = 0; i < 150; i++) {
                        int n = batch * 150 + i;
                        json.append(i > 0 ? "," : "").append("[\"").append(t0 + (n * 3L + a) * SEC).append("\",\"")
                                .append("level=").append(n % 5 == 0 ? "error" : "info").append(" op=")
                                .append(WORDS[rnd.nextInt(WORDS.length)]).append(" req=").append(APPS[a]).append(n)
                                .append("\",{\"trace_id\":\"").append(APPS[a]).append("-").append(n)
                                .append("\",\"user\":\"u").append(rnd.nextInt(9)).append("\"}]");
                    }
                    json.append("]}");
                }
                json.append("]}");
                HttpResponse<String> r = f.pushJson(json.toString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
            }
            f.flush();
            long skipped = 0;
            for (int k = 0; k < 30; k++) {
                String app = APPS[rnd.nextInt(APPS.length)];
                int n = rnd.nextInt(470);
                String q = switch (rnd.nextInt(8)) {
                    case 0 -> "{cluster=\"eu\"} | trace_id=\"" + app + "-" + n + "\"";
                    case 1 -> "{app=\"" + app + "\"} | user=\"u" + rnd.nextInt(11) + "\"";
                    case 2 -> "{cluster=\"eu\"} |= \"req=" + app + n + "\"";
                    case 3 -> "{cluster=\"eu\"} | trace_id=\"" + app + "-" + n + "\" or trace_id=\"x\"";
                    case 4 -> "{cluster=\"eu\"} |= \"" + WORDS[rnd.nextInt(WORDS.length)] + "\" | logfmt | level=\"error\"";
                    case 5 -> "sum by (app) (count_over_time({cluster=\"eu\"} | trace_id=\"" + app + "-" + n + "\" [10m]))";
                    case 6 -> "count_over_time({app=\"" + app + "\"} |= \"req=" + app + n + "\" [5m])";
                    default -> "{cluster=\"eu\"} | logfmt | op=\"" + WORDS[rnd.nextInt(WORDS.length)] + "\"";
                };
                long start = t0 + rnd.nextInt(1200) * SEC;
                long end = start + (60 + rnd.nextInt(1800)) * SEC;
                String path = "/loki/api/v1/query_range?query=" + enc(q) + "&start=" + start + "&end=" + end
                        + "&limit=" + (1 + rnd.nextInt(200)) + "&direction=" + (rnd.nextBoolean() ? "forward" : "backward")
                        + "&step=30s";
                JsonNode on = f.ok(path);
                JsonNode off = f.ok(path, "X-Logbloom-Blooms", "off");
                assertThat(on.get("data").get("result")).as(q).isEqualTo(off.get("data").get("result"));
                skipped += on.get("data").get("stats").get("index").get("chunksSkipped").asLong();
            }
            assertThat(skipped).isPositive();
        }
    }

    /** Issue 15: in n-gram mode these regexes once skipped the chunk holding their line; over HTTP, as a user would. */
    @ParameterizedTest
    @ValueSource(strings = {"^(?i)error", "nomatch|(?i)error disk", "abc😀*", "(?i)DISK", "x?(?i:Error) disk",
        "plai[nN]$", "ab(c|C)d\\b", "(?i)ABCD PLAIN"})
    void issueRegexes_ngramMode_bloomsOnEqualsOff(String regex) throws Exception {
        String yaml = "bloom:\n  ngram_enabled: true\n";
        long t0 = (System.currentTimeMillis() / 1000 - 600) * SEC;
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, yaml)) {
            HttpResponse<String> r = f.pushJson("{\"streams\":[{\"stream\":{\"app\":\"x\"},\"values\":[[\"" + t0
                    + "\",\"ERROR disk full\"],[\"" + (t0 + SEC) + "\",\"abcd plain\"]]}]}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
            f.flush();
            String path = "/loki/api/v1/query_range?query=" + enc("{app=\"x\"} |~ `" + regex + "`") + "&start=" + (t0 - SEC)
                    + "&end=" + (t0 + 10 * SEC) + "&limit=10";
            JsonNode on = f.ok(path);
            JsonNode off = f.ok(path, "X-Logbloom-Blooms", "off");
            assertThat(off.get("data").get("result").get(0).get("values")).as(regex).hasSize(1);
            assertThat(on.get("data").get("result")).as(regex).isEqualTo(off.get("data").get("result"));
        }
    }
}
