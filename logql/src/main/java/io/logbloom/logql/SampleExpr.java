package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/** A metric query expression; its records are immutable and thread-safe. */
public sealed interface SampleExpr extends Expr {

    /** Range (over-time) functions. */
    enum RangeOp {
        COUNT_OVER_TIME, RATE, RATE_COUNTER, BYTES_RATE, BYTES_OVER_TIME, ABSENT_OVER_TIME, SUM_OVER_TIME,
        AVG_OVER_TIME, MIN_OVER_TIME, MAX_OVER_TIME, STDVAR_OVER_TIME, STDDEV_OVER_TIME, QUANTILE_OVER_TIME,
        FIRST_OVER_TIME, LAST_OVER_TIME;

        /** LogQL spelling. */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** True when this function needs {@code | unwrap}. */
        public boolean needsUnwrap() {
            return switch (this) {
                case COUNT_OVER_TIME, RATE, BYTES_RATE, BYTES_OVER_TIME, ABSENT_OVER_TIME -> false;
                default -> true;
            };
        }

        /** True when {@code by}/{@code without} may follow (Loki: unwrapped ops except sum, rate and rate_counter). */
        public boolean allowsGrouping() {
            return switch (this) {
                case AVG_OVER_TIME, STDDEV_OVER_TIME, STDVAR_OVER_TIME, QUANTILE_OVER_TIME, MAX_OVER_TIME, MIN_OVER_TIME,
                    FIRST_OVER_TIME, LAST_OVER_TIME -> true;
                default -> false;
            };
        }

        /** True when unwrap is allowed (rate and absent_over_time accept either form). */
        public boolean allowsUnwrap() {
            return this == RATE || this == ABSENT_OVER_TIME || needsUnwrap();
        }
    }

    /** Vector aggregation operators. */
    enum VectorOp {
        SUM, AVG, MIN, MAX, COUNT, STDDEV, STDVAR, TOPK, BOTTOMK, SORT, SORT_DESC;

        /** LogQL spelling. */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Binary operators. */
    enum BinaryOp {
        POW("^"), MUL("*"), DIV("/"), MOD("%"), ADD("+"), SUB("-"), EQ("=="), NEQ("!="), GT(">"), GTE(">="),
        LT("<"), LTE("<="), AND("and"), UNLESS("unless"), OR("or");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        /** LogQL spelling. */
        public String symbol() {
            return symbol;
        }

        /** True for the comparison operators. */
        public boolean comparison() {
            return this == EQ || this == NEQ || this == GT || this == GTE || this == LT || this == LTE;
        }

        /** True for and/or/unless. */
        public boolean setOp() {
            return this == AND || this == UNLESS || this == OR;
        }

        /** Binding strength; higher binds tighter (PromQL order). */
        public int precedence() {
            return switch (this) {
                case POW -> 6;
                case MUL, DIV, MOD -> 5;
                case ADD, SUB -> 4;
                case EQ, NEQ, GT, GTE, LT, LTE -> 3;
                case AND, UNLESS -> 2;
                case OR -> 1;
            };
        }

        /** The operator for a symbol. */
        public static BinaryOp ofSymbol(String s) {
            for (BinaryOp op : values()) {
                if (op.symbol.equals(s)) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown binary operator: " + s);
        }
    }

    /** Conversions for {@code | unwrap}. */
    enum UnwrapConversion {
        NONE, DURATION, DURATION_SECONDS, BYTES
    }

    /** {@code | unwrap [conv(]label[)]} followed by optional label filters applied after extraction. */
    record Unwrap(String label, UnwrapConversion conversion, List<LabelFilter> postFilters) {
        /** Copies and validates. */
        public Unwrap {
            requireNonNull(label, "label is null");
            requireNonNull(conversion, "conversion is null");
            postFilters = List.copyOf(postFilters);
        }
    }

    /** A log query over a range window: {@code {a="b"} | json | unwrap x [5m] offset 1h}; unwrap may be null. */
    record LogRange(LogExpr log, Duration range, Duration offset, Unwrap unwrap) {
        /** Validates. */
        public LogRange {
            requireNonNull(log, "log is null");
            requireNonNull(range, "range is null");
            requireNonNull(offset, "offset is null");
            if (range.isNegative()) {
                throw new IllegalArgumentException("range must not be negative: " + range);
            }
        }
    }

    /** {@code by (a, b)} or {@code without (a)}. */
    record Grouping(boolean without, List<String> labels) {
        /** Copies the labels. */
        public Grouping {
            labels = List.copyOf(labels);
        }
    }

    /** {@code rate(...)}, {@code quantile_over_time(0.9, ...) by (x)}; parameter and grouping may be null. */
    record RangeAggregation(RangeOp op, LogRange range, Double parameter, Grouping grouping) implements SampleExpr {
        /** Validates. */
        public RangeAggregation {
            requireNonNull(op, "op is null");
            requireNonNull(range, "range is null");
        }
    }

    /** {@code sum by (a) (...)}, {@code topk(5, ...)}; parameter and grouping may be null. */
    record VectorAggregation(VectorOp op, SampleExpr inner, Integer parameter, Grouping grouping) implements SampleExpr {
        /** Validates. */
        public VectorAggregation {
            requireNonNull(op, "op is null");
            requireNonNull(inner, "inner is null");
        }
    }

    /** How vectors are matched: {@code on(...)} / {@code ignoring(...)} and group_left/right include labels. */
    record VectorMatching(boolean on, List<String> labels, Cardinality cardinality, List<String> include) {
        /** Copies and validates. */
        public VectorMatching {
            labels = List.copyOf(labels);
            requireNonNull(cardinality, "cardinality is null");
            include = List.copyOf(include);
        }
    }

    /** Matching cardinality. */
    enum Cardinality {
        ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY
    }

    /** {@code bool} and the vector matching; matching may be null (default one-to-one on all labels). */
    record BinaryModifiers(boolean returnBool, VectorMatching matching) {
        /** No modifiers. */
        public static final BinaryModifiers NONE = new BinaryModifiers(false, null);
    }

    /** {@code lhs op lhs}. */
    record Binary(BinaryOp op, SampleExpr lhs, SampleExpr rhs, BinaryModifiers modifiers) implements SampleExpr {
        /** Validates. */
        public Binary {
            requireNonNull(op, "op is null");
            requireNonNull(lhs, "lhs is null");
            requireNonNull(rhs, "rhs is null");
            requireNonNull(modifiers, "modifiers is null");
        }
    }

    /** A scalar number literal. */
    record Literal(double value) implements SampleExpr {
    }

    /** {@code vector(n)}: a one-element vector with no labels. */
    record VectorLiteral(double value) implements SampleExpr {
    }

    /** {@code label_replace(inner, "dst", "replacement", "src", "regex")}. */
    record LabelReplace(SampleExpr inner, String destination, String replacement, String source, String regex)
            implements SampleExpr {
        /** Validates, including the regex. */
        public LabelReplace {
            requireNonNull(inner, "inner is null");
            requireNonNull(destination, "destination is null");
            requireNonNull(replacement, "replacement is null");
            requireNonNull(source, "source is null");
            requireNonNull(regex, "regex is null");
            Matcher.anchored(regex);
        }
    }
}
