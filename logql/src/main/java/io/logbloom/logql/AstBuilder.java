package io.logbloom.logql;

import io.logbloom.logql.LogQLParser.*;
import io.logbloom.logql.SampleExpr.*;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Converts the ANTLR parse tree into our immutable AST and applies Loki's semantic validation
 * (selector must have a non-empty-compatible matcher, unwrap only where allowed, parameters of topk and
 * quantile_over_time, BOOL between scalars...). Errors carry the position of the offending node.
 * Not thread-safe; one instance per parse.
 */
final class AstBuilder {

    Expr root(RootContext ctx) {
        ExprContext e = ctx.expr();
        if (e.logExpr() != null) {
            return logExpr(e.logExpr());
        }
        return sample(e.sampleExpr());
    }

    // ---- log queries ----

    LogExpr logExpr(LogExprContext ctx) {
        if (ctx.logExpr() != null) {
            return logExpr(ctx.logExpr());
        }
        if (ctx.unwrap() != null) {
            throw error(ctx.unwrap(), "invalid log query: unwrap is only allowed inside a range aggregation such as "
                    + "sum_over_time(... | unwrap x [5m])");
        }
        if (ctx.range() != null) {
            throw error(ctx.range(), "invalid log query: a range was given without a range aggregation such as "
                    + "count_over_time(...)");
        }
        return log(ctx.selector(), ctx.pipelineStage());
    }

    private LogExpr log(SelectorContext sel, List<PipelineStageContext> stages) {
        List<Matcher> matchers = selector(sel);
        List<Stage> out = new ArrayList<>();
        for (PipelineStageContext st : stages) {
            out.add(stage(st));
        }
        return new LogExpr(matchers, out);
    }

    private List<Matcher> selector(SelectorContext ctx) {
        List<Matcher> out = new ArrayList<>();
        for (MatcherContext m : ctx.matcher()) {
            out.add(matcher(m, m.identifier(), m.op, m.string()));
        }
        boolean ok = out.stream().anyMatch(m -> (m.type() == MatchType.EQUAL || m.type() == MatchType.REGEX)
                && !m.matchesEmpty());
        if (!ok) {
            throw error(ctx, "queries require at least one regexp or equality matcher that does not have an "
                    + "empty-compatible value. For instance, app=~\".*\" does not meet this requirement, but "
                    + "app=~\".+\" will");
        }
        return out;
    }

    private Matcher matcher(ParserRuleContext at, IdentifierContext name, Token op, StringContext value) {
        try {
            return new Matcher(MatchType.ofSymbol(op.getText()), name.getText(), string(value));
        } catch (IllegalArgumentException e) {
            throw error(at, e.getMessage(), e);
        }
    }

    private Stage stage(PipelineStageContext ctx) {
        if (ctx instanceof LineFilterStageContext lf) {
            return lineFilter(lf.lineFilter());
        }
        if (ctx instanceof LabelFilterStageContext lf) {
            return new Stage.LabelFilterStage(labelFilter(lf.labelFilter()));
        }
        return parserStage(((ParserPipelineStageContext) ctx).parserStage());
    }

    private Stage.LineFilter lineFilter(LineFilterContext ctx) {
        Stage.LineFilterOp op = switch (ctx.op.getText()) {
            case "|=" -> Stage.LineFilterOp.CONTAINS;
            case "!=" -> Stage.LineFilterOp.NOT_CONTAINS;
            case "|~" -> Stage.LineFilterOp.MATCHES;
            case "!~" -> Stage.LineFilterOp.NOT_MATCHES;
            case "|>" -> Stage.LineFilterOp.PATTERN;
            default -> Stage.LineFilterOp.NOT_PATTERN;
        };
        List<Stage.FilterTerm> terms = new ArrayList<>();
        for (FilterTermContext t : ctx.filterTerm()) {
            String v = string(t.string());
            boolean ip = t.IP() != null;
            try {
                if (ip) {
                    if (op != Stage.LineFilterOp.CONTAINS && op != Stage.LineFilterOp.NOT_CONTAINS) {
                        throw new IllegalArgumentException("ip() line filter only supports |= and !=");
                    }
                    IpMatcher.parse(v);
                }
                // as Loki, regex and pattern line filters are checked when the pipeline is built, not here
            } catch (IllegalArgumentException e) {
                throw error(t, e.getMessage(), e);
            }
            terms.add(new Stage.FilterTerm(v, ip));
        }
        return new Stage.LineFilter(op, terms);
    }

