package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.logql.SampleExpr.*;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class LogQLParseTest {

    static List<String> resource(String name) throws IOException {
        try (InputStream in = LogQLParseTest.class.getResourceAsStream(name)) {
            List<String> out = new ArrayList<>();
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank() && !l.startsWith("#")) {
                    out.add(l);
                }
            }
            return out;
        }
    }

    /** Hand-written queries plus a generated cross product of pipelines and metric wrappers. */
    static Stream<String> validQueries() throws IOException {
        List<String> out = new ArrayList<>(resource("valid-queries.txt"));
        String[] pipelines = {"", " |= \"x\"", " != \"y\" |~ \"z+\"", " | json", " | logfmt | a=\"b\"",
            " | json | status >= 500", " | regexp \"(?P<a>\\\\d+)\"", " | pattern \"<a> <_>\" | a!=\"\"",
            " | line_format \"{{.a}}\" |= \"q\"", " | label_format b=a | drop c", " | keep a | decolorize",
            " | json | d > 1s or e <= 5KB"};
        for (String p : pipelines) {
            out.add("{job=\"gen\"}" + p);
            out.add("count_over_time({job=\"gen\"}" + p + " [1m])");
            out.add("sum by (a) (rate({job=\"gen\"}" + p + " [5m]))");
            out.add("bytes_over_time({job=\"gen\"}" + p + " [1h] offset 5m)");
            out.add("max_over_time({job=\"gen\"}" + p + " | unwrap v [1m]) by (a)");
            out.add("quantile_over_time(0.9, {job=\"gen\"}" + p + " | unwrap bytes(v) | __error__=\"\" [1m])");
            out.add("topk(2, absent_over_time({job=\"gen\"}" + p + " [30s]))");
            out.add("sum(bytes_rate({job=\"gen\"}" + p + " [5m])) / sum(rate({job=\"gen\"}" + p + " [5m]))");
        }
        for (VectorOp op : VectorOp.values()) {
            String param = op == VectorOp.TOPK || op == VectorOp.BOTTOMK ? "3, " : "";
            String inner = "rate({job=\"gen\"}[1m])";
            out.add(op.text() + "(" + param + inner + ")");
            if (op != VectorOp.SORT && op != VectorOp.SORT_DESC) {
                out.add(op.text() + " by (a, b) (" + param + inner + ")");
                out.add(op.text() + " without (a) (" + param + inner + ")");
            }
        }
        for (BinaryOp op : BinaryOp.values()) {
            String l = "sum(rate({job=\"a\"}[1m]))";
            String r = "sum(rate({job=\"b\"}[1m]))";
            out.add(l + " " + op.symbol() + " " + r);
            if (!op.setOp()) {
                out.add(l + " " + op.symbol() + " 2");
                out.add("2 " + op.symbol() + " " + l);
                out.add("1 " + op.symbol() + (op.comparison() ? " bool" : "") + " 2");
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("validQueries")
    void parse_valid_printsBackToEqualAst(String query) {
        Expr e = LogQL.parse(query);
        String printed = LogQL.format(e);
        assertThat(LogQL.parse(printed)).as(printed).isEqualTo(e);
        assertThat(LogQL.format(LogQL.parse(printed))).isEqualTo(printed);
    }

    @Test
    void tables_haveTheRequiredSize() throws IOException {
        assertThat(validQueries().count()).isGreaterThanOrEqualTo(300);
        assertThat(resource("invalid-queries.txt")).hasSizeGreaterThanOrEqualTo(100);
    }

    static Stream<Arguments> invalidQueries() throws IOException {
        return resource("invalid-queries.txt").stream().map(l -> {
            String[] f = l.split("\t", 3);
            String[] pos = f[0].split(":");
            return Arguments.of(f[1], Integer.parseInt(pos[0]), Integer.parseInt(pos[1]), f[2]);
        });
    }

    @ParameterizedTest
    @MethodSource("invalidQueries")
    void parse_invalid_failsAtPosition(String query, int line, int column, String message) {
        assertThatThrownBy(() -> LogQL.parse(query))
                .isInstanceOf(LogQLParseException.class)
                .hasMessageStartingWith(line == 0 ? "parse error : " : "parse error at line " + line + ", col " + column + ": ")
                .hasMessageContaining(message)
                .satisfies(t -> {
                    LogQLParseException p = (LogQLParseException) t;
                    assertThat(p.line()).isEqualTo(line);
                    assertThat(p.column()).isEqualTo(column);
                });
    }

    @Test
    void parse_multiline_reportsLine() {
        assertThatThrownBy(() -> LogQL.parse("sum(\n  rate({a=\"b\"}[5m]\n)"))
                .hasMessageStartingWith("parse error at line 3, col 2: syntax error: unexpected $end");
    }

    @Test
    void parse_mismatch_listsExpectedTokensLikeLoki() {
        assertThatThrownBy(() -> LogQL.parse("{app=\"foo\"} |= foo"))
                .hasMessage("parse error at line 1, col 16: syntax error: unexpected IDENTIFIER, expecting ip or STRING");
        assertThatThrownBy(() -> LogQL.parse("{app=\"foo\"} | label_format a"))
                .hasMessage("parse error at line 1, col 29: syntax error: unexpected $end, expecting =");
    }

    @Test
    void parse_empty_fails() {
        assertThatThrownBy(() -> LogQL.parse("  ")).hasMessageContaining("unexpected $end");
    }

    @Test
    void parse_buildsExpectedAst() {
        Expr e = LogQL.parse("sum by (host) (rate({app=\"a\", env=~\"p.*\"} |= \"err\" or \"fail\" | json | "
                + "status >= 500 and method=\"GET\" [5m] offset 1m))");
        LogExpr log = new LogExpr(List.of(new Matcher(MatchType.EQUAL, "app", "a"), new Matcher(MatchType.REGEX, "env", "p.*")),
                List.of(new Stage.LineFilter(Stage.LineFilterOp.CONTAINS,
                                List.of(new Stage.FilterTerm("err", false), new Stage.FilterTerm("fail", false))),
                        new Stage.Json(List.of()),
                        new Stage.LabelFilterStage(new LabelFilter.And(
                                new LabelFilter.NumberFilter("status", LabelFilter.CompareOp.GTE, 500),
                                new LabelFilter.StringFilter(new Matcher(MatchType.EQUAL, "method", "GET"))))));
        assertThat(e).isEqualTo(new VectorAggregation(VectorOp.SUM,
                new RangeAggregation(RangeOp.RATE, new LogRange(log, Duration.ofMinutes(5), Duration.ofMinutes(1), null), null, null),
                null, new Grouping(false, List.of("host"))));
    }

    @Test
    void parse_precedence_followsPromQL() {
        // Loki folds literal legs at parse time: 1 + 2 * (3 ^ (2 ^ 2)) = 163
        assertThat(LogQL.format(LogQL.parse("1 + 2 * 3 ^ 2 ^ 2"))).isEqualTo("163");
        assertThat(LogQL.format(LogQL.parse("1 > 1 < 1"))).isEqualTo("1");
        assertThat(LogQL.format(LogQL.parse("vector(1) + vector(2) * vector(3) ^ vector(2) ^ vector(2)")))
                .isEqualTo("vector(1) + vector(2) * vector(3) ^ vector(2) ^ vector(2)");
        Binary b = (Binary) LogQL.parse("vector(1) or vector(2) and vector(3)");
        assertThat(b.op()).isEqualTo(BinaryOp.OR);
        assertThat(((Binary) b.rhs()).op()).isEqualTo(BinaryOp.AND);
        Binary pow = (Binary) LogQL.parse("vector(2) ^ vector(3) ^ vector(2)");
        assertThat(pow.rhs()).isInstanceOf(Binary.class);
        assertThat(LogQL.parse("2 ^ 3 ^ 2")).isEqualTo(new Literal(512));
        // Loki: the sign is part of the literal
        assertThat(LogQL.parse("-2 ^ 2")).isEqualTo(new Literal(4));
    }

    @Test
    void parse_labelFilters_andOrEvaluateLeftToRight() {
        // Loki: "| duration >= 20ms or method="GET" and size <= 20KB" means ((d or m) and s)
        LogExpr e = (LogExpr) LogQL.parse("{a=\"b\"} | x=\"1\" or y=\"2\" z=\"3\"");
        LabelFilter f = ((Stage.LabelFilterStage) e.stages().get(0)).filter();
        assertThat(f).isInstanceOf(LabelFilter.And.class);
        assertThat(((LabelFilter.And) f).left()).isInstanceOf(LabelFilter.Or.class);
        assertThat(LogQL.parse("{a=\"b\"} | d >= 20ms or m=\"GET\" and s <= 20KB"))
                .isEqualTo(LogQL.parse("{a=\"b\"} | ((d >= 20ms or m=\"GET\") and s <= 20KB)"));
        assertThat(LogQL.format(LogQL.parse("{a=\"b\"} | d >= 20ms or (m=\"GET\" and s <= 20KB)")))
                .isEqualTo("{a=\"b\"} | d >= 20ms or (m=\"GET\" and s <= 20KB)");
    }

    @Test
    void parse_stringsAndDurations_decoded() {
        LogExpr e = (LogExpr) LogQL.parse("{a=\"tab\\t\\\"q\\\" \\u00e9\"} |= `raw\\n`");
        assertThat(e.selector().get(0).value()).isEqualTo("tab\t\"q\" \u00e9");
        assertThat(((Stage.LineFilter) e.stages().get(0)).terms().get(0).value()).isEqualTo("raw\\n");
        LogExpr d = (LogExpr) LogQL.parse("{a=\"b\"} | d > 1m30s | s < 2MiB");
        assertThat(((LabelFilter.DurationFilter) ((Stage.LabelFilterStage) d.stages().get(0)).filter()).nanos())
                .isEqualTo(90_000_000_000L);
        assertThat(((LabelFilter.BytesFilter) ((Stage.LabelFilterStage) d.stages().get(1)).filter()).bytes())
                .isEqualTo(2 * 1024 * 1024);
        RangeAggregation r = (RangeAggregation) LogQL.parse("rate({a=\"b\"}[1h30m] offset 2d)");
        assertThat(r.range().range()).isEqualTo(Duration.ofMinutes(90));
        assertThat(r.range().offset()).isEqualTo(Duration.ofDays(2));
        assertThat(LogQL.format(r)).isEqualTo("rate({a=\"b\"}[1h30m] offset 2d)");
    }

    @Test
    void selectorsAndLogExprs_listEveryReadSelector() {
        Expr e = LogQL.parse("sum(rate({a=\"1\"}[1m])) / on () sum(count_over_time({b=\"2\"} |= \"x\" [1m]))");
        assertThat(LogQL.selectors(e)).containsExactly(List.of(new Matcher(MatchType.EQUAL, "a", "1")),
                List.of(new Matcher(MatchType.EQUAL, "b", "2")));
        assertThat(LogQL.logExprs(e)).hasSize(2);
        assertThat(LogQL.selectors(LogQL.parse("vector(1)"))).isEmpty();
    }

    @Test
    void vectorMatching_parsed() {
        Binary b = (Binary) LogQL.parse("rate({a=\"1\"}[1m]) > bool ignoring (x, y) group_right (z) rate({a=\"2\"}[1m])");
        assertThat(b.modifiers()).isEqualTo(new BinaryModifiers(true,
                new VectorMatching(false, List.of("x", "y"), Cardinality.ONE_TO_MANY, List.of("z"))));
    }
}
