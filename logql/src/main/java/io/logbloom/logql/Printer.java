package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.*;
import java.util.List;

/**
 * Canonical printer: AST → LogQL text that parses back to an equal AST. Parentheses are added only where
 * precedence or associativity requires them. Stateless and thread-safe.
 */
final class Printer {

    private Printer() {
    }

    static String print(Expr e) {
        StringBuilder sb = new StringBuilder();
        if (e instanceof LogExpr l) {
            log(l, sb);
        } else {
            sample((SampleExpr) e, sb);
        }
        return sb.toString();
    }

    static void log(LogExpr l, StringBuilder sb) {
        sb.append('{');
        for (int i = 0; i < l.selector().size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(l.selector().get(i));
        }
        sb.append('}');
        for (Stage s : l.stages()) {
            sb.append(' ');
            stage(s, sb);
        }
    }

    static void stage(Stage s, StringBuilder sb) {
        if (s instanceof Stage.LineFilter f) {
            sb.append(f.op().symbol()).append(' ');
            for (int i = 0; i < f.terms().size(); i++) {
                if (i > 0) {
                    sb.append(" or ");
                }
                Stage.FilterTerm t = f.terms().get(i);
                if (t.ip()) {
                    sb.append("ip(").append(GoStrings.quote(t.value())).append(')');
                } else {
                    sb.append(GoStrings.quote(t.value()));
                }
            }
        } else if (s instanceof Stage.Json j) {
            sb.append("| json");
            extractions(j.params(), sb);
        } else if (s instanceof Stage.Logfmt l) {
            sb.append("| logfmt");
            if (l.strict()) {
                sb.append(" --strict");
            }
            if (l.keepEmpty()) {
                sb.append(" --keep-empty");
            }
            extractions(l.params(), sb);
        } else if (s instanceof Stage.Regexp r) {
            sb.append("| regexp ").append(GoStrings.quote(r.regex()));
        } else if (s instanceof Stage.PatternParser p) {
            sb.append("| pattern ").append(GoStrings.quote(p.pattern()));
        } else if (s instanceof Stage.Unpack) {
            sb.append("| unpack");
        } else if (s instanceof Stage.LineFormat f) {
            sb.append("| line_format ").append(GoStrings.quote(f.template()));
        } else if (s instanceof Stage.LabelFormat f) {
            sb.append("| label_format ");
            for (int i = 0; i < f.ops().size(); i++) {
                Stage.LabelFormatOp op = f.ops().get(i);
                sb.append(i > 0 ? ", " : "").append(op.destination()).append('=')
                        .append(op.template() ? GoStrings.quote(op.value()) : op.value());
            }
        } else if (s instanceof Stage.Drop d) {
            sb.append("| drop ");
            selects(d.labels(), sb);
        } else if (s instanceof Stage.Keep k) {
            sb.append("| keep ");
            selects(k.labels(), sb);
        } else if (s instanceof Stage.Decolorize) {
            sb.append("| decolorize");
        } else if (s instanceof Stage.LabelFilterStage f) {
            sb.append("| ");
            labelFilter(f.filter(), sb);
        }
    }

    private static void extractions(List<Stage.LabelExtraction> params, StringBuilder sb) {
        for (int i = 0; i < params.size(); i++) {
            Stage.LabelExtraction p = params.get(i);
            sb.append(i == 0 ? " " : ", ").append(p.label()).append('=').append(GoStrings.quote(p.expression()));
        }
    }

    private static void selects(List<Stage.LabelSelect> labels, StringBuilder sb) {
        for (int i = 0; i < labels.size(); i++) {
            Stage.LabelSelect l = labels.get(i);
            sb.append(i > 0 ? ", " : "").append(l.matcher() == null ? l.name() : l.matcher().toString());
        }
    }

    static void labelFilter(LabelFilter f, StringBuilder sb) {
        if (f instanceof LabelFilter.And a) {
            // and/or share one precedence and associate left: only a binary right operand needs parentheses
            labelFilterOperand(a.left(), sb, false);
            sb.append(" and ");
            labelFilterOperand(a.right(), sb, a.right() instanceof LabelFilter.Or || a.right() instanceof LabelFilter.And);
        } else if (f instanceof LabelFilter.Or o) {
            labelFilterOperand(o.left(), sb, false);
            sb.append(" or ");
            labelFilterOperand(o.right(), sb, o.right() instanceof LabelFilter.Or || o.right() instanceof LabelFilter.And);
        } else if (f instanceof LabelFilter.StringFilter s) {
            sb.append(s.matcher());
        } else if (f instanceof LabelFilter.NumberFilter n) {
            sb.append(n.name()).append(' ').append(n.op().symbol()).append(' ').append(Values.formatValue(n.value()));
        } else if (f instanceof LabelFilter.DurationFilter d) {
            sb.append(d.name()).append(' ').append(d.op().symbol()).append(' ').append(d.literal());
        } else if (f instanceof LabelFilter.BytesFilter b) {
            sb.append(b.name()).append(' ').append(b.op().symbol()).append(' ').append(b.literal());
        } else if (f instanceof LabelFilter.IpFilter ip) {
            sb.append(ip.name()).append(ip.negated() ? " != " : " = ").append("ip(").append(GoStrings.quote(ip.pattern()))
                    .append(')');
        }
    }

