package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random pipelines and metric wrappers over random lines: evaluation fails only with documented query errors. */
final class EngineFuzzTest {

    private static final String[] STAGES = {"|= \"a\"", "!= \"b\"", "|~ \"a.c\"", "| json", "| logfmt", "| logfmt --strict",
        "| regexp \"(?P<w>\\\\w+)\"", "| pattern \"<p> <_>\"", "| unpack", "| line_format \"{{.w}}{{ .p | ToUpper }}\"",
        "| label_format q=w", "| label_format r=\"{{ div .n 0 }}\"", "| drop w", "| keep n, p", "| decolorize",
        "| n > 3", "| n < 2s", "| n >= 1KB", "| w=\"x\" or n!=\"1\"", "| __error__=\"\"", "| drop __error__, __error_details__",
        "| addr = ip(\"10.0.0.0/8\")"};
    private static final String[] WRAPPERS = {"%s", "count_over_time(%s [10s])", "rate(%s [10s])", "bytes_rate(%s [10s])",
        "sum by (w) (count_over_time(%s [10s]))", "sum_over_time(%s | unwrap n [10s])",
        "quantile_over_time(0.5, %s | unwrap n | __error__=\"\" [10s]) by (p)", "topk(2, rate(%s [10s]))",
        "absent_over_time(%s [10s])", "sum(rate(%s [10s])) / sum(rate(%s [10s]))",
        "label_replace(rate(%s [10s]), \"x\", \"$1\", \"w\", \"(.*)\")", "rate_counter(%s | unwrap n [10s])"};
    private static final String[] LINES = {"{\"w\":\"x\",\"n\":5}", "w=x n=1", "n=\"2s\" p=abc", "a b c", "abc 10.0.0.1",
        "\u001b[31mred\u001b[0m", "{\"_entry\":\"inner\",\"w\":\"y\"}", "n=3KB", "=broken \"quote", ""};

    @Test
    void randomQueries_onlyDocumentedErrors() throws IOException {
        Random r = new Random(5);
        MemorySource src = new MemorySource();
        for (int i = 0; i < 200; i++) {
            src.add(Map.of("app", "f", "s", "s" + (i % 3)), (i + 1) * 100_000_000L, LINES[r.nextInt(LINES.length)]);
        }
        Engine engine = new Engine();
        int ok = 0;
        int pipelineErrors = 0;
        for (int i = 0; i < 400; i++) {
            StringBuilder log = new StringBuilder("{app=\"f\"}");
            for (int s = r.nextInt(4); s > 0; s--) {
                log.append(' ').append(STAGES[r.nextInt(STAGES.length)]);
            }
            String query = WRAPPERS[r.nextInt(WRAPPERS.length)].replace("%s", log);
            Expr e = LogQL.parse(query);
            try {
                if (e instanceof LogExpr l) {
                    engine.evalLogs(l, src, 0, 30_000_000_000L, 50, r.nextBoolean() ? Direction.FORWARD : Direction.BACKWARD);
                } else {
                    engine.evalRange((SampleExpr) e, src, 0, 25_000_000_000L, 5_000_000_000L);
                    engine.evalInstant((SampleExpr) e, src, 12_000_000_000L);
                }
                ok++;
            } catch (LogQLValidationException ex) {
                assertThat(ex.getMessage()).as(query).containsAnyOf("pipeline error", "many-to-one", "duplicate series");
                pipelineErrors++;
            }
        }
        assertThat(ok).isGreaterThan(100);
        assertThat(pipelineErrors).isPositive();
    }
}
