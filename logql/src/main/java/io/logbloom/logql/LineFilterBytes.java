package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * A chain of line filters ({@code |=}, {@code !=}, {@code |~}, {@code !~}, {@code |>}, {@code !>}, each with
 * {@code or} terms) evaluated on a line's UTF-8 bytes, so a columnar reader tests rows of its line column
 * without building a string per row.
 *
 * <p>Design: UTF-8 is self-synchronizing, so a string contains a literal exactly when its UTF-8 encoding
 * contains the literal's encoding as a byte run; literal terms are therefore a byte search (first byte scan,
 * then a vectorized range compare). A regex term first runs the required-literal test {@link RegexLiterals}
 * derives from RE2's own parse tree (the same analysis the blooms use, so it never rejects a matching line) on
 * the bytes, and only a line passing it is decoded and searched with the very predicate the row-at-a-time
 * {@link Pipeline} compiles; {@code ip()} and pattern terms decode and use that predicate directly. Results are
 * therefore identical to the row-at-a-time filters.
 *
 * <p>Immutable and thread-safe (the compiled regexes are).
 */
public final class LineFilterBytes {
    /**
     * One compiled filter stage: any term passing makes the line pass, inverted for a negated operator;
     * {@code literals[i]} is term i's index into {@link #literals()}, or -1 when it is not a plain literal.
     */
    private record Filter(Term[] terms, int[] literals, boolean negated) {
        boolean test(IntPredicate containsLiteral) {
            for (int literal : literals) {
                if (containsLiteral.test(literal)) {
                    return !negated;
                }
            }
            return negated;
        }

        boolean test(byte[] bytes, int offset, int length) {
            for (Term t : terms) {
                if (t.test(bytes, offset, length)) {
                    return !negated;
                }
            }
            return negated;
        }
    }

    /** One term on bytes. */
    private interface Term {
        boolean test(byte[] bytes, int offset, int length);
    }

    private final Filter[] filters;
    /** The distinct literals of the chain when every term is a plain literal, else null. */
    private final List<byte[]> literals;

    private LineFilterBytes(Filter[] filters, List<byte[]> literals) {
        this.filters = filters;
        this.literals = literals;
    }

    /**
     * The filters of {@code stages} on bytes, or null when a stage is not a line filter (parsers, label filters
     * and formatting need the row-at-a-time pipeline).
     *
     * @throws IllegalArgumentException for an invalid regex or pattern, as the row-at-a-time pipeline
     */
    public static LineFilterBytes compile(List<Stage> stages) {
        List<Filter> out = new ArrayList<>(stages.size());
        List<String> literals = new ArrayList<>();
        boolean allLiterals = true;
        for (Stage s : stages) {
            if (!(s instanceof Stage.LineFilter f)) {
                return null;
            }
            List<Term> terms = new ArrayList<>(f.terms().size());
            int[] indexes = new int[f.terms().size()];
            for (Stage.FilterTerm t : f.terms()) {
                boolean literal = !t.ip() && (f.op() == Stage.LineFilterOp.CONTAINS
                        || f.op() == Stage.LineFilterOp.NOT_CONTAINS);
                allLiterals &= literal;
                if (literal && !literals.contains(t.value())) {
                    literals.add(t.value());
                }
                indexes[terms.size()] = literal ? literals.indexOf(t.value()) : -1;
                terms.add(term(f.op(), t));
            }
            out.add(new Filter(terms.toArray(new Term[0]), indexes, f.op().negated()));
        }
        List<byte[]> bytes = null;
        if (allLiterals) {
            bytes = new ArrayList<>(literals.size());
            for (String l : literals) {
                bytes.add(l.getBytes(StandardCharsets.UTF_8));
            }
        }
        return new LineFilterBytes(out.toArray(new Filter[0]), bytes == null ? null : List.copyOf(bytes));
    }

    /** True when the chain has no filter: every line passes. */
    public boolean acceptsAll() {
        return filters.length == 0;
    }

