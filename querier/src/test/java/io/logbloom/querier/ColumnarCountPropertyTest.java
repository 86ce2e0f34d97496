package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.logql.Engine;
import io.logbloom.logql.MetricResult;
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
    // the literals with a number after a key (status=5, status=404 , "status":50, bytes=49) are what a block's number
    // ranges can rule out: a small block's few statuses and sizes often hold none of them
    private static final String[] FILTERS = {"|= \"status=5\"", "!= \"retry\"", "|~ \"status=(500|404)\"",
        "|= \"é\" or \"level=warn\"", "!~ \"(?i)GET\"", "|> \"<_>status=<_>\"", "|= \"retry\"", "|~ \"b.*s\"",
        "|= \"status=404 \"", "|= \"\\\"status\\\":50\"", "!= \"bytes=49\""};
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
        return data(r, partDir, ColumnarCountPropertyTest::line, 85, 0);
    }

    /**
     * As {@link #data(Random, Path)}, with up to {@code maxRows} rows per stream from {@code lines} and
     * {@code rowsPerBlock} rows per block (0: a random small number).
     */
    private QuerierFakes.Storage data(Random r, Path partDir, java.util.function.Function<Random, String> lines,
            int maxRows, int rowsPerBlock) throws Exception {
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
            int n = 5 + r.nextInt(maxRows - 5);
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
                rows.add(new LogEntry(ts, lines.apply(r), md));
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
        int blockRows = rowsPerBlock > 0 ? rowsPerBlock : 2 + r.nextInt(15);
        if (!objectA.isEmpty()) {
            s.flushColumnar(TENANT, objectA, blockRows);
        }
        if (!objectB.isEmpty()) {
            s.flushColumnar(TENANT, objectB, blockRows);
        }
        if (!part.isEmpty()) {
            s.sealPart(partDir, part, blockRows);
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
            // odd sets without a block cache: scans then inflate line sections into per-thread scratch, keeping none
            QuerierConfig config = set % 2 == 0 ? QuerierConfig.defaults()
                    : new QuerierConfig(true, 8, 0, 128L << 20, 5000, 500, java.time.Duration.ofMinutes(1), 0);
            try (Querier querier = new Querier(config, s.store, s, s, QuerierFakes.SCHEME,
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

    /**
     * Three prod streams of 120 rows each ({@link #line}s, strictly increasing timestamps: units touching in time would
     * make a count decline), 70 in an object, 30 in a part, 20 in memory; each row's metadata from {@code metadata}
     * (given the random and the row's index).
     */
    private QuerierFakes.Storage threeStreams(Random r, String partDir,
            java.util.function.BiFunction<Random, Integer, List<Label>> metadata) throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        Map<Labels, List<LogEntry>> object = new LinkedHashMap<>();
        Map<Labels, List<LogEntry>> part = new LinkedHashMap<>();
        for (String app : new String[] {"api", "db", "web"}) {
            Labels labels = Labels.of("app", app, "env", "prod");
            List<LogEntry> rows = new ArrayList<>();
            long ts = BASE;
            for (int i = 0; i < 120; i++) {
                ts += 1 + r.nextInt(3) * SEC;
                List<Label> md = metadata.apply(r, i);
                rows.add(new LogEntry(ts, line(r), md));
            }
            object.put(labels, List.copyOf(rows.subList(0, 70)));
            part.put(labels, List.copyOf(rows.subList(70, 100)));
            s.memory.put(labels, List.copyOf(rows.subList(100, 120)));
        }
        s.flushColumnar(TENANT, object, 4 + r.nextInt(12));
        s.sealPart(Files.createDirectories(dir.resolve(partDir)), part, 4 + r.nextInt(12));
        return s;
    }

    /**
     * Runs {@code queries} as range queries over 400 s (20 s steps) on {@code s} through the columnar engine and the
     * row-at-a-time one, asserting equal, non-empty results; returns the querier's counts answered, declined and rows
     * parsed on bytes.
     */
    private static long[] equalToRowEngine(QuerierFakes.Storage s, List<String> queries, String set) throws Exception {
        try (Querier querier = new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
            QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
            QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
            for (String q : queries) {
                QueryRequest request = new QueryRequest(TENANT, q, BASE, BASE + 400 * SEC, 20 * SEC, 100, false,
                        false, true);
                Object expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                Object got = ((QueryOutcome.Metrics) columnar.run(request)).result();
                assertThat(got).as("%s: %s", set, q).isEqualTo(expected);
                assertThat(expected).as("%s: %s", set, q).isNotEqualTo(List.of());
            }
            return new long[] {querier.metrics().columnarCountsAnswered(), querier.metrics().columnarCountsDeclined(),
                querier.metrics().columnarPipelineRowsOnBytes()};
        }
    }

    @Test
    void countsGroupedByAMetadataKey_areCountedFromColumns_andEqualRowAtATime() throws Exception {
        Random r = new Random(7);
        String[] levels = {"info", "warn", "error", ""};
        List<String> queries = List.of(
                "sum by (detected_level) (count_over_time({env=\"prod\"} [1m]))",
                "sum by (detected_level) (count_over_time({env=\"prod\"} |= \"status\" [30s]))",
                "sum by (app, detected_level) (rate({app=~\".+\"} != \"retry\" [1m]))",
                "sum by (detected_level) (bytes_over_time({app=\"api\"} |~ \"status=5..\" [2m]))",
                // as generated level-volume queries end: after line filters alone the drop drops nothing
                "sum by (detected_level) (count_over_time({env=\"prod\"} |= \"status\" | drop __error__, "
                        + "__error_details__ [1m]))",
                "sum by (app) (rate({app=~\".+\"} | drop __error__ [1m]))");
        long answered = 0;
        long declined = 0;
        for (int set = 0; set < 6; set++) {
            QuerierFakes.Storage s = threeStreams(r, "grouped-" + set, (random, i) -> {
                List<Label> md = new ArrayList<>();
                if (random.nextInt(5) != 0) { // some rows have no level at all: counted in the stream's own series
                    md.add(new Label("detected_level", levels[random.nextInt(levels.length)]));
                }
                md.add(new Label("trace_id", "t" + i)); // a key the grouping drops
                return md;
            });
            long[] counts = equalToRowEngine(s, queries, "set " + set);
            answered += counts[0];
            declined += counts[1];
        }
        assertThat(declined).as("grouped by a metadata key: nothing declined").isZero();
        assertThat(answered).isEqualTo(6L * queries.size());
    }

    /**
     * Logs Drilldown's field breakdowns ({@code sum by (field) (count_over_time({…} | json | logfmt | drop __error__,
     * __error_details__ | field!="" [..]))}, and its json-only and logfmt-only forms, with a JSON path, with a level
     * picked) over streams mixing JSON and logfmt lines: counted from the columns, none declined, equal to the
     * row-at-a-time engine.
     */
    @Test
    void drilldownFieldBreakdowns_mixedJsonAndLogfmt_areCountedFromColumns_andEqualRowAtATime() throws Exception {
        Random r = new Random(11);
        long answered = 0;
        long declined = 0;
        long onBytes = 0;
        List<String> queries = List.of(
                "sum by (status) (count_over_time({env=\"prod\"} | json | logfmt | drop __error__, __error_details__"
                        + " | status!=\"\" [1m]))",
                "sum by (level) (count_over_time({env=\"prod\"} |= \"status\" | json | logfmt | drop __error__,"
                        + " __error_details__ | level!=\"\" [30s]))",
                "sum by (msg) (count_over_time({app=~\".+\"} | json | drop __error__, __error_details__ | msg!=\"\" [1m]))",
                // with a JSON field's path, as Drilldown sends once detected_fields gave one
                "sum by (status) (count_over_time({env=\"prod\"} | json status=\"[\\\"status\\\"]\" | logfmt | drop __error__,"
                        + " __error_details__ | status!=\"\" [1m]))",
                "sum by (method) (count_over_time({env=\"prod\"} | logfmt | drop __error__, __error_details__"
                        + " | method!=\"\" [2m]))",
                "avg_over_time({env=\"prod\"} | json | logfmt | drop __error__, __error_details__ | unwrap bytes"
                        + " | __error__=\"\" [1m]) by ()",
                // with a level picked: Drilldown filters on the detected_level structured metadata before the parsers
                "sum by (status) (count_over_time({env=\"prod\"} | detected_level=\"error\" | json | logfmt | drop"
                        + " __error__, __error_details__ | status!=\"\" [1m]))",
                "sum by (level) (count_over_time({env=\"prod\"} | detected_level=~\"warn|info\" | logfmt | drop"
                        + " __error__, __error_details__ | level!=\"\" [2m]))",
                // the level volume once a field filter is set: grouped by the metadata key beside parsers
                "sum by (detected_level) (count_over_time({env=\"prod\"} | json | logfmt | drop __error__,"
                        + " __error_details__ | status=\"500\" [1m]))",
                // the level volume once levels are picked: a filter on the key it is grouped by, no parser
                "sum by (detected_level) (count_over_time({env=\"prod\"} | detected_level=~\"warn|error\" [1m]))",
                "sum by (detected_level, app) (rate({env=\"prod\"} |= \"status\" | detected_level!=\"info\" | drop"
                        + " __error__, __error_details__ [30s]))");
        for (int set = 0; set < 6; set++) {
            QuerierFakes.Storage s = threeStreams(r, "fields-" + set, (random, i) -> random.nextInt(4) == 0 ? List.of()
                    : List.of(new Label("detected_level", LEVELS[random.nextInt(LEVELS.length)])));
            long[] counts = equalToRowEngine(s, queries, "set " + set);
            answered += counts[0];
            declined += counts[1];
            onBytes += counts[2];
        }
        assertThat(declined).as("nothing declined").isZero();
        assertThat(answered).isEqualTo(6L * queries.size());
        assertThat(onBytes).as("rows parsed on their bytes").isGreaterThan(6 * 300);

    }

    @Test
    void firstPlainCount_answersBlocksWithStrictlyIncreasingTimestampsFromTheDirectoryFlag_andRepeatsStillDropped()
            throws Exception {
        QuerierFakes.Storage s = new QuerierFakes.Storage(0);
        List<LogEntry> increasing = new java.util.ArrayList<>();
        List<LogEntry> repeating = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            increasing.add(LogEntry.of(BASE + (i + 1) * SEC, "line " + i));
            // every row twice at one timestamp: the row-at-a-time path keeps one of each pair
            repeating.add(LogEntry.of(BASE + (i / 2 + 1) * SEC, "same " + (i / 2)));
        }
        s.flushColumnar(TENANT, Map.of(Labels.of("app", "inc"), increasing, Labels.of("app", "rep"), repeating), 10);
        try (Querier querier = new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
            QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
            QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
            QueryRequest request = new QueryRequest(TENANT, "sum by (app) (count_over_time({app=~\".+\"}[1h]))",
                    BASE + 3000 * SEC, BASE + 3000 * SEC, 0, 100, false, true, true);
            Object got = ((QueryOutcome.Metrics) columnar.run(request)).result();
            // the first query of a fresh querier: no scan has taught it anything, the directory's flags answer
            assertThat(querier.metrics().columnarBlocksFromDirectory()).as("blocks of 'inc'").isEqualTo(4);
            assertThat(got).isEqualTo(((QueryOutcome.Metrics) reference.run(request)).result());
            assertThat(got.toString()).contains("40").contains("20");
        }
    }

    private static final String[] PARSER_LINES = {"level=%s status=%d bytes=%d latency=%s dur=%dms size=%dKB msg=\"retry later\"",
        "msg=\"a \\\"quoted\\\" \\\\ x\" bytes=%3$d level=%1$s", "ключ=значение bytes=%3$d é=1 lévél=%1$s",
        "bytes=%3$d bytes=7 level=%1$s level=warn", "app=other env=x bytes=%3$d level=%1$s", "bytes= level= status",
        "bytes=%3$d \"bad level=%1$s", "a=b=c bytes=%3$d", "__error__=boom bytes=%3$d", "1abc=5 bytes=%3$d",
        "bytes_extracted=7 app=zz bytes=%3$d", "bytes=abc level=%1$s", "bytes=-0 latency=-0", "bytes=1e3 latency=0x10",
        "size=12MB dur=1m30s bytes=%3$d", "dur=bad size=lots latency=slow", "{\"level\":\"%1$s\",\"bytes\":%3$d}",
        "msg=\"open bytes=%3$d", "bytes=%3$d\"x\" level=%1$s", "by-tes=%3$d lat=%4$s", "ébytes=1 _bytes=2 bytes=%3$d",
        "level=\"%1$s\" bytes=\"%3$d\" latency=\"%4$s\"", "addr=10.1.2.3 bytes=%3$d", "addr=192.168.0.1 status=%2$d",
        "__error_details__=x level=%1$s", "bytes=%3$d\tlevel=%1$s\tstatus=%2$d", "level=%1$s status=%2$d bytes=%3$d",
        "{\"level\":\"%1$s\",\"status\":%2$d,\"bytes\":%3$d,\"latency\":%4$s,\"req\":{\"b-c\":\"x\"}}",
        "{\"app\":\"other\",\"bytes\":\"%3$d\",\"msg\":\"a \\\"q\\\" é\",\"tags\":[1,2]}",
        "{\"level\":null,\"bytes\":%3$d, \"dur\":\"%5$dms\", \"size\":\"%6$dKB\"} tail",
        "{\"level\":\"%1$s\",\"bytes\":%3$d", "{\"__error__\":\"x\",\"bytes\":%3$d}"};
    private static final String[] PARSERS = {"| logfmt", "| logfmt", "| json", "| json", "| logfmt --strict",
        "| regexp \"bytes=(?P<bytes>\\\\d+)\"", "| pattern \"level=<level> <_>status=<status> <_>\"",
        "| logfmt --keep-empty", "| logfmt bytes, lvl=\"level\"", "| logfmt b=\"bytes\", app, level",
        "| logfmt --strict --keep-empty"};
    /** {@link #PARSERS} and two parsers or a drop of the error labels after them, as generated queries send them. */
    private static final String[] MORE_PARSERS = java.util.stream.Stream.concat(java.util.Arrays.stream(PARSERS),
            java.util.stream.Stream.of("| json | logfmt | drop __error__, __error_details__",
                    "| json | drop __error__, __error_details__", "| logfmt | json | drop __error__", "| json | logfmt",
                    "| json bytes=\"bytes\", level=\"level\", req=\"req.b-c\" | logfmt | drop __error__",
                    "| json status=\"status\", latency=\"latency\""))
            .toArray(String[]::new);
    private static final String[] PARSER_FILTERS = {"| bytes > 100", "| bytes >= 2000 or level=\"error\"",
        "| level=~\"err.*\"", "| status != 200", "| size > 1KB", "| dur > 1m", "| app_extracted=\"other\"",
        "| bytes_extracted > 0", "| by_tes > 1", "| __error__=\"\"", "| __error__!=\"\"", "| level!=\"info\"",
        "| msg=\"retry later\"", "| addr = ip(\"10.0.0.0/8\")", "| b < 3000", "| lvl=\"warn\"", "| latency > 0.5",
        "|= \"bytes\"", "!= \"retry\"", "| level=\"\"", "| _bytes > 1", "| bytes == 7, level=\"warn\"",
        "| env=\"prod\"", "| app=~\"a.*\"", "| req_b_c=\"x\"", "| status >= 400"};
    private static final String[] UNWRAPS = {"| unwrap bytes", "| unwrap latency", "| unwrap duration(dur)",
        "| unwrap bytes(size)", "| unwrap b", "| unwrap bytes | __error__=\"\"", "| unwrap latency | __error__=\"\"",
        "| unwrap duration_seconds(dur) | __error__=\"\"", "| unwrap bytes | level=\"error\""};
    private static final String[] PARSER_WRAPPERS = {"sum(%s)", "sum by (app) (%s)", "sum by (env) (%s)",
        "count by (app) (%s)", "max by (env) (%s)", "sum(%s)", "sum by (app, env) (%s)", "sum by (level) (%s)", "%s",
        "sum by (app_extracted) (%s)", "sum without (app) (%s)", "sum by (status) (%s)", "count by (level, app) (%s)",
        "max by (b, lvl) (%s)", "sum by (level_extracted, bytes) (%s)"};

    private static String parserLine(Random r) {
        String level = LEVELS[r.nextInt(LEVELS.length)];
        int status = new int[] {200, 200, 404, 500, 503}[r.nextInt(5)];
        String latency = new String[] {"0.25", "1.5", "3", "12.125", "0"}[r.nextInt(5)];
        String format = PARSER_LINES[r.nextInt(PARSER_LINES.length)];
        return String.format(java.util.Locale.ROOT, format, level, status, r.nextInt(5000), latency, r.nextInt(900),
                r.nextInt(40));
    }

    private static String parserQuery(Random r) {
        return parserQuery(r, PARSERS);
    }

    private static String parserQuery(Random r, String[] parsers) {
        StringBuilder pipeline = new StringBuilder();
        if (r.nextInt(3) == 0) {
            pipeline.append(' ').append(FILTERS[r.nextInt(FILTERS.length)]);
        }
        if (r.nextInt(8) == 0) {
            pipeline.append(" | app=\"api\"");
        }
        pipeline.append(' ').append(parsers[r.nextInt(parsers.length)]);
        int filters = r.nextInt(3);
        for (int i = 0; i < filters; i++) {
            pipeline.append(' ').append(PARSER_FILTERS[r.nextInt(PARSER_FILTERS.length)]);
        }
        String selector = new String[] {"{env=\"prod\"}", "{app=~\".+\"}", "{app=\"api\"}"}[r.nextInt(3)];
        String range = " [" + new String[] {"5s", "20s", "1m", "3m"}[r.nextInt(4)] + "]";
        String inner;
        if (r.nextInt(3) == 0) {
            String op = UNWRAP_OPS[r.nextInt(UNWRAP_OPS.length)];
            String open = op.endsWith(",") ? op + " " : op + "(";
            inner = open + selector + pipeline + " " + UNWRAPS[r.nextInt(UNWRAPS.length)] + range + ")";
        } else {
            inner = COUNT_OPS[r.nextInt(COUNT_OPS.length)] + "(" + selector + pipeline + range + ")";
        }
        return String.format(PARSER_WRAPPERS[r.nextInt(PARSER_WRAPPERS.length)], inner);
    }

    @Test
    void randomParserPipelines_onBytesEqualRowAtATime() throws Exception {
        Random r = new Random(20261124);
        long onBytes = 0;
        long answered = 0;
        int queries = 0;
        int errors = 0;
        for (int set = 0; set < 30; set++) {
            Path partDir = Files.createDirectories(dir.resolve("parser-parts-" + set));
            QuerierFakes.Storage s = data(r, partDir, ColumnarCountPropertyTest::parserLine, 85, 0);
            try (Querier querier = new Querier(QuerierConfig.defaults(), s.store, s, s, QuerierFakes.SCHEME,
                    QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
                QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
                QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
                for (int k = 0; k < 30; k++) {
                    String q = parserQuery(r, MORE_PARSERS);
                    long start = BASE + r.nextInt(300) * SEC;
                    QueryRequest request = r.nextBoolean()
                            ? new QueryRequest(TENANT, q, start, start, 0, 100, false, true, true)
                            : new QueryRequest(TENANT, q, start, start + r.nextInt(300) * SEC,
                                    (1 + r.nextInt(30)) * SEC, 100, false, false, true);
                    Throwable expectedError = catchThrowable(() -> reference.run(request));
                    if (expectedError != null) {
                        Throwable got = catchThrowable(() -> columnar.run(request));
                        assertThat(got).as(q).isNotNull().hasMessage(expectedError.getMessage());
                        errors++;
                        continue;
                    }
                    Object expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                    Object got = ((QueryOutcome.Metrics) columnar.run(request)).result();
                    assertThat(got).as("set %d: %s", set, q).isEqualTo(expected);
                    queries++;
                }
                onBytes += querier.metrics().columnarPipelineRowsOnBytes();
                answered += querier.metrics().columnarCountsAnswered();
            }
        }
        assertThat(queries).isGreaterThan(400);
        assertThat(errors).as("queries failing with a pipeline error").isPositive();
        assertThat(answered).as("parser aggregations answered from columns").isGreaterThan(150);
        assertThat(onBytes).as("rows whose parser and label filters ran on bytes").isGreaterThan(1000);
    }

    /**
     * A count grouped by a parsed label of many values holds a series per value and block until the blocks' sums are
     * merged (a server ran out of memory on {@code sum by (bytes, level)} over 3 M lines): past the query's sample
     * budget the count declines, and the entries read one at a time (a series per value) give the same answer within
     * that budget.
     */
    @Test
    void groupedByManyValues_overTheSampleBudget_declinesAndAnswersAsRowAtATime() throws Exception {
        Random r = new Random(7); // data the columns count (no shadowing metadata, no overlap)
        QuerierFakes.Storage s = data(r, Files.createDirectories(dir.resolve("unique-parts")),
                random -> "level=info id=" + Integer.toHexString(random.nextInt(300)) + " bytes=" + random.nextInt(9),
                1200, 40);
        String perRow = "sum by (id) (count_over_time({env=~\".+\"} | logfmt | id!=\"\" [2h]))";
        String few = "sum by (bytes) (count_over_time({env=~\".+\"} | logfmt | id!=\"\" [2h]))";
        QuerierConfig manySeries = new QuerierConfig(true, 8, 256L << 20, 128L << 20, 5000, 100_000,
                java.time.Duration.ofMinutes(1), 0);
        try (Querier querier = new Querier(manySeries, s.store, s, s, QuerierFakes.SCHEME,
                QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
            QueryRunner unbounded = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
            // enough for the entries' series and samples, not for a group per value and block
            QueryRunner bounded = new QueryRunner(querier, new Engine(true, true, 20_000), LogqlBloomQueries::extract);
            QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
            for (String q : List.of(perRow, few)) {
                QueryRequest request = new QueryRequest(TENANT, q, BASE + 4000 * SEC, BASE + 4000 * SEC, 0, 100, false,
                        true, false);
                Object expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                long declined = querier.metrics().columnarCountsDeclined();
                assertThat(((QueryOutcome.Metrics) unbounded.run(request)).result()).as(q).isEqualTo(expected);
                assertThat(querier.metrics().columnarCountsDeclined()).as("counted from columns: " + q)
                        .isEqualTo(declined);
                assertThat(((QueryOutcome.Metrics) bounded.run(request)).result()).as(q).isEqualTo(expected);
                assertThat(querier.metrics().columnarCountsDeclined() - declined).as("declined within the budget: " + q)
                        .isEqualTo(q.equals(perRow) ? 1 : 0);
            }
            assertThat(((MetricResult.Vector) ((QueryOutcome.Metrics) reference.run(new QueryRequest(TENANT, perRow,
                    BASE + 4000 * SEC, BASE + 4000 * SEC, 0, 100, false, true, false))).result()).samples())
                    .hasSizeGreaterThan(250);
        }
    }

    @Test
    void randomParserPipelines_largeTokenizedBlocks_onTokensEqualRowAtATime() throws Exception {
        Random r = new Random(20261125);
        long onTokens = 0;
        long jsonOnTokens = 0;
        int queries = 0;
        for (int set = 0; set < 10; set++) {
            Path partDir = Files.createDirectories(dir.resolve("token-parts-" + set));
            // large blocks of similar lines store their line column tokenized: logfmt then runs on its tokens
            QuerierFakes.Storage s = data(r, partDir, ColumnarCountPropertyTest::parserLine, 400, 10_000);
            // without a block cache every block is fetched for its query and read on tokens; with one, a cached
            // block is read on its kept decoded lines
            QuerierConfig config = set % 2 == 0 ? QuerierConfig.defaults()
                    : new QuerierConfig(true, 8, 0, 128L << 20, 5000, 500, java.time.Duration.ofMinutes(1), 0);
            try (Querier querier = new Querier(config, s.store, s, s, QuerierFakes.SCHEME,
                    QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
                QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
                QueryRunner reference = new QueryRunner(querier, Engine.rowAtATime(), LogqlBloomQueries::extract);
                for (int k = 0; k < 30; k++) {
                    String q = parserQuery(r, MORE_PARSERS);
                    long start = BASE + r.nextInt(300) * SEC;
                    QueryRequest request = r.nextBoolean()
                            ? new QueryRequest(TENANT, q, start, start, 0, 100, false, true, true)
                            : new QueryRequest(TENANT, q, start, start + r.nextInt(300) * SEC,
                                    (1 + r.nextInt(30)) * SEC, 100, false, false, true);
                    Throwable expectedError = catchThrowable(() -> reference.run(request));
                    if (expectedError != null) {
                        Throwable got = catchThrowable(() -> columnar.run(request));
                        assertThat(got).as(q).isNotNull().hasMessage(expectedError.getMessage());
                        continue;
                    }
                    Object expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                    long tokensBefore = querier.metrics().columnarPipelineRowsOnTokens();
                    Object got = ((QueryOutcome.Metrics) columnar.run(request)).result();
                    assertThat(got).as("set %d: %s", set, q).isEqualTo(expected);
                    if (q.contains("| json")) {
                        jsonOnTokens += querier.metrics().columnarPipelineRowsOnTokens() - tokensBefore;
                    }
                    queries++;
                }
                onTokens += querier.metrics().columnarPipelineRowsOnTokens();
            }
        }
        assertThat(queries).isGreaterThan(150);
        assertThat(onTokens).as("rows whose logfmt and label filters ran on a tokenized column").isGreaterThan(1000);
        // with json in the pipeline, the rows that open no JSON stay on the tokens (the others are rebuilt)
        assertThat(jsonOnTokens).as("rows of json pipelines answered on a tokenized column").isGreaterThan(100);
    }

    /** A line with a unique {@code ts=N} (N from the random's stream), a small counter and a size. */
    private static String numberLine(Random r) {
        return "ts=" + (1_000_000 + r.nextInt(4000)) + " level=" + LEVELS[r.nextInt(LEVELS.length)] + " took="
                + r.nextInt(30) + "ms bytes=" + r.nextInt(5000) + (r.nextInt(10) == 0 ? " id=007 x" : "");
    }

    private static String numberQuery(Random r) {
        String needle = "\"ts=" + (1_000_000 + r.nextInt(4000)) + " \"";
        String filters = switch (r.nextInt(8)) {
            case 0 -> "!= " + needle;
            case 1 -> "|= " + needle + " or \"took=" + r.nextInt(40) + "ms\"";
            case 2 -> "|= " + needle + " |= \"level=warn\"";
            case 3 -> "|= \"took=" + r.nextInt(40) + "ms bytes\"";
            case 4 -> "|= \"id=007 x\"";
            case 5 -> "|= " + needle + " != \"took=" + r.nextInt(40) + "ms\"";
            default -> "|= " + needle;
        };
        String selector = new String[] {"{env=\"prod\"}", "{app=~\".+\"}", "{app=\"api\"}"}[r.nextInt(3)];
        String inner = COUNT_OPS[r.nextInt(COUNT_OPS.length)] + "(" + selector + " " + filters + " ["
                + new String[] {"20s", "1m", "30m"}[r.nextInt(3)] + "])";
        return String.format(WRAPPERS[r.nextInt(WRAPPERS.length)], inner);
    }

    @Test
    void numberNeedles_tokenizedBlocks_equalRowAtATime_andLaterQueriesSkipBlocksByTheirNumbers() throws Exception {
        Random r = new Random(20261126);
        int queries = 0;
        long skippedFirst = 0;
        long skippedAgain = 0;
        for (int set = 0; set < 8; set++) {
            Path partDir = Files.createDirectories(dir.resolve("number-parts-" + set));
            QuerierFakes.Storage s = data(r, partDir, ColumnarCountPropertyTest::numberLine, 400, 40);
            // with a small block cache the query's blocks do not fit in it: the number filters then come from the
            // scan's scratch, with a big one from the sections the kept blocks hold; the reference has blooms off
            QuerierConfig config = set % 2 == 0 ? QuerierConfig.defaults()
                    : new QuerierConfig(true, 8, 100_000, 128L << 20, 5000, 500, java.time.Duration.ofMinutes(1), 0);
            QuerierConfig bloomsOff = new QuerierConfig(false, 8, 0, 0, 5000, 500, java.time.Duration.ofMinutes(1),
                    0);
            try (Querier querier = new Querier(config, s.store, s, s, QuerierFakes.SCHEME,
                    QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry());
                    Querier plain = new Querier(bloomsOff, s.store, s, s, QuerierFakes.SCHEME,
                            QuerierFakes.DECODER, s, Clock.systemUTC(), new PrometheusRegistry())) {
                QueryRunner columnar = new QueryRunner(querier, new Engine(), LogqlBloomQueries::extract);
                QueryRunner reference = new QueryRunner(plain, Engine.rowAtATime(), LogqlBloomQueries::extract);
                QueryRunner unfiltered = new QueryRunner(plain, new Engine(), LogqlBloomQueries::extract);
                for (int k = 0; k < 30; k++) {
                    String q = numberQuery(r);
                    long start = BASE + r.nextInt(3000) * SEC;
                    QueryRequest request = r.nextBoolean()
                            ? new QueryRequest(TENANT, q, start, start, 0, 100, false, true, true)
                            : new QueryRequest(TENANT, q, start - 600 * SEC, start, (1 + r.nextInt(60)) * SEC, 100,
                                    false, false, true);
                    Object expected = ((QueryOutcome.Metrics) reference.run(request)).result();
                    QueryOutcome.Metrics first = (QueryOutcome.Metrics) columnar.run(request);
                    QueryOutcome.Metrics again = (QueryOutcome.Metrics) columnar.run(request);
                    assertThat(first.result()).as("set %d: %s", set, q).isEqualTo(expected);
                    assertThat(again.result()).as("set %d again: %s", set, q).isEqualTo(expected);
                    assertThat(((QueryOutcome.Metrics) unfiltered.run(request)).result()).as("blooms off: %s", q)
                            .isEqualTo(expected);
                    skippedFirst += first.stats().chunksSkipped();
                    skippedAgain += again.stats().chunksSkipped();
                    queries++;
                }
            }
        }
        assertThat(queries).isEqualTo(240);
        assertThat(skippedAgain).as("blocks ruled out by their kept number filters").isGreaterThan(skippedFirst + 20);
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
            QueryRequest parsed = new QueryRequest(TENANT,
                    "sum(count_over_time({app=\"api\"} | logfmt | line_format \"{{.n}}\" [1h]))",
                    BASE + 600 * SEC, BASE + 600 * SEC, 0, 100, false, true, true);
            Throwable error = catchThrowable(() -> runner.run(parsed));
            assertThat(error).isInstanceOf(QuerierException.class).hasMessageContaining("budget");
            assertThat(((QuerierException) error).code()).isEqualTo(QuerierErrorCode.BAD_REQUEST);
            // counted from columns, the same query shape without line_format holds one sample per block, within budget
            QueryOutcome counted = runner.run(new QueryRequest(TENANT,
                    "sum(count_over_time({app=\"api\"} | logfmt | n >= 0 [1h]))",
                    BASE + 600 * SEC, BASE + 600 * SEC, 0, 100, false, true, true));
            assertThat(counted.toString()).contains("value=500.0");
        }
    }
}