    private static void labelFilterOperand(LabelFilter f, StringBuilder sb, boolean parens) {
        if (parens) {
            sb.append('(');
        }
        labelFilter(f, sb);
        if (parens) {
            sb.append(')');
        }
    }

    static void sample(SampleExpr e, StringBuilder sb) {
        if (e instanceof Literal l) {
            sb.append(Values.formatValue(l.value()));
        } else if (e instanceof VectorLiteral v) {
            sb.append("vector(").append(Values.formatValue(v.value())).append(')');
        } else if (e instanceof LabelReplace r) {
            sb.append("label_replace(");
            sample(r.inner(), sb);
            sb.append(", ").append(GoStrings.quote(r.destination())).append(", ").append(GoStrings.quote(r.replacement()))
                    .append(", ").append(GoStrings.quote(r.source())).append(", ").append(GoStrings.quote(r.regex()))
                    .append(')');
        } else if (e instanceof RangeAggregation r) {
            sb.append(r.op().text()).append('(');
            if (r.parameter() != null) {
                sb.append(Values.formatValue(r.parameter())).append(", ");
            }
            logRange(r.range(), sb);
            sb.append(')');
            if (r.grouping() != null) {
                sb.append(' ');
                grouping(r.grouping(), sb);
            }
        } else if (e instanceof VectorAggregation v) {
            sb.append(v.op().text());
            if (v.grouping() != null) {
                sb.append(' ');
                grouping(v.grouping(), sb);
                sb.append(' ');
            }
            sb.append('(');
            if (v.parameter() != null) {
                sb.append(v.parameter()).append(", ");
            }
            sample(v.inner(), sb);
            sb.append(')');
        } else if (e instanceof Binary b) {
            int p = b.op().precedence();
            boolean rightAssoc = b.op() == BinaryOp.POW;
            operand(b.lhs(), sb, p, rightAssoc);
            sb.append(' ').append(b.op().symbol());
            BinaryModifiers m = b.modifiers();
            if (m.returnBool()) {
                sb.append(" bool");
            }
            if (m.matching() != null) {
                VectorMatching vm = m.matching();
                sb.append(vm.on() ? " on (" : " ignoring (").append(String.join(", ", vm.labels())).append(')');
                if (vm.cardinality() != Cardinality.ONE_TO_ONE) {
                    sb.append(vm.cardinality() == Cardinality.MANY_TO_ONE ? " group_left" : " group_right");
                    sb.append(" (").append(String.join(", ", vm.include())).append(')');
                }
            }
            sb.append(' ');
            operand(b.rhs(), sb, p, !rightAssoc);
        }
    }

    private static void operand(SampleExpr e, StringBuilder sb, int parentPrecedence, boolean parensOnEqual) {
        boolean parens = false;
        if (e instanceof Binary b) {
            int p = b.op().precedence();
            parens = p < parentPrecedence || p == parentPrecedence && parensOnEqual;
        } else if (e instanceof Literal l && (l.value() < 0 || 1 / l.value() < 0 || Double.isNaN(l.value()))) {
            parens = l.value() < 0 || 1 / l.value() < 0;
        }
        if (parens) {
            sb.append('(');
        }
        sample(e, sb);
        if (parens) {
            sb.append(')');
        }
    }

    private static void grouping(Grouping g, StringBuilder sb) {
        sb.append(g.without() ? "without (" : "by (").append(String.join(", ", g.labels())).append(')');
    }

    private static void logRange(LogRange r, StringBuilder sb) {
        log(r.log(), sb);
        if (r.unwrap() != null) {
            Unwrap u = r.unwrap();
            sb.append(" | unwrap ");
            switch (u.conversion()) {
                case NONE -> sb.append(u.label());
                case DURATION -> sb.append("duration(").append(u.label()).append(')');
                case DURATION_SECONDS -> sb.append("duration_seconds(").append(u.label()).append(')');
                case BYTES -> sb.append("bytes(").append(u.label()).append(')');
            }
            for (LabelFilter f : u.postFilters()) {
                sb.append(" | ");
                labelFilter(f, sb);
            }
        }
        if (!r.log().stages().isEmpty() || r.unwrap() != null) {
            sb.append(' ');
        }
        sb.append('[').append(Units.formatDuration(r.range())).append(']');
        if (!r.offset().isZero()) {
            sb.append(" offset ").append(Units.formatDuration(r.offset()));
        }
    }
}
