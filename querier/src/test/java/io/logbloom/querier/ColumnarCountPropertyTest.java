package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.logql.Engine;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine that counts lines from block columns against the row-at-a-time reference, through the real
 * querier, on random data (rows in columnar objects, local parts and memory; equal timestamps, repeated rows,
 * structured metadata, overlapping objects) and random queries (line filters, parsers, label filters,
 * line_format, every range function, grouping): identical results, or the identical error.
 */
final class ColumnarCountPropertyTest {
    private static final String TENANT = "t1";
    private static final long SEC = 1_000_000_000L;
    private static final long BASE = 1_700_000_000L * SEC;
    private static final String[] LEVELS = {"info", "warn", "error"};
    private static final String[] FILTERS = {"|= \"status=5\"", "!= \"retry\"", "|~ \"status=(500|404)\"",
        "|= \"é\" or \"level=warn\"", "!~ \"(?i)GET\"", "|> \"<_>status=<_>\"", "|= \"retry\"", "|~ \"b.*s\""};
    private static final String[] OTHER_STAGES = {"| logfmt", "| json", "| regexp \"status=(?P<code>\\\\d+)\"",
        "| pattern \"<_> status=<st> <_>\"", "| logfmt | level=\"error\"", "| logfmt | status >= 400",
        "| line_format \"{{.app}} x\"", "| logfmt | __error__=\"\" | line_format \"{{.level}}\"", "| decolorize"};
    private static final String[] COUNT_OPS = {"count_over_time", "rate", "bytes_over_time", "bytes_rate"};
    private static final String[] UNWRAP_OPS = {"sum_over_time", "avg_over_time", "max_over_time", "min_over_time",
        "first_over_time", "last_over_time", "stdvar_over_time", "stddev_over_time", "quantile_over_time(0.9,",
        "rate_counter"};
    private static final String[] WRAPPERS = {"%s", "sum(%s)", "sum by (app) (%s)", "sum by (env) (%s)",
        "count by (app) (%s)", "max by (level) (%s)", "sum without (app) (%s)", "sum by (trace_id) (%s)",
        "topk(2, %s)", "min(%s)"};

    @TempDir
    Path dir;

    private static String line(Random r) {
        String level = LEVELS[r.nextInt(LEVELS.length)];
        int status = new int[] {200, 200, 404, 500, 503}[r.nextInt(5)];
        return switch (r.nextInt(4)) {
            case 0 -> "{\"level\":\"" + level + "\",\"status\":" + status + ",\"msg\":\"GET é\"}";
            case 1 -> "retrying upstream 😀 status=" + status;
            default -> "level=" + level + " method=GET status=" + status + " bytes=" + r.nextInt(5000)
                    + (r.nextBoolean() ? " msg=\"retry later\"" : " msg=ok");
        };
    }

