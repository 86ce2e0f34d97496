package com.google.re2j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Read-only export of re2j's parsed syntax tree, so Logbloom can derive required literals from the very tree
 * that RE2 semantics are defined on instead of re-parsing regexes by hand. re2j keeps {@code Parser} and
 * {@code Regexp} package-private; this class is the only one Logbloom places in re2j's package (re2j's jar is
 * not sealed and Logbloom runs on the class path). It converts the tree into plain records at once and never
 * changes re2j state. It depends on re2j internals of the pinned version (see the parent pom); the logql tests
 * ({@code RegexLiteralsTest}) fail if those change shape. Stateless and thread-safe.
 */
public final class RegexpTrees {

    private RegexpTrees() {
    }

    /**
     * One node of a parsed regex.
     *
     * @param op the operator, named as re2j's {@code Regexp.Op} (LITERAL, CHAR_CLASS, CONCAT, ALTERNATE, STAR, …)
     * @param foldCase whether a LITERAL matches case-insensitively
     * @param runes LITERAL: its code points; CHAR_CLASS: inclusive ranges lo0, hi0, lo1, hi1, …
     * @param min REPEAT: minimum count
     * @param max REPEAT: maximum count, -1 for unbounded
     * @param subs operands (CONCAT, ALTERNATE: all; CAPTURE, STAR, PLUS, QUEST, REPEAT: one)
     */
    public record Node(String op, boolean foldCase, int[] runes, int min, int max, List<Node> subs) {
        /** Copies the arrays and lists. */
        public Node {
            Objects.requireNonNull(op, "op is null");
            runes = runes == null ? new int[0] : runes.clone();
            subs = List.copyOf(subs);
        }

        /** A copy of the runes. */
        @Override
        public int[] runes() {
            return runes.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Node n && op.equals(n.op) && foldCase == n.foldCase && Arrays.equals(runes, n.runes)
                    && min == n.min && max == n.max && subs.equals(n.subs);
        }

        @Override
        public int hashCode() {
            return Objects.hash(op, foldCase, Arrays.hashCode(runes), min, max, subs);
        }

        @Override
        public String toString() {
            return op + (foldCase ? "/i" : "") + Arrays.toString(runes) + (op.equals("REPEAT") ? "{" + min + "," + max + "}" : "")
                    + subs;
        }
    }

    /**
     * Parses {@code regex} with the flags {@link Pattern#compile(String)} uses (Perl syntax, as Go's
     * {@code regexp.Compile}) and returns its tree.
     *
     * @throws PatternSyntaxException when the regex is invalid
     */
    public static Node parse(String regex) {
        return convert(Parser.parse(regex, RE2.PERL));
    }

    private static Node convert(Regexp re) {
        List<Node> subs = new ArrayList<>();
        if (re.subs != null) {
            for (Regexp sub : re.subs) {
                if (sub != null) {
                    subs.add(convert(sub));
                }
            }
        }
        return new Node(re.op.name(), (re.flags & RE2.FOLD_CASE) != 0, re.runes, re.min, re.max, subs);
    }
}