    private Stage parserStage(ParserStageContext ctx) {
        try {
            if (ctx instanceof JsonStageContext j) {
                return new Stage.Json(extractions(j.labelExtraction(), true));
            }
            if (ctx instanceof LogfmtStageContext l) {
                boolean strict = false;
                boolean keepEmpty = false;
                for (TerminalNode f : l.FLAG()) {
                    switch (f.getText()) {
                        case "--strict" -> strict = true;
                        case "--keep-empty" -> keepEmpty = true;
                        default -> throw error(l, "invalid logfmt flag " + f.getText()
                                + " (supported: --strict, --keep-empty)");
                    }
                }
                return new Stage.Logfmt(strict, keepEmpty, extractions(l.labelExtraction(), false));
            }
            if (ctx instanceof RegexpStageContext r) {
                String re = string(r.string());
                RegexpParser.compile(re);
                return new Stage.Regexp(re);
            }
            if (ctx instanceof PatternStageContext p) {
                String pat = string(p.string());
                try {
                    LinePattern.parse(pat, true);
                } catch (IllegalArgumentException e) {
                    throw error(p, "invalid pattern parser: " + e.getMessage(), e);
                }
                return new Stage.PatternParser(pat);
            }
            if (ctx instanceof UnpackStageContext) {
                return new Stage.Unpack();
            }
            if (ctx instanceof LineFormatStageContext lf) {
                // as Loki, the template is checked when the pipeline is built, not here
                return new Stage.LineFormat(string(lf.string()));
            }
            if (ctx instanceof LabelFormatStageContext lf) {
                List<Stage.LabelFormatOp> ops = new ArrayList<>();
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (LabelFormatContext f : lf.labelFormat()) {
                    String dst = f.identifier(0).getText();
                    if (!seen.add(dst)) {
                        throw error(f, "multiple label name '" + dst + "' in label_format");
                    }
                    if (f.string() != null) {
                        String t = string(f.string());
                        Template.parse(t);
                        ops.add(new Stage.LabelFormatOp(dst, t, true));
                    } else {
                        ops.add(new Stage.LabelFormatOp(dst, f.identifier(1).getText(), false));
                    }
                }
                return new Stage.LabelFormat(ops);
            }
            if (ctx instanceof DropStageContext d) {
                return new Stage.Drop(selects(d.labelSelect()));
            }
            if (ctx instanceof KeepStageContext k) {
                return new Stage.Keep(selects(k.labelSelect()));
            }
            return new Stage.Decolorize();
        } catch (IllegalArgumentException e) {
            throw error(ctx, e.getMessage(), e);
        }
    }

    private List<Stage.LabelExtraction> extractions(List<LabelExtractionContext> list, boolean json) {
        List<Stage.LabelExtraction> out = new ArrayList<>();
        for (LabelExtractionContext c : list) {
            String label = c.identifier().getText();
            String expr = c.string() == null ? label : string(c.string());
            if (json) {
                JsonPath.parse(expr);
            }
            out.add(new Stage.LabelExtraction(label, expr));
        }
        return out;
    }

    private List<Stage.LabelSelect> selects(List<LabelSelectContext> list) {
        List<Stage.LabelSelect> out = new ArrayList<>();
        for (LabelSelectContext c : list) {
            String name = c.identifier().getText();
            Matcher m = c.op == null ? null : matcher(c, c.identifier(), c.op, c.string());
            out.add(new Stage.LabelSelect(name, m));
        }
        return out;
    }

