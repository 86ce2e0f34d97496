package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LogPipelineEvalTest {

    private static final long S = 1_000_000_000L;
    private final Engine engine = new Engine();

    private static List<String> lines(LogQueryResult r) {
        return r.streams().stream().flatMap(s -> s.entries().stream()).sorted(
                java.util.Comparator.comparingLong(ResultEntry::timestampNanos)).map(ResultEntry::line).toList();
    }

    private LogQueryResult run(MemorySource src, String q) throws IOException {
        return engine.evalLogs((LogExpr) LogQL.parse(q), src, 0, 1000 * S, 1000, Direction.FORWARD);
    }

    private static MemorySource source(String... lines) {
        MemorySource m = new MemorySource();
        for (int i = 0; i < lines.length; i++) {
            m.add(Map.of("app", "a"), (i + 1) * S, lines[i]);
        }
        return m;
    }

    @Test
    void lineFilters_containsRegexPatternIpAndOr() throws IOException {
        MemorySource src = source("GET /a 200", "POST /b 500", "GET /c 404 from 10.1.2.3", "debug x");
        assertThat(lines(run(src, "{app=\"a\"} |= \"GET\""))).containsExactly("GET /a 200", "GET /c 404 from 10.1.2.3");
        assertThat(lines(run(src, "{app=\"a\"} != \"GET\""))).containsExactly("POST /b 500", "debug x");
        assertThat(lines(run(src, "{app=\"a\"} |~ \"[45]0\\\\d\""))).containsExactly("POST /b 500", "GET /c 404 from 10.1.2.3");
        assertThat(lines(run(src, "{app=\"a\"} !~ \"^GET\""))).containsExactly("POST /b 500", "debug x");
        assertThat(lines(run(src, "{app=\"a\"} |= \"POST\" or \"debug\""))).containsExactly("POST /b 500", "debug x");
        assertThat(lines(run(src, "{app=\"a\"} != \"POST\" or \"debug\""))).containsExactly("GET /a 200", "GET /c 404 from 10.1.2.3");
        assertThat(lines(run(src, "{app=\"a\"} |> \"<_> /<_> 200\""))).containsExactly("GET /a 200");
        assertThat(lines(run(src, "{app=\"a\"} !> \"GET <_>\""))).containsExactly("POST /b 500", "debug x");
        assertThat(lines(run(src, "{app=\"a\"} |= ip(\"10.0.0.0/8\")"))).containsExactly("GET /c 404 from 10.1.2.3");
        assertThat(lines(run(src, "{app=\"a\"} != ip(\"10.1.2.3\")"))).hasSize(3);
        assertThat(lines(run(src, "{app=\"a\"} |= \"GET\" != \"404\""))).containsExactly("GET /a 200");
    }

    @Test
    void json_flattensNestedKeys_skipsArrays_setsErrorOnInvalid() throws IOException {
        MemorySource src = source("{\"level\":\"error\",\"req\":{\"method\":\"GET\",\"my-hdr\":1.5},\"list\":[1],\"ok\":true}",
                "not json");
        LogQueryResult r = run(src, "{app=\"a\"} | json");
        assertThat(r.streams()).hasSize(2);
        Map<String, String> first = r.streams().stream().filter(s -> !s.labels().containsKey("__error__"))
                .findFirst().orElseThrow().labels();
        assertThat(first).containsEntry("level", "error").containsEntry("req_method", "GET")
                .containsEntry("req_my_hdr", "1.5").containsEntry("ok", "true").doesNotContainKey("list");
        Map<String, String> bad = r.streams().stream().filter(s -> s.labels().containsKey("__error__"))
                .findFirst().orElseThrow().labels();
        assertThat(bad).containsEntry("__error__", "JSONParserErr").containsKey("__error_details__");
        assertThat(lines(run(src, "{app=\"a\"} | json | __error__=\"\""))).hasSize(1);
        assertThat(r.streams().get(0).entries().get(0).parsedLabels()).isNotEmpty();
    }

    @Test
    void json_withParameters_extractsPaths() throws IOException {
        MemorySource src = source("{\"servers\":[\"s1\",\"s2\"],\"headers\":{\"User-Agent\":\"curl\"},\"n\":{\"x\":1}}");
        LogQueryResult r = run(src, "{app=\"a\"} | json first=\"servers[0]\", ua=\"headers[\\\"User-Agent\\\"]\", obj=\"n\", missing=\"nope\"");
        assertThat(r.streams().get(0).labels()).containsEntry("first", "s1").containsEntry("ua", "curl")
                .containsEntry("obj", "{\"x\":1}").containsEntry("missing", "").doesNotContainKey("servers");
    }

    @Test
    void parsedLabel_collidingWithStreamLabel_getsExtractedSuffix() throws IOException {
        MemorySource src = source("app=other level=info");
        Map<String, String> labels = run(src, "{app=\"a\"} | logfmt").streams().get(0).labels();
        assertThat(labels).containsEntry("app", "a").containsEntry("app_extracted", "other").containsEntry("level", "info");
    }

    @Test
    void logfmt_strictAndKeepEmpty() throws IOException {
        MemorySource src = source("a=1 b=\"two words\" standalone c= d=\"esc\\\"q\"");
        Map<String, String> l = run(src, "{app=\"a\"} | logfmt").streams().get(0).labels();
        // Loki drops empty values (c=) and standalone keys unless --keep-empty
        assertThat(l).containsEntry("a", "1").containsEntry("b", "two words").doesNotContainKey("c")
                .containsEntry("d", "esc\"q").doesNotContainKey("standalone");
        assertThat(run(src, "{app=\"a\"} | logfmt --keep-empty").streams().get(0).labels()).containsEntry("standalone", "")
                .containsEntry("c", "");
        assertThat(run(src, "{app=\"a\"} | logfmt a, renamed=\"b\"").streams().get(0).labels())
                .containsEntry("a", "1").containsEntry("renamed", "two words").doesNotContainKey("c");
        MemorySource broken = source("a=1 =oops b=2");
        assertThat(run(broken, "{app=\"a\"} | logfmt").streams().get(0).labels()).containsEntry("a", "1")
                .containsEntry("b", "2").doesNotContainKey("__error__");
        assertThat(run(broken, "{app=\"a\"} | logfmt --strict").streams().get(0).labels())
                .containsEntry("__error__", "LogfmtParserErr");
    }

    @Test
    void regexpPatternUnpack_extract() throws IOException {
        MemorySource src = source("10.0.0.1 GET /index 200");
        assertThat(run(src, "{app=\"a\"} | regexp \"(?P<ip>\\\\S+) (?P<http_method>\\\\w+)\"").streams().get(0).labels())
                .containsEntry("ip", "10.0.0.1").containsEntry("http_method", "GET");
        assertThat(run(src, "{app=\"a\"} | pattern \"<ip> <method> <_> <status>\"").streams().get(0).labels())
                .containsEntry("ip", "10.0.0.1").containsEntry("method", "GET").containsEntry("status", "200");
        MemorySource packed = source("{\"_entry\":\"original line\",\"pod\":\"p1\",\"n\":5}");
        LogQueryResult r = run(packed, "{app=\"a\"} | unpack");
        assertThat(r.streams().get(0).labels()).containsEntry("pod", "p1").doesNotContainKey("n");
        assertThat(lines(r)).containsExactly("original line");
    }

    @Test
    void lineFormat_templatesAndFunctions() throws IOException {
        MemorySource src = source("level=warn msg=\"disk full\" n=3");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | line_format \"{{.level | ToUpper}}: {{.msg}} ({{.app}})\"")))
                .containsExactly("WARN: disk full (a)");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | line_format `{{ if eq .level \"warn\" }}W{{ else }}O{{ end }} {{ default \"-\" .none }} {{ printf \"%05.1f|%s\" .n .msg }}`")))
                .containsExactly("W - %!f(string=00003)|disk full"); // n is a string label: Go's bad verb, as Loki prints it
        assertThat(lines(run(src, "{app=\"a\"} | line_format \"{{ __line__ | len }} {{ __timestamp__ | unixEpoch }}\"")))
                .containsExactly("30 1");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | line_format \"{{ Replace .msg \\\" \\\" \\\"_\\\" -1 }}\" |= \"disk_full\"")))
                .containsExactly("disk_full");
    }

    @Test
    void labelFormat_renameAndTemplate() throws IOException {
        MemorySource src = source("level=warn code=7");
        Map<String, String> l = run(src, "{app=\"a\"} | logfmt | label_format severity=level, desc=\"{{.level}}-{{.code}}\"")
                .streams().get(0).labels();
        assertThat(l).containsEntry("severity", "warn").doesNotContainKey("level").containsEntry("desc", "warn-7");
    }

    @Test
    void dropKeepDecolorize() throws IOException {
        MemorySource src = source("a=1 b=2 c=3", "\u001b[31mred\u001b[0m text");
        assertThat(run(src, "{app=\"a\"} |= \"a=1\" | logfmt | drop b, c=\"9\"").streams().get(0).labels())
                .containsOnlyKeys("app", "a", "c");
        assertThat(run(src, "{app=\"a\"} |= \"a=1\" | logfmt | keep a, b=\"9\"").streams().get(0).labels())
                .containsOnlyKeys("a");
        assertThat(lines(run(src, "{app=\"a\"} |= \"red\" | decolorize"))).containsExactly("red text");
    }

    @Test
    void labelFilters_numericDurationBytesIpAndMissing() throws IOException {
        MemorySource src = source("s=200 d=150ms b=2KB ip=10.0.0.5", "s=500 d=2s b=5MB ip=192.168.1.1", "s=abc",
                "other=1");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | s >= 500 | __error__=\"\""))).containsExactly("s=500 d=2s b=5MB ip=192.168.1.1");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | d > 1s"))).containsExactly("s=500 d=2s b=5MB ip=192.168.1.1");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | b < 1MB"))).containsExactly("s=200 d=150ms b=2KB ip=10.0.0.5");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | ip = ip(\"10.0.0.0/24\")"))).containsExactly("s=200 d=150ms b=2KB ip=10.0.0.5");
        // unparsable numbers keep the line with a LabelFilterErr; missing labels fail numeric filters
        LogQueryResult r = run(src, "{app=\"a\"} | logfmt | s > 100");
        assertThat(lines(r)).containsExactly("s=200 d=150ms b=2KB ip=10.0.0.5", "s=500 d=2s b=5MB ip=192.168.1.1", "s=abc");
        assertThat(r.streams().stream().filter(s -> "LabelFilterErr".equals(s.labels().get("__error__")))).hasSize(1);
        // string filters treat a missing label as ""
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | s=\"\""))).containsExactly("other=1");
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | s=\"200\" or s=\"abc\""))).hasSize(2);
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | s=~\"[25]00\" and d=\"2s\""))).hasSize(1);
        assertThat(lines(run(src, "{app=\"a\"} | logfmt | (s=\"200\" or s=\"500\"), b > 3MB"))).hasSize(1);
    }

    @Test
    void structuredMetadata_visibleToLabelFilters_andReportedSeparately() throws IOException {
        MemorySource src = new MemorySource()
                .add(Map.of("app", "a"), 1 * S, "one", Map.of("trace_id", "t1"))
                .add(Map.of("app", "a"), 2 * S, "two", Map.of("trace_id", "t2"))
                .add(Map.of("app", "a"), 3 * S, "three");
        LogQueryResult r = run(src, "{app=\"a\"} | trace_id=\"t2\"");
        assertThat(lines(r)).containsExactly("two");
        ResultStream s = r.streams().get(0);
        assertThat(s.labels()).containsEntry("trace_id", "t2").containsEntry("app", "a");
        assertThat(s.streamLabels()).isEqualTo(Map.of("app", "a"));
        assertThat(s.entries().get(0).structuredMetadata()).isEqualTo(Map.of("trace_id", "t2"));
        assertThat(run(src, "{app=\"a\"}").streams()).hasSize(3);
        // a parsed label of the same name takes precedence over structured metadata
        MemorySource both = new MemorySource().add(Map.of("app", "a"), 1 * S, "trace_id=parsed", Map.of("trace_id", "meta"));
        LogQueryResult parsed = run(both, "{app=\"a\"} | logfmt");
        assertThat(parsed.streams().get(0).labels()).containsEntry("trace_id", "parsed");
        assertThat(parsed.streams().get(0).entries().get(0).parsedLabels()).containsEntry("trace_id", "parsed");
    }

    @Test
    void directionAndLimit_mergeStreamsByTime_andStopEarly() throws IOException {
        MemorySource src = new MemorySource();
        for (int i = 0; i < 50; i++) {
            src.add(Map.of("app", "a", "pod", "p" + (i % 2)), (i + 1) * S, "line " + i);
        }
        LogExpr q = (LogExpr) LogQL.parse("{app=\"a\"}");
        LogQueryResult fwd = engine.evalLogs(q, src, 0, 1000 * S, 5, Direction.FORWARD);
        assertThat(lines(fwd)).containsExactly("line 0", "line 1", "line 2", "line 3", "line 4");
        assertThat(fwd.streams()).hasSize(2);
        assertThat(src.entriesRead).isLessThanOrEqualTo(7);
        LogQueryResult bwd = engine.evalLogs(q, src, 0, 1000 * S, 3, Direction.BACKWARD);
        assertThat(bwd.streams().stream().flatMap(s -> s.entries().stream()).map(ResultEntry::line))
                .containsExactlyInAnyOrder("line 49", "line 48", "line 47");
        assertThat(bwd.streams().get(1).labels()).containsEntry("pod", "p1");
        assertThat(bwd.streams().get(1).entries()).extracting(ResultEntry::line).containsExactly("line 49", "line 47");
        LogQueryResult window = engine.evalLogs(q, src, 10 * S, 12 * S, 100, Direction.FORWARD);
        assertThat(lines(window)).containsExactly("line 9", "line 10");
    }

    @Test
    void documentedSemantics_firstExtractedWins_keepRetainsErrors_lineRegexDotMatchesNewline() throws IOException {
        MemorySource src = source("{\"level\":\"json\"} level=logfmt");
        // Loki's json scanner stops at the object's closing brace: the trailing text is no error
        assertThat(run(src, "{app=\"a\"} | logfmt | json").streams().get(0).labels())
                .containsEntry("level", "logfmt").doesNotContainKey("__error__");
        MemorySource notJson = source("level=logfmt");
        assertThat(run(notJson, "{app=\"a\"} | json | keep nothing").streams().get(0).labels())
                .containsOnly(Map.entry("__error__", "JSONParserErr"),
                        Map.entry("__error_details__", "Value looks like object, but can't find closing '}' symbol"));
        // numbers as Go's strconv.ParseFloat reads them: Java's "500d" is Loki's syntax error, "inf" is a number
        assertThat(run(source("status=500d"), "{app=\"a\"} | logfmt | status >= 500").streams().get(0).labels())
                .containsEntry("__error__", "LabelFilterErr")
                .containsEntry("__error_details__", "strconv.ParseFloat: parsing \"500d\": invalid syntax");
        assertThat(run(source("status=inf"), "{app=\"a\"} | logfmt | status >= 500").streams().get(0).labels())
                .doesNotContainKey("__error__");
        assertThat(run(source("status=1e400"), "{app=\"a\"} | logfmt | status >= 500").streams().get(0).labels())
                .containsEntry("__error_details__", "strconv.ParseFloat: parsing \"1e400\": value out of range");
        // durations and sizes as Go's time.ParseDuration and go-humanize's ParseBytes read them: no days in a
        // value (a query's literal may use them), no space before the value, commas among the digits
        assertThat(run(source("took=1d"), "{app=\"a\"} | logfmt | took > 1h").streams().get(0).labels())
                .containsEntry("__error__", "LabelFilterErr")
                .containsEntry("__error_details__", "time: unknown unit \"d\" in duration \"1d\"");
        assertThat(lines(run(source("took=25h", "took=23h"), "{app=\"a\"} | logfmt | took > 1d"))).containsExactly("took=25h");
        assertThat(run(source("{\"took\":\" 5s\"}"), "{app=\"a\"} | json | took > 1s").streams().get(0).labels())
                .containsEntry("__error_details__", "time: invalid duration \" 5s\"");
        assertThat(run(source("{\"n\":\" 5\"}"), "{app=\"a\"} | json | n > 1").streams().get(0).labels())
                .containsEntry("__error_details__", "strconv.ParseFloat: parsing \" 5\": invalid syntax");
        assertThat(lines(run(source("size=\"1,024 kB\"", "size=999kB"), "{app=\"a\"} | logfmt | size >= 1MB")))
                .containsExactly("size=\"1,024 kB\"");
        assertThat(run(source("size=5QB"), "{app=\"a\"} | logfmt | size >= 1MB").streams().get(0).labels())
                .containsEntry("__error_details__", "unhandled size name: qb");
        // a line that does not open an object skips the parser; one that opens after whitespace is still parsed
        assertThat(run(notJson, "{app=\"a\"} | json | __error__=\"JSONParserErr\"").streams()).hasSize(1);
        assertThat(run(source(" \t{\"level\":\"x\"}"), "{app=\"a\"} | json").streams().get(0).labels())
                .containsEntry("level", "x").doesNotContainKey("__error__");
        assertThat(run(notJson, "{app=\"a\"} | unpack | keep nothing").streams().get(0).labels())
                .containsOnly(Map.entry("__error__", "JSONParserErr"),
                        Map.entry("__error_details__", "Value looks like object, but can't find closing '}' symbol"));
        MemorySource multi = source("first\nsecond");
        assertThat(lines(run(multi, "{app=\"a\"} |~ \"first.second\""))).hasSize(1);
    }

    @Test
    void dropAndKeep_docExamples() throws IOException {
        MemorySource src = new MemorySource()
                .add(Map.of("job", "varlogs"), 1 * S, "{\"app\": \"some-api-service\", \"level\": \"info\", \"method\": \"GET\", \"path\": \"/\", \"host\": \"grafana.net\", \"status\": \"200\"}")
                .add(Map.of("job", "varlogs"), 2 * S, "{\"app\": \"other-service\", \"level\": \"info\", \"method\": \"POST\", \"path\": \"/\", \"host\": \"grafana.net\", \"status\": \"200\"}");
        LogQueryResult drop = engine.evalLogs((LogExpr) LogQL.parse("{job=\"varlogs\"}|json|drop level, path, app=~\"some-api.*\""),
                src, 0, 10 * S, 10, Direction.FORWARD);
        assertThat(drop.streams()).extracting(ResultStream::labels).containsExactly(
                Map.of("app", "other-service", "host", "grafana.net", "job", "varlogs", "method", "POST", "status", "200"),
                Map.of("host", "grafana.net", "job", "varlogs", "method", "GET", "status", "200"));
        LogQueryResult keep = engine.evalLogs((LogExpr) LogQL.parse("{job=\"varlogs\"}|json|keep level, method=\"GET\""),
                src, 0, 10 * S, 10, Direction.FORWARD);
        assertThat(keep.streams()).extracting(ResultStream::labels).containsExactly(
                Map.of("level", "info"), Map.of("level", "info", "method", "GET"));
    }

    @Test
    void parsers_docExamples() throws IOException {
        assertThat(run(source("{ \"a.b\": {\"c\": \"d\"}, \"e\": \"f\" }"), "{app=\"a\"} | json").streams().get(0).labels())
                .isEqualTo(Map.of("app", "a", "a_b_c", "d", "e", "f"));
        String doc = "{\"protocol\": \"HTTP/2.0\", \"servers\": [\"129.0.1.1\",\"10.2.1.3\"], \"request\": {\"time\": \"6.032\", "
                + "\"headers\": {\"Accept\": \"*/*\", \"User-Agent\": \"curl/7.68.0\"}}, \"response\": {\"status\": 401}}";
        assertThat(run(source(doc), "{app=\"a\"} | json").streams().get(0).labels()).isEqualTo(Map.of("app", "a",
                "protocol", "HTTP/2.0", "request_time", "6.032", "request_headers_Accept", "*/*",
                "request_headers_User_Agent", "curl/7.68.0", "response_status", "401"));
        assertThat(run(source(doc), "{app=\"a\"} | json first_server=\"servers[0]\", ua=\"request.headers[\\\"User-Agent\\\"]\", "
                + "server_list=\"servers\"").streams().get(0).labels()).isEqualTo(Map.of("app", "a", "first_server", "129.0.1.1",
                "ua", "curl/7.68.0", "server_list", "[\"129.0.1.1\",\"10.2.1.3\"]"));
        String logfmt = "at=info method=GET path=/ host=grafana.net fwd=\"124.133.124.161\" service=8ms status=200";
        assertThat(run(source(logfmt), "{app=\"a\"} | logfmt").streams().get(0).labels()).isEqualTo(Map.of("app", "a",
                "at", "info", "method", "GET", "path", "/", "host", "grafana.net", "fwd", "124.133.124.161", "service", "8ms",
                "status", "200"));
        assertThat(run(source(logfmt), "{app=\"a\"} | logfmt host, fwd_ip=\"fwd\"").streams().get(0).labels())
                .isEqualTo(Map.of("app", "a", "host", "grafana.net", "fwd_ip", "124.133.124.161"));
        String nginx = "0.191.12.2 - - [10/Jun/2021:09:14:29 +0000] \"GET /api/plugins/versioncheck HTTP/1.1\" 200 2 \"-\" "
                + "\"Go-http-client/2.0\" \"13.76.247.102, 34.120.177.193\" \"TLSv1.2\" \"US\" \"\"";
        assertThat(run(source(nginx), "{app=\"a\"} | pattern `<ip> - - <_> \"<method> <uri> <_>\" <status> <size> <_> \"<agent>\" <_>`")
                .streams().get(0).labels()).isEqualTo(Map.of("app", "a", "ip", "0.191.12.2", "method", "GET",
                "uri", "/api/plugins/versioncheck", "status", "200", "size", "2", "agent", "Go-http-client/2.0"));
        assertThat(run(source("POST /api/prom/api/v1/query_range (200) 1.5s"),
                "{app=\"a\"} | regexp \"(?P<method>\\\\w+) (?P<path>[\\\\w|/]+) \\\\((?P<status>\\\\d+?)\\\\) (?P<duration>.*)\"")
                .streams().get(0).labels()).isEqualTo(Map.of("app", "a", "method", "POST", "path", "/api/prom/api/v1/query_range",
                "status", "200", "duration", "1.5s"));
        LogQueryResult unpacked = run(source("{\"container\": \"myapp\", \"pod\": \"pod-3223f\", \"_entry\": \"original log message\"}"),
                "{app=\"a\"} | unpack");
        assertThat(unpacked.streams().get(0).labels()).isEqualTo(Map.of("app", "a", "container", "myapp", "pod", "pod-3223f"));
        assertThat(lines(unpacked)).containsExactly("original log message");
        assertThat(lines(run(source("ip=1.1.1.1 status=200 duration=3000"),
                "{app=\"a\"} | logfmt | line_format \"{{.ip}} {{.status}} {{div .duration 1000}}\""))).containsExactly("1.1.1.1 200 3");
    }
}
