package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each pipeline stage against a brute-force reference over generated lines: the reference computes, for every
 * generated record, the line and label set the stage must produce (or null when it must drop the line) directly
 * from the record's fields, without going through any of the engine's code.
 */
final class PipelineReferenceTest {

    private record Rec(long ts, String level, String method, int status, int ms, String user, String traceId) {
        String logfmt() {
            return "level=" + level + " method=" + method + " status=" + status + " took=" + ms + "ms user=\"" + user + "\"";
        }

        String json() {
            return "{\"level\":\"" + level + "\",\"req\":{\"method\":\"" + method + "\",\"status\":" + status + "},\"took\":\""
                    + ms + "ms\",\"user\":\"" + user + "\"}";
        }

        Map<String, String> logfmtLabels() {
            return new TreeMap<>(Map.of("app", "gen", "level", level, "method", method, "status", "" + status,
                    "took", ms + "ms", "user", user));
        }
    }

    private static final List<Rec> RECS = new ArrayList<>();

    static {
        Random r = new Random(3);
        String[] levels = {"info", "warn", "error"};
        String[] methods = {"GET", "POST", "DELETE"};
        String[] users = {"ann", "bob smith", "cy"};
        for (int i = 0; i < 300; i++) {
            RECS.add(new Rec(1000L + i, levels[r.nextInt(3)], methods[r.nextInt(3)], 200 + 100 * r.nextInt(4), r.nextInt(2000),
                    users[r.nextInt(3)], r.nextInt(4) == 0 ? "t" + r.nextInt(3) : null));
        }
    }

    private record Expected(String line, Map<String, String> labels) {
    }

    private static Map<String, String> base(Rec x) {
        Map<String, String> m = new TreeMap<>(Map.of("app", "gen"));
        if (x.traceId() != null) {
            m.put("trace_id", x.traceId());
        }
        return m;
    }

    private static Map<String, String> withMeta(Rec x, Map<String, String> labels) {
        if (x.traceId() != null) {
            labels.put("trace_id", x.traceId());
        }
        return labels;
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("{app=\"gen\"} |= \"GET\"", (Function<Rec, Expected>) x ->
                x.logfmt().contains("GET") ? new Expected(x.logfmt(), base(x)) : null, false));
        out.add(Arguments.of("{app=\"gen\"} != \"bob\"", (Function<Rec, Expected>) x ->
                !x.logfmt().contains("bob") ? new Expected(x.logfmt(), base(x)) : null, false));
        out.add(Arguments.of("{app=\"gen\"} |~ \"status=[45]00\"", (Function<Rec, Expected>) x ->
                x.status() == 400 || x.status() == 500 ? new Expected(x.logfmt(), base(x)) : null, false));
        out.add(Arguments.of("{app=\"gen\"} | trace_id=\"t1\"", (Function<Rec, Expected>) x ->
                "t1".equals(x.traceId()) ? new Expected(x.logfmt(), base(x)) : null, false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt", (Function<Rec, Expected>) x ->
                new Expected(x.logfmt(), withMeta(x, x.logfmtLabels())), false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | status >= 400 and level!=\"info\"", (Function<Rec, Expected>) x ->
                x.status() >= 400 && !x.level().equals("info") ? new Expected(x.logfmt(), withMeta(x, x.logfmtLabels())) : null, false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | took > 1s", (Function<Rec, Expected>) x ->
                x.ms() > 1000 ? new Expected(x.logfmt(), withMeta(x, x.logfmtLabels())) : null, false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | drop took, user", (Function<Rec, Expected>) x -> {
            Map<String, String> l = withMeta(x, x.logfmtLabels());
            l.remove("took");
            l.remove("user");
            return new Expected(x.logfmt(), l);
        }, false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | keep level, method=\"GET\"", (Function<Rec, Expected>) x -> {
            Map<String, String> l = new TreeMap<>(Map.of("level", x.level()));
            if (x.method().equals("GET")) {
                l.put("method", "GET");
            }
            return new Expected(x.logfmt(), l);
        }, false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | line_format \"{{.method}} {{.status}} {{ .user | ToUpper }}\"",
                (Function<Rec, Expected>) x -> new Expected(x.method() + " " + x.status() + " " + x.user().toUpperCase(),
                        withMeta(x, x.logfmtLabels())), false));
        out.add(Arguments.of("{app=\"gen\"} | logfmt | label_format who=user, code=\"{{.status}}!\"", (Function<Rec, Expected>) x -> {
            Map<String, String> l = withMeta(x, x.logfmtLabels());
            l.put("who", l.remove("user"));
            l.put("code", x.status() + "!");
            return new Expected(x.logfmt(), l);
        }, false));
        out.add(Arguments.of("{app=\"gen\"} | pattern \"level=<lvl> method=<m> <_>\"", (Function<Rec, Expected>) x -> {
            Map<String, String> l = base(x);
            l.put("lvl", x.level());
            l.put("m", x.method());
            return new Expected(x.logfmt(), l);
        }, false));
        out.add(Arguments.of("{app=\"gen\"} | regexp \"status=(?P<code>\\\\d+) took=(?P<took_ms>\\\\d+)ms\"", (Function<Rec, Expected>) x -> {
            Map<String, String> l = base(x);
            l.put("code", "" + x.status());
            l.put("took_ms", "" + x.ms());
            return new Expected(x.logfmt(), l);
        }, false));
        out.add(Arguments.of("{app=\"gen\"} | json | req_status > 300 | line_format \"{{.req_method}}\"", (Function<Rec, Expected>) x -> {
            if (x.status() <= 300) {
                return null;
            }
            Map<String, String> l = base(x);
            l.putAll(Map.of("level", x.level(), "req_method", x.method(), "req_status", "" + x.status(), "took", x.ms() + "ms",
                    "user", x.user()));
            return new Expected(x.method(), l);
        }, true));
        out.add(Arguments.of("{app=\"gen\"} | json who=\"user\", m=\"req.method\" | m=\"POST\"", (Function<Rec, Expected>) x -> {
            if (!x.method().equals("POST")) {
                return null;
            }
            Map<String, String> l = base(x);
            l.put("who", x.user());
            l.put("m", "POST");
            return new Expected(x.json(), l);
        }, true));
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void stage_matchesReference(String query, Function<Rec, Expected> reference, boolean json) throws IOException {
        MemorySource src = new MemorySource();
        List<Expected> expected = new ArrayList<>();
        for (Rec x : RECS) {
            Map<String, String> md = x.traceId() == null ? Map.of() : Map.of("trace_id", x.traceId());
            src.add(Map.of("app", "gen"), x.ts(), json ? x.json() : x.logfmt(), md);
            Expected e = reference.apply(x);
            if (e != null) {
                expected.add(e);
            }
        }
        LogQueryResult res = new Engine().evalLogs((LogExpr) LogQL.parse(query), src, 0, 10_000, 1000, Direction.FORWARD);
        List<Expected> actual = new ArrayList<>();
        res.streams().forEach(s -> s.entries().forEach(e -> actual.add(new Expected(e.line(), s.labels()))));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
    }
}
