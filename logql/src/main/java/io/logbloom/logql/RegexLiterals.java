package io.logbloom.logql;

import com.google.re2j.RegexpTrees;
import com.google.re2j.RegexpTrees.Node;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Sound analysis of RE2 regexes for bloom tests, over the syntax tree RE2's own parser builds (re2j, the same
 * parser that evaluates our regexes, see {@link GoRegex}): which literal substrings every match must contain,
 * and which finite set of strings a whole regex can match. Stateless and thread-safe.
 *
 * <p><b>Method</b> (after the "required substrings" analysis of Google Code Search's trigram index, R. Cox,
 * <i>Regular Expression Matching with a Trigram Index</i>, 2012, reduced to what a bloom can test). Every node
 * gets two facts:
 * <ul>
 * <li><em>exact</em>: a small set of strings such that every string the node matches is one of them, or
 * "unknown";</li>
 * <li><em>required</em>: a {@link BloomTest} of LineContains/And/Or that every string the node matches
 * satisfies (MatchAll when nothing is known).</li>
 * </ul>
 * Case-sensitive literals are exact; classes of at most {@value #MAX_CLASS_RUNES} code points are exact (their
 * code points); empty-width assertions ({@code ^ $ \A \z \b \B}) are exact {""} because they add no character
 * to the match; a case-folded literal keeps only its ASCII non-letters (no other code point folds to them) and
 * turns each letter into "unknown". Concatenation multiplies exact sets while they stay within
 * {@value #MAX_EXACT} strings, and otherwise closes the run so far into "contains one of them" and ANDs it with
 * the rest: each run is a substring of the match. Alternation unions exact sets and ORs requirements. {@code x?}
 * adds "" to x's set; {@code x+} is read as {@code x x*} and {@code x{n,m}} (n ≥ 1) as n copies of x then
 * an unknown part; {@code x*}, {@code x{0,m}},
 * any-char, large classes and every operator this class does not know give "unknown" and MatchAll. So the
 * analysis can lose precision but never require a string that a match lacks: flags anywhere ({@code (?i)} in a
 * group or an alternative only folds the literals it governs, which the tree marks), quantifiers bind to whole
 * code points (the tree holds code points, not UTF-16 chars), and an unparsable regex requires nothing.
 */
final class RegexLiterals {
    /** Most strings an exact set may hold: more would only add OR branches of little selectivity. */
    static final int MAX_EXACT = 16;
    /** Largest class expanded into its code points ({@code [aA]}, {@code [0-7]}); larger ones say nothing. */
    static final int MAX_CLASS_RUNES = 8;
    /** Copies of {@code x} written out for {@code x{n}}: enough for {@code \d{4}}-like runs, bounded for {@code x{1000}}. */
    static final int MAX_REPEAT_COPIES = 4;

    /** What is known about the strings a node matches; {@code exact} is null when unknown. */
    private record Info(Set<String> exact, BloomTest required) {
        static final Info UNKNOWN = new Info(null, BloomTest.MATCH_ALL);
        static final Info EMPTY = exactly(Set.of(""));

        static Info exactly(Set<String> strings) {
            return new Info(strings, containsAny(strings));
        }
    }

    private RegexLiterals() {
    }

    /** The test that every line matching (searching) the regex passes; MatchAll when the regex is invalid. */
    static BloomTest required(String regex) {
        try {
            return analyze(RegexpTrees.parse(regex)).required();
        } catch (RuntimeException e) {
            return BloomTest.MATCH_ALL; // invalid regexes are rejected at parse time; never guess here
        }
    }

    /**
     * For a regex matched against a whole value (label matchers are anchored), the finite set of values it can
     * match, or null when unknown or larger than {@value #MAX_EXACT}.
     */
    static List<String> literalAlternatives(String regex) {
        try {
            Set<String> exact = analyze(RegexpTrees.parse(regex)).exact();
            return exact == null ? null : List.copyOf(exact);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Info analyze(Node n) {
        switch (n.op()) {
            case "EMPTY_MATCH", "BEGIN_LINE", "END_LINE", "BEGIN_TEXT", "END_TEXT", "WORD_BOUNDARY", "NO_WORD_BOUNDARY":
                return Info.EMPTY;
            case "LITERAL":
                return n.foldCase() ? foldedLiteral(n.runes()) : Info.exactly(Set.of(new String(n.runes(), 0, n.runes().length)));
            case "CHAR_CLASS":
                return charClass(n.runes());
            case "CAPTURE":
                return n.subs().size() == 1 ? analyze(n.subs().get(0)) : Info.UNKNOWN;
            case "CONCAT":
                return concat(concatParts(n.subs()));
            case "ALTERNATE":
                return alternate(infos(n.subs()));
            case "QUEST":
                return optional(n);
            case "PLUS":
                return n.subs().size() == 1 ? new Info(null, analyze(n.subs().get(0)).required()) : Info.UNKNOWN;
            case "REPEAT":
                return repeat(n);
            default:
                return Info.UNKNOWN; // STAR, ANY_CHAR, ANY_CHAR_NOT_NL, NO_MATCH, pseudo-operators, future ones
        }
    }

    /**
     * The parts of a concatenation, with {@code x+} read as {@code x x*} and {@code x{n,m}} as n copies of x
     * followed by an unknown part when m differs from n, so that x's exact strings join the neighbouring run
     * ({@code fo+x} requires "fo" and "x").
     */
    private static List<Info> concatParts(List<Node> nodes) {
        List<Info> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            boolean plus = n.op().equals("PLUS") && n.subs().size() == 1;
            boolean repeat = n.op().equals("REPEAT") && n.subs().size() == 1 && n.min() >= 1;
            if (plus || repeat) {
                Info sub = analyze(n.subs().get(0));
                int copies = plus ? 1 : Math.min(n.min(), MAX_REPEAT_COPIES);
                for (int i = 0; i < copies; i++) {
                    out.add(sub);
                }
                if (plus || n.max() != n.min() || n.min() > MAX_REPEAT_COPIES) {
                    out.add(Info.UNKNOWN);
                }
            } else {
                out.add(analyze(n));
            }
        }
        return out;
    }

    private static List<Info> infos(List<Node> nodes) {
        List<Info> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            out.add(analyze(n));
        }
        return out;
    }

    private static Info optional(Node n) {
        if (n.subs().size() != 1) {
            return Info.UNKNOWN;
        }
        Set<String> exact = analyze(n.subs().get(0)).exact();
        if (exact == null || exact.size() >= MAX_EXACT) {
            return Info.UNKNOWN;
        }
        Set<String> out = new LinkedHashSet<>(exact);
        out.add("");
        return Info.exactly(out);
    }

    private static Info repeat(Node n) {
        if (n.subs().size() != 1 || n.min() < 1) {
            return n.subs().size() == 1 && n.min() == 0 && n.max() == 1 ? optional(n) : Info.UNKNOWN;
        }
        Info sub = analyze(n.subs().get(0));
        if (n.min() == 1 && n.max() == 1) {
            return sub;
        }
        return new Info(null, sub.required());
    }

    private static Info foldedLiteral(int[] runes) {
        List<Info> parts = new ArrayList<>(runes.length);
        for (int r : runes) {
            boolean caseless = r < 128 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z');
            parts.add(caseless ? Info.exactly(Set.of(Character.toString(r))) : Info.UNKNOWN);
        }
        return concat(parts);
    }

    private static Info charClass(int[] ranges) {
        long count = 0;
        for (int i = 0; i + 1 < ranges.length; i += 2) {
            count += (long) ranges[i + 1] - ranges[i] + 1;
        }
        if (ranges.length % 2 != 0 || count == 0 || count > MAX_CLASS_RUNES) {
            return Info.UNKNOWN;
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < ranges.length; i += 2) {
            for (int r = ranges[i]; r <= ranges[i + 1]; r++) {
                if (!Character.isValidCodePoint(r)) {
                    return Info.UNKNOWN;
                }
                out.add(Character.toString(r));
            }
        }
        return Info.exactly(out);
    }

    private static Info concat(List<Info> parts) {
        List<BloomTest> required = new ArrayList<>();
        Set<String> run = Set.of("");
        boolean allExact = true;
        for (Info part : parts) {
            if (part.exact() != null) {
                Set<String> product = product(run, part.exact());
                if (product != null) {
                    run = product;
                    continue;
                }
                required.add(containsAny(run));
                run = part.exact();
                allExact = false;
            } else {
                required.add(containsAny(run));
                required.add(part.required());
                run = Set.of("");
                allExact = false;
            }
        }
        required.add(containsAny(run));
        return new Info(allExact ? run : null, BloomTests.and(required));
    }

    private static Info alternate(List<Info> alternatives) {
        List<BloomTest> required = new ArrayList<>();
        Set<String> union = new LinkedHashSet<>();
        for (Info a : alternatives) {
            required.add(a.required());
            if (union != null && a.exact() != null && union.size() + a.exact().size() <= MAX_EXACT) {
                union.addAll(a.exact());
            } else {
                union = null;
            }
        }
        if (alternatives.isEmpty()) {
            return Info.UNKNOWN;
        }
        return new Info(union, BloomTests.or(required));
    }

    /** Every a + b, or null when that would exceed {@link #MAX_EXACT} strings. */
    private static Set<String> product(Set<String> left, Set<String> right) {
        if ((long) left.size() * right.size() > MAX_EXACT) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String a : left) {
            for (String b : right) {
                out.add(a + b);
            }
        }
        return out;
    }

    /** "The string contains one of these": MatchAll when one is empty (or none is given). */
    private static BloomTest containsAny(Set<String> strings) {
        List<BloomTest> ors = new ArrayList<>(strings.size());
        for (String s : strings) {
            if (s.isEmpty()) {
                return BloomTest.MATCH_ALL;
            }
            ors.add(new BloomTest.LineContains(s));
        }
        return BloomTests.or(ors);
    }
}
