package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** One stage of a log pipeline ({@code |= "x"}, {@code | json}, {@code | level="error"}...). Records are immutable. */
public sealed interface Stage {

    /** Line filter operators. */
    enum LineFilterOp {
        CONTAINS("|="), NOT_CONTAINS("!="), MATCHES("|~"), NOT_MATCHES("!~"), PATTERN("|>"), NOT_PATTERN("!>");

        private final String symbol;

        LineFilterOp(String symbol) {
            this.symbol = symbol;
        }

        /** The operator as written. */
        public String symbol() {
            return symbol;
        }

        /** True for the negated operators. */
        public boolean negated() {
            return this == NOT_CONTAINS || this == NOT_MATCHES || this == NOT_PATTERN;
        }
    }

    /** One alternative of a line filter: a literal/regex/pattern, or an {@code ip("...")} filter. */
    record FilterTerm(String value, boolean ip) {
        /** Validates. */
        public FilterTerm {
            requireNonNull(value, "value is null");
        }
    }

    /** {@code |= "a" or "b"}: for positive ops any term matches, for negated ops no term matches. */
    record LineFilter(LineFilterOp op, List<FilterTerm> terms) implements Stage {
        /** Copies the terms. */
        public LineFilter {
            requireNonNull(op, "op is null");
            terms = List.copyOf(terms);
            if (terms.isEmpty()) {
                throw new IllegalArgumentException("line filter needs at least one term");
            }
        }
    }

    /** {@code label="expression"} parameter of json/logfmt; expression is the label name when omitted. */
    record LabelExtraction(String label, String expression) {
        /** Validates. */
        public LabelExtraction {
            requireNonNull(label, "label is null");
            requireNonNull(expression, "expression is null");
        }
    }

    /** {@code | json} with optional extraction parameters. */
    record Json(List<LabelExtraction> params) implements Stage {
        /** Copies the params. */
        public Json {
            params = List.copyOf(params);
        }
    }

    /** {@code | logfmt [--strict] [--keep-empty]} with optional extraction parameters. */
    record Logfmt(boolean strict, boolean keepEmpty, List<LabelExtraction> params) implements Stage {
        /** Copies the params. */
        public Logfmt {
            params = List.copyOf(params);
        }
    }

    /** {@code | regexp "(?P<name>...)"}. */
    record Regexp(String regex) implements Stage {
        /** Validates. */
        public Regexp {
            requireNonNull(regex, "regex is null");
        }
    }

    /** {@code | pattern "<ip> - <_> <status>"}. */
    record PatternParser(String pattern) implements Stage {
        /** Validates. */
        public PatternParser {
            requireNonNull(pattern, "pattern is null");
        }
    }

    /** {@code | unpack}. */
    record Unpack() implements Stage {
    }

    /** {@code | line_format "{{.a}}"}. */
    record LineFormat(String template) implements Stage {
        /** Validates. */
        public LineFormat {
            requireNonNull(template, "template is null");
        }
    }

    /** One {@code dst=src} rename (template false) or {@code dst="{{...}}"} template (template true). */
    record LabelFormatOp(String destination, String value, boolean template) {
        /** Validates. */
        public LabelFormatOp {
            requireNonNull(destination, "destination is null");
            requireNonNull(value, "value is null");
        }
    }

    /** {@code | label_format a=b, c="{{.d}}"}. */
    record LabelFormat(List<LabelFormatOp> ops) implements Stage {
        /** Copies the ops. */
        public LabelFormat {
            ops = List.copyOf(ops);
        }
    }

    /** A label named in drop/keep, optionally constrained by a matcher (then {@code matcher} is non-null). */
    record LabelSelect(String name, Matcher matcher) {
        /** Validates. */
        public LabelSelect {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code | drop a, b="x"}. */
    record Drop(List<LabelSelect> labels) implements Stage {
        /** Copies the list. */
        public Drop {
            labels = List.copyOf(labels);
        }
    }

    /** {@code | keep a, b="x"}. */
    record Keep(List<LabelSelect> labels) implements Stage {
        /** Copies the list. */
        public Keep {
            labels = List.copyOf(labels);
        }
    }

    /** {@code | decolorize}. */
    record Decolorize() implements Stage {
    }

    /** {@code | status >= 400 and level="error"}. */
    record LabelFilterStage(LabelFilter filter) implements Stage {
        /** Validates. */
        public LabelFilterStage {
            requireNonNull(filter, "filter is null");
        }
    }
}
