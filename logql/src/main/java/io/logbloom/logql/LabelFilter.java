package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

/** A label filter predicate; records are immutable. */
public sealed interface LabelFilter {

    /** Numeric comparison operators. */
    enum CompareOp {
        EQ("=="), NEQ("!="), GT(">"), GTE(">="), LT("<"), LTE("<=");

        private final String symbol;

        CompareOp(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as printed. */
        public String symbol() {
            return symbol;
        }

        /** Applies the comparison. */
        public boolean test(double a, double b) {
            return switch (this) {
                case EQ -> a == b;
                case NEQ -> a != b;
                case GT -> a > b;
                case GTE -> a >= b;
                case LT -> a < b;
                case LTE -> a <= b;
            };
        }

        /** Parses {@code ==}, {@code =} (same as ==), {@code !=}, {@code >}... */
        public static CompareOp ofSymbol(String s) {
            if (s.equals("=")) {
                return EQ;
            }
            for (CompareOp op : values()) {
                if (op.symbol.equals(s)) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown comparison operator: " + s);
        }
    }

    /** {@code name op "value"} string matcher. */
    record StringFilter(Matcher matcher) implements LabelFilter {
        /** Validates. */
        public StringFilter {
            requireNonNull(matcher, "matcher is null");
        }
    }

    /** {@code name op 42}. */
    record NumberFilter(String name, CompareOp op, double value) implements LabelFilter {
        /** Validates. */
        public NumberFilter {
            requireNonNull(name, "name is null");
            requireNonNull(op, "op is null");
        }
    }

    /** {@code name op 1m30s}; literal keeps the text as written, nanos the parsed value. */
    record DurationFilter(String name, CompareOp op, String literal, long nanos) implements LabelFilter {
        /** Validates. */
        public DurationFilter {
            requireNonNull(name, "name is null");
            requireNonNull(op, "op is null");
            requireNonNull(literal, "literal is null");
        }
    }

    /** {@code name op 20MB}; literal keeps the text as written, bytes the parsed value. */
    record BytesFilter(String name, CompareOp op, String literal, long bytes) implements LabelFilter {
        /** Validates. */
        public BytesFilter {
            requireNonNull(name, "name is null");
            requireNonNull(op, "op is null");
            requireNonNull(literal, "literal is null");
        }
    }

    /** {@code name = ip("10.0.0.0/8")} or {@code !=}. */
    record IpFilter(String name, boolean negated, String pattern) implements LabelFilter {
        /** Validates the pattern. */
        public IpFilter {
            requireNonNull(name, "name is null");
            IpMatcher.parse(pattern);
        }
    }

    /** Both must hold. */
    record And(LabelFilter left, LabelFilter right) implements LabelFilter {
        /** Validates. */
        public And {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }
    }

    /** Either may hold. */
    record Or(LabelFilter left, LabelFilter right) implements LabelFilter {
        /** Validates. */
        public Or {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }
    }
}