    /** One random data set in the querier's fakes: objects, a part and memory rows per stream, in time order. */
    private QuerierFakes.Storage data(Random r, Path partDir) throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        int metadataMode = r.nextInt(3); // none, trace_id, a "level" key that shadows the parsed one
        boolean overlap = r.nextInt(5) == 0;
        boolean clean = r.nextInt(3) == 0; // no equal timestamps, no repeats: blocks can be answered from row counts
        Map<Labels, List<LogEntry>> objectA = new LinkedHashMap<>();
        Map<Labels, List<LogEntry>> objectB = new LinkedHashMap<>();
        Map<Labels, List<LogEntry>> part = new LinkedHashMap<>();
        String[][] streams = {{"api", "prod"}, {"db", "prod"}, {"web", "dev"}, {"api", "dev"}};
        for (String[] st : streams) {
            Labels labels = Labels.of("app", st[0], "env", st[1]);
            List<LogEntry> rows = new ArrayList<>();
            long ts = BASE + r.nextInt(30) * SEC;
            int n = 5 + r.nextInt(80);
            for (int i = 0; i < n; i++) {
                if (!clean && !rows.isEmpty() && r.nextInt(12) == 0) {
                    rows.add(rows.get(rows.size() - 1)); // a repeated row: the reference drops it
                    continue;
                }
                ts += !clean && r.nextInt(4) == 0 ? 0 : r.nextInt(6) * SEC + 1 + r.nextInt(1000);
                List<Label> md = switch (metadataMode) {
                    case 1 -> List.of(new Label("trace_id", "t" + r.nextInt(4)));
                    case 2 -> r.nextBoolean() ? List.of(new Label("level", "md")) : List.of();
                    default -> List.of();
                };
                rows.add(new LogEntry(ts, line(r), md));
            }
            int a = rows.size() * 2 / 5;
            int b = rows.size() * 7 / 10;
            int p = rows.size() * 9 / 10;
            put(objectA, labels, rows.subList(0, a));
            List<LogEntry> inB = new ArrayList<>(rows.subList(a, b));
            if (overlap && a > 0 && !inB.isEmpty()) {
                inB.add(new LogEntry(rows.get(0).timestampNanos(), "late line status=500", List.of()));
            }
            put(objectB, labels, inB);
            put(part, labels, rows.subList(b, p));
            if (p < rows.size()) {
                s.memory.put(labels, List.copyOf(rows.subList(p, rows.size())));
            }
        }
        int rowsPerBlock = 2 + r.nextInt(15);
        if (!objectA.isEmpty()) {
            s.flushColumnar(TENANT, objectA, rowsPerBlock);
        }
        if (!objectB.isEmpty()) {
            s.flushColumnar(TENANT, objectB, rowsPerBlock);
        }
        if (!part.isEmpty()) {
            s.sealPart(partDir, part, rowsPerBlock);
        }
        return s;
    }

    private static void put(Map<Labels, List<LogEntry>> target, Labels labels, List<LogEntry> rows) {
        if (!rows.isEmpty()) {
            target.put(labels, List.copyOf(rows));
        }
    }

    private static String query(Random r) {
        StringBuilder pipeline = new StringBuilder();
        int filters = r.nextInt(3);
        for (int i = 0; i < filters; i++) {
            pipeline.append(' ').append(FILTERS[r.nextInt(FILTERS.length)]);
        }
        boolean unwrap = r.nextInt(4) == 0;
        if (!unwrap && r.nextInt(4) == 0) {
            pipeline.append(' ').append(OTHER_STAGES[r.nextInt(OTHER_STAGES.length)]);
        }
        String selector = new String[] {"{env=\"prod\"}", "{app=~\".+\"}", "{app=\"api\"}"}[r.nextInt(3)];
        String range = " [" + new String[] {"5s", "20s", "1m", "3m"}[r.nextInt(4)] + "]"
                + (r.nextInt(4) == 0 ? " offset " + (1 + r.nextInt(30)) + "s" : "");
        String inner;
        if (unwrap) {
            String op = UNWRAP_OPS[r.nextInt(UNWRAP_OPS.length)];
            String open = op.endsWith(",") ? op + " " : op + "(";
            inner = open + selector + pipeline + " | logfmt | __error__=\"\" | unwrap bytes" + range + ")";
        } else if (r.nextInt(15) == 0) {
            inner = "absent_over_time(" + selector + pipeline + range + ")";
        } else {
            inner = COUNT_OPS[r.nextInt(COUNT_OPS.length)] + "(" + selector + pipeline + range + ")";
        }
        return String.format(WRAPPERS[r.nextInt(WRAPPERS.length)], inner);
    }

    @Test
    void randomDataAndQueries_columnarEqualsRowAtATime() throws Exception {
        Random r = new Random(20261123);
        long answered = 0;
        long declined = 0;
        long fromDirectory = 0;
        int queries = 0;
        for (int set = 0; set < 40; set++) {
            Path partDir = Files.createDirectories(dir.resolve("parts-" + set));
            QuerierFakes.Storage s = data(r, partDir);
            try (Querier querier = new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME,
                    QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
                QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
                QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
                for (int k = 0; k < 25; k++) {
                    String q = query(r);
                    QueryRequest request = r.nextBoolean()
                            ? new QueryRequest(TENANT, q, BASE + r.nextInt(400) * SEC + r.nextInt(3), 0, 0, 100,
                                    false, true, true)
                            : new QueryRequest(TENANT, q, BASE + r.nextInt(200) * SEC, 0, (1 + r.nextInt(30)) * SEC,
                                    100, false, false, true);
                    if (!request.instant()) {
                        request = new QueryRequest(TENANT, q, request.startNanos(),
                                request.startNanos() + r.nextInt(300) * SEC, request.stepNanos(), 100, false, false,
                                true);
                    } else {
                        request = new QueryRequest(TENANT, q, request.startNanos(), request.startNanos(), 0, 100,
                                false, true, true);
                    }
                    QueryRequest finalRequest = request;
                    Object expected;
                    Throwable expectedError = catchThrowable(() -> reference.run(finalRequest));
                    if (expectedError != null) {
                        Throwable got = catchThrowable(() -> columnar.run(finalRequest));
                        assertThat(got).as(q).isNotNull().hasMessage(expectedError.getMessage());
                        continue;
                    }
                    expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                    Object got = ((QueryOutcome.Metrics) columnar.run(request)).result();
                    assertThat(got).as("set %d: %s", set, q).isEqualTo(expected);
                    queries++;
                }
                answered += querier.metrics().columnarCountsAnswered();
                declined += querier.metrics().columnarCountsDeclined();
                fromDirectory += querier.metrics().columnarBlocksFromDirectory();
            }
        }
        assertThat(queries).isGreaterThan(500);
        assertThat(answered).as("aggregations counted from columns").isGreaterThan(150);
        assertThat(declined).as("aggregations declined (metadata labels, overlapping objects)").isPositive();
        assertThat(fromDirectory).as("blocks answered from their row count").isPositive();
    }

    @Test
    void wideQuery_overItsMemoryBudget_badRequestWithTheReason() throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        List<LogEntry> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            rows.add(new LogEntry(BASE + i * SEC, "level=info status=200 n=" + i, List.of()));
        }
        s.flushColumnar(TENANT, Map.of(Labels.of("app", "api", "env", "prod"), rows), 50);
        try (Querier querier = new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
            QueryRunner runner = new QueryRunner(querier, new Engine(true, true, 100), LogqlBloomQueries::extract);
            QueryRequest parsed = new QueryRequest(TENANT, "sum(count_over_time({app=\"api\"} | logfmt [1h]))",
                    BASE + 600 * SEC, BASE + 600 * SEC, 0, 100, false, true, true);
            Throwable error = catchThrowable(() -> runner.run(parsed));
            assertThat(error).isInstanceOf(QuerierException.class).hasMessageContaining("budget");
            assertThat(((QuerierException) error).code()).isEqualTo(QuerierErrorCode.BAD_REQUEST);
            // counted from columns, the same query shape without a parser holds one sample per block, within budget
            QueryOutcome counted = runner.run(new QueryRequest(TENANT, "sum(count_over_time({app=\"api\"} [1h]))",
                    BASE + 600 * SEC, BASE + 600 * SEC, 0, 100, false, true, true));
            assertThat(counted.toString()).contains("value=500.0");
        }
    }
}