    LabelFilter labelFilter(LabelFilterContext ctx) {
        try {
            if (ctx instanceof ParenFilterContext p) {
                return labelFilter(p.labelFilter());
            }
            if (ctx instanceof BinaryFilterContext b) {
                // Loki evaluates and/or strictly left to right (no precedence between them)
                LabelFilter l = labelFilter(b.labelFilter(0));
                LabelFilter r = labelFilter(b.labelFilter(1));
                return b.op != null && b.op.getType() == LogQLLexer.OR ? new LabelFilter.Or(l, r) : new LabelFilter.And(l, r);
            }
            if (ctx instanceof IpFilterContext ip) {
                return new LabelFilter.IpFilter(ip.identifier().getText(), ip.op.getText().equals("!="),
                        string(ip.string()));
            }
            if (ctx instanceof StringFilterContext s) {
                return new LabelFilter.StringFilter(matcher(s, s.identifier(), s.op, s.string()));
            }
            if (ctx instanceof NumberFilterContext n) {
                return new LabelFilter.NumberFilter(n.identifier().getText(), LabelFilter.CompareOp.ofSymbol(n.op.getText()),
                        number(n.signedNumber()));
            }
            if (ctx instanceof DurationFilterContext d) {
                String lit = (d.neg == null ? "" : "-") + d.DURATION().getText();
                return new LabelFilter.DurationFilter(d.identifier().getText(),
                        LabelFilter.CompareOp.ofSymbol(d.op.getText()), lit, Units.parseDurationNanos(lit));
            }
            BytesFilterContext b = (BytesFilterContext) ctx;
            String lit = b.BYTES().getText();
            return new LabelFilter.BytesFilter(b.identifier().getText(), LabelFilter.CompareOp.ofSymbol(b.op.getText()),
                    lit, (long) GoUnits.parseBytes(lit));
        } catch (IllegalArgumentException e) {
            throw error(ctx, e.getMessage(), e);
        }
    }

    // ---- metric queries ----

    SampleExpr sample(SampleExprContext ctx) {
        if (ctx instanceof ParenSampleContext p) {
            return sample(p.sampleExpr());
        }
        if (ctx instanceof NumberLiteralContext n) {
            // as Loki, a sign belongs to the number literal only: -2 ^ 2 is 4, and -vector(1) is a syntax error
            double v = parseNumber(n, n.NUMBER().getText());
            return new Literal(n.sign != null && n.sign.getType() == LogQLLexer.MINUS ? -v : v);
        }
        if (ctx instanceof VectorLiteralContext v) {
            return new VectorLiteral(number(v.signedNumber()));
        }
        if (ctx instanceof LabelReplaceContext lr) {
            try {
                return new LabelReplace(sample(lr.sampleExpr()), string(lr.string(0)), string(lr.string(1)),
                        string(lr.string(2)), string(lr.string(3)));
            } catch (IllegalArgumentException e) {
                throw error(lr, e.getMessage(), e);
            }
        }
        if (ctx instanceof RangeAggregationContext r) {
            return rangeAggregation(r);
        }
        if (ctx instanceof VectorAggregationContext v) {
            return vectorAggregation(v);
        }
        return binary(ctx);
    }