    /** Whether the line in {@code bytes[offset, offset + length)} passes every filter. */
    public boolean test(byte[] bytes, int offset, int length) {
        for (Filter f : filters) {
            if (!f.test(bytes, offset, length)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The distinct literals of the chain when every term is a plain literal ({@code |=}, {@code !=}, with
     * {@code or}), so a reader may find the rows containing each (for example on a column's tokens) and call
     * {@link #test(IntPredicate)}; null when a term needs the line itself. Do not modify the arrays.
     */
    public List<byte[]> literals() {
        return literals;
    }

    /**
     * Whether a line passes every filter, given which of {@link #literals()} it contains ({@code containsLiteral}
     * answers by index); only for chains whose {@link #literals()} is not null.
     */
    public boolean test(IntPredicate containsLiteral) {
        if (literals == null) {
            throw new IllegalStateException("BUG: the filter chain has terms that are not literals");
        }
        for (Filter f : filters) {
            if (!f.test(containsLiteral)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code line} passes every filter. */
    public boolean test(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return test(bytes, 0, bytes.length);
    }

    private static Term term(Stage.LineFilterOp op, Stage.FilterTerm t) {
        Predicate<String> rowAtATime = Pipeline.term(op, t);
        Term decoded = (bytes, offset, length) ->
                rowAtATime.test(new String(bytes, offset, length, StandardCharsets.UTF_8));
        if (t.ip()) {
            return decoded;
        }
        return switch (op) {
            case CONTAINS, NOT_CONTAINS -> literal(t.value().getBytes(StandardCharsets.UTF_8));
            case MATCHES, NOT_MATCHES -> {
                Term required = required(RegexLiterals.required(t.value()));
                yield required == null ? decoded
                        : (bytes, offset, length) -> required.test(bytes, offset, length)
                                && decoded.test(bytes, offset, length);
            }
            case PATTERN, NOT_PATTERN -> decoded;
        };
    }

    /** The byte test of a required-literal condition; null when it requires nothing. */
    private static Term required(BloomTest test) {
        if (test instanceof BloomTest.LineContains c) {
            return literal(c.literal().getBytes(StandardCharsets.UTF_8));
        }
        if (test instanceof BloomTest.And a) {
            List<Term> parts = new ArrayList<>();
            for (BloomTest t : a.tests()) {
                Term part = required(t);
                if (part != null) {
                    parts.add(part);
                }
            }
            if (parts.isEmpty()) {
                return null;
            }
            Term[] all = parts.toArray(new Term[0]);
            return (bytes, offset, length) -> {
                for (Term part : all) {
                    if (!part.test(bytes, offset, length)) {
                        return false;
                    }
                }
                return true;
            };
        }
        if (test instanceof BloomTest.Or o) {
            List<Term> parts = new ArrayList<>();
            for (BloomTest t : o.tests()) {
                Term part = required(t);
                if (part == null) {
                    return null; // one alternative requires nothing: the Or requires nothing
                }
                parts.add(part);
            }
            Term[] any = parts.toArray(new Term[0]);
            return (bytes, offset, length) -> {
                for (Term part : any) {
                    if (part.test(bytes, offset, length)) {
                        return true;
                    }
                }
                return false;
            };
        }
        return null; // MatchAll, and metadata tests a line filter never yields
    }

    private static Term literal(byte[] needle) {
        return (bytes, offset, length) -> indexOf(bytes, offset, length, needle) >= 0;
    }

    /** First position of {@code needle} in {@code bytes[offset, offset + length)}, or -1. */
    static int indexOf(byte[] bytes, int offset, int length, byte[] needle) {
        int m = needle.length;
        if (m == 0) {
            return offset;
        }
        byte first = needle[0];
        int last = offset + length - m;
        for (int i = offset; i <= last; i++) {
            if (bytes[i] == first && Arrays.equals(bytes, i + 1, i + m, needle, 1, m)) {
                return i;
            }
        }
        return -1;
    }
}