    private SampleExpr binary(SampleExprContext ctx) {
        SampleExprContext l;
        SampleExprContext r;
        Token op;
        BinModifiersContext mods;
        if (ctx instanceof PowExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else if (ctx instanceof MulExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else if (ctx instanceof AddExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else if (ctx instanceof CompareExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else if (ctx instanceof AndUnlessExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else if (ctx instanceof OrExprContext p) {
            l = p.sampleExpr(0); r = p.sampleExpr(1); op = p.op; mods = p.binModifiers();
        } else {
            throw new IllegalStateException("BUG: unhandled sample expression " + ctx.getClass().getSimpleName());
        }
        BinaryOp bop = BinaryOp.ofSymbol(op.getText());
        SampleExpr lhs = sample(l);
        SampleExpr rhs = sample(r);
        BinaryModifiers m = modifiers(mods);
        boolean lScalar = isScalar(lhs);
        boolean rScalar = isScalar(rhs);
        if (m.returnBool() && !bop.comparison()) {
            throw error(ctx, "bool modifier can only be used on comparison operators");
        }
        if (bop.setOp() && (lScalar || rScalar)) {
            throw error(ctx, String.format(java.util.Locale.ROOT,
                    "unexpected literal for %s leg of logical/set binary operation (%s): %f", lScalar ? "left" : "right",
                    bop.symbol(), ((Literal) (lScalar ? lhs : rhs)).value()));
        }
        if (lhs instanceof Literal a && rhs instanceof Literal b) {
            // Loki folds two literal legs at parse time; a comparison then yields 1 or 0 with or without bool
            return new Literal(Engine.scalarBinary(bop, a.value(), b.value()));
        }
        if (m.matching() != null && (lScalar || rScalar)) {
            throw error(ctx, "vector matching only allowed between vectors");
        }
        if (bop.setOp() && m.matching() != null && m.matching().cardinality() != Cardinality.ONE_TO_ONE) {
            throw error(ctx, "no grouping allowed for \"" + bop.symbol() + "\" operation");
        }
        return new Binary(bop, lhs, rhs, m);
    }

    static boolean isScalar(SampleExpr e) {
        if (e instanceof Literal) {
            return true;
        }
        if (e instanceof Binary b) {
            return isScalar(b.lhs()) && isScalar(b.rhs());
        }
        return false;
    }

    private BinaryModifiers modifiers(BinModifiersContext ctx) {
        boolean bool = ctx.BOOL() != null;
        if (ctx.matchKind == null) {
            return new BinaryModifiers(bool, null);
        }
        boolean on = ctx.matchKind.getType() == LogQLLexer.ON;
        List<String> labels = labelList(ctx.matchLabels);
        Cardinality card = Cardinality.ONE_TO_ONE;
        List<String> include = List.of();
        if (ctx.card != null) {
            card = ctx.card.getType() == LogQLLexer.GROUP_LEFT ? Cardinality.MANY_TO_ONE : Cardinality.ONE_TO_MANY;
            include = labelList(ctx.includeLabels);
        }
        return new BinaryModifiers(bool, new VectorMatching(on, labels, card, include));
    }

    private static List<String> labelList(LabelListContext ctx) {
        List<String> out = new ArrayList<>();
        if (ctx != null) {
            for (IdentifierContext id : ctx.identifier()) {
                out.add(id.getText());
            }
        }
        return out;
    }

    private Grouping grouping(GroupingContext ctx) {
        if (ctx == null) {
            return null;
        }
        return new Grouping(ctx.kind.getType() == LogQLLexer.WITHOUT, labelList(ctx.labelList()));
    }

    private SampleExpr rangeAggregation(RangeAggregationContext ctx) {
        RangeOp op = RangeOp.valueOf(ctx.rangeOp().getText().toUpperCase(java.util.Locale.ROOT));
        LogRange range = logRange(ctx.logRange());
        Double param = ctx.signedNumber() == null ? null : number(ctx.signedNumber());
        Grouping grouping = grouping(ctx.grouping());
        if (op == RangeOp.QUANTILE_OVER_TIME && param == null) {
            throw error(ctx, "parameter required for operation " + op.text());
        }
        if (op != RangeOp.QUANTILE_OVER_TIME && param != null) {
            throw error(ctx, "invalid aggregation " + op.text() + ", unsupported parameter");
        }
        if (op.needsUnwrap() && range.unwrap() == null) {
            throw error(ctx, "invalid aggregation " + op.text() + " without unwrap");
        }
        if (!op.allowsUnwrap() && range.unwrap() != null) {
            throw error(ctx, "invalid aggregation " + op.text() + " with unwrap");
        }
        if (grouping != null && !op.allowsGrouping()) {
            throw error(ctx, "grouping not allowed for " + op.text() + " aggregation");
        }
        return new RangeAggregation(op, range, param, grouping);
    }

    private LogRange logRange(LogRangeContext ctx) {
        if (ctx.logRange() != null) {
            return logRange(ctx.logRange());
        }
        LogExpr log = log(ctx.selector(), ctx.pipelineStage());
        Duration range = duration(ctx.range().DURATION());
        Duration offset = ctx.offset() == null ? Duration.ZERO : duration(ctx.offset().DURATION());
        if (ctx.offset() != null && ctx.offset().neg != null) {
            offset = offset.negated();
        }
        Unwrap unwrap = null;
        if (ctx.unwrap() != null) {
            UnwrapContext u = ctx.unwrap();
            UnwrapConversion conv = UnwrapConversion.NONE;
            if (u.conv != null) {
                conv = switch (u.conv.getType()) {
                    case LogQLLexer.DURATION_CONV -> UnwrapConversion.DURATION;
                    case LogQLLexer.DURATION_SECONDS_CONV -> UnwrapConversion.DURATION_SECONDS;
                    default -> UnwrapConversion.BYTES;
                };
            }
            List<LabelFilter> post = new ArrayList<>();
            for (LabelFilterContext f : u.labelFilter()) {
                post.add(labelFilter(f));
            }
            unwrap = new Unwrap(u.identifier().getText(), conv, post);
        }
        return new LogRange(log, range, offset, unwrap);
    }

    private SampleExpr vectorAggregation(VectorAggregationContext ctx) {
        VectorOp op = VectorOp.valueOf(ctx.vectorOp().getText().toUpperCase(java.util.Locale.ROOT));
        if (ctx.grouping().size() > 1) {
            throw error(ctx.grouping(1), "grouping given twice for " + op.text());
        }
        Grouping grouping = ctx.grouping().isEmpty() ? null : grouping(ctx.grouping(0));
        SampleExpr inner = sample(ctx.sampleExpr());
        Integer param = null;
        if (op == VectorOp.TOPK || op == VectorOp.BOTTOMK) {
            if (ctx.signedNumber() == null) {
                throw error(ctx, "parameter required for operation " + op.text());
            }
            String text = ctx.signedNumber().getText();
            double v = number(ctx.signedNumber());
            if (v != Math.rint(v) || Double.isInfinite(v)) {
                throw error(ctx.signedNumber(), "invalid parameter " + op.text() + "(" + text + ",");
            }
            if (v <= 0) {
                throw error(ctx.signedNumber(), "invalid parameter (must be greater than 0) " + op.text() + "(" + text);
            }
            param = (int) v;
        } else if (ctx.signedNumber() != null) {
            throw error(ctx.signedNumber(), "unsupported parameter for operation " + op.text() + "("
                    + ctx.signedNumber().getText() + ",");
        }
        if ((op == VectorOp.SORT || op == VectorOp.SORT_DESC) && grouping != null) {
            throw error(ctx, "grouping not allowed for " + op.text() + " aggregation");
        }
        if (isScalar(inner)) {
            throw error(ctx, "expected type vector in aggregation expression, got scalar");
        }
        return new VectorAggregation(op, inner, param, grouping);
    }

    // ---- terminals ----

    private String string(StringContext ctx) {
        try {
            return GoStrings.unquote(ctx.getText());
        } catch (IllegalArgumentException e) {
            // a lexer error in Loki: positioned
            Token t = ctx.getStart();
            throw new LogQLParseException(t.getLine(), t.getCharPositionInLine() + 1, e.getMessage(), e);
        }
    }

    private double number(SignedNumberContext ctx) {
        double v = parseNumber(ctx, ctx.NUMBER().getText());
        return ctx.getStart().getType() == LogQLLexer.MINUS ? -v : v;
    }

    private double parseNumber(ParserRuleContext at, String text) {
        try {
            if (text.equals("NaN")) {
                return Double.NaN;
            }
            if (text.equals("Inf")) {
                return Double.POSITIVE_INFINITY;
            }
            if (text.startsWith("0x") || text.startsWith("0X")) {
                return Long.parseLong(text.substring(2), 16);
            }
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw error(at, "invalid number " + text, e);
        }
    }

    private Duration duration(TerminalNode node) {
        try {
            return Units.parseDuration(node.getText());
        } catch (IllegalArgumentException e) {
            Token t = node.getSymbol();
            throw new LogQLParseException(t.getLine(), t.getCharPositionInLine() + 1, e.getMessage(), e);
        }
    }

    /** A semantic error: as Loki's, it carries no position ({@code at} only documents where it was found). */
    private static LogQLParseException error(ParserRuleContext at, String message) {
        return new LogQLParseException(0, 0, message);
    }

    private static LogQLParseException error(ParserRuleContext at, String message, Throwable cause) {
        if (cause instanceof LogQLParseException p) {
            return p;
        }
        return new LogQLParseException(0, 0, message, cause);
    }
}
