package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;

/**
 * Conservative analysis of RE2 regexes for bloom tests: which literal substrings every match must contain,
 * and whether a regex is just an alternation of plain literals. When unsure it answers "no constraint".
 * Stateless.
 */
final class RegexLiterals {

    private static final String META = "\\.+*?()|[]{}^$";

    private RegexLiterals() {
    }

    /** The test that every line matching (searching) the regex passes. */
    static BloomTest required(String regex) {
        if (regex.startsWith("(?")) {
            return BloomTest.MATCH_ALL; // flags like (?i) change matching of literals
        }
        List<String> alternatives = splitTopLevel(regex);
        if (alternatives == null) {
            return BloomTest.MATCH_ALL;
        }
        List<BloomTest> ors = new ArrayList<>();
        for (String alt : alternatives) {
            ors.add(concatenation(alt));
        }
        return BloomTests.or(ors);
    }

    /** For {@code a|b|c} of plain (possibly escaped) literals, the literals; else null. */
    static List<String> literalAlternatives(String regex) {
        List<String> alternatives = splitTopLevel(regex);
        if (alternatives == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String alt : alternatives) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < alt.length(); i++) {
                char c = alt.charAt(i);
                if (c == '\\') {
                    if (i + 1 >= alt.length() || META.indexOf(alt.charAt(i + 1)) < 0) {
                        return null;
                    }
                    sb.append(alt.charAt(++i));
                } else if (META.indexOf(c) >= 0) {
                    return null;
                } else {
                    sb.append(c);
                }
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** Splits on top-level '|'; null when brackets are unbalanced. */
    private static List<String> splitTopLevel(String regex) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
            } else if (c == '[') {
                inClass = true;
                if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
                    i++;
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth < 0) {
                    return null;
                }
            } else if (c == '|' && depth == 0) {
                out.add(regex.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0 || inClass) {
            return null;
        }
        out.add(regex.substring(start));
        return out;
    }

    /** Literal runs of a concatenation without top-level '|'. */
    private static BloomTest concatenation(String re) {
        List<BloomTest> parts = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        int i = 0;
        while (i < re.length()) {
            char c = re.charAt(i);
            if (c == '\\' && i + 1 < re.length()) {
                char n = re.charAt(i + 1);
                if (META.indexOf(n) >= 0 || n == '/' || n == '-' || n == '"' || n == '\'' || n == ' ' || n == '=') {
                    i += 2;
                    i = quantified(re, i, run, parts, n);
                } else {
                    flush(run, parts); // \d, \w, \s, \b, \x41, \pL and friends: not a literal run
                    i = skipEscapeArgument(re, i + 2, n);
                    i = skipQuantifier(re, i);
                }
            } else if (c == '(' || c == '[') {
                flush(run, parts);
                i = skipGroup(re, i);
                i = skipQuantifier(re, i);
            } else if (c == '.' || c == '^' || c == '$') {
                flush(run, parts);
                i++;
                i = skipQuantifier(re, i);
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                flush(run, parts); // quantifier in an unexpected place: stop trusting the run
                i++;
            } else {
                i++;
                i = quantified(re, i, run, parts, c);
            }
        }
        flush(run, parts);
        return BloomTests.and(parts);
    }

    /** Appends literal char c (already consumed) honouring a following quantifier; returns the new index. */
    private static int quantified(String re, int i, StringBuilder run, List<BloomTest> parts, char c) {
        if (i < re.length()) {
            char q = re.charAt(i);
            if (q == '*' || q == '?') {
                flush(run, parts);
                return skipQuantifier(re, i);
            }
            if (q == '{') {
                flush(run, parts);
                return skipQuantifier(re, i);
            }
            if (q == '+') {
                run.append(c);
                flush(run, parts);
                return skipQuantifier(re, i);
            }
        }
        run.append(c);
        return i;
    }

    /** Skips what an escape consumes after its letter: \x{..} or two hex digits, \p{..} or one letter, octal digits. */
    private static int skipEscapeArgument(String re, int i, char letter) {
        if (letter == 'x' || letter == 'p' || letter == 'P') {
            if (i < re.length() && re.charAt(i) == '{') {
                int end = re.indexOf('}', i);
                return end < 0 ? re.length() : end + 1;
            }
            return Math.min(re.length(), i + (letter == 'x' ? 2 : 1));
        }
        if (letter >= '0' && letter <= '7') {
            int j = i;
            while (j < re.length() && j < i + 2 && re.charAt(j) >= '0' && re.charAt(j) <= '7') {
                j++;
            }
            return j;
        }
        return i;
    }

    private static int skipQuantifier(String re, int i) {
        if (i < re.length()) {
            char q = re.charAt(i);
            if (q == '*' || q == '+' || q == '?') {
                i++;
            } else if (q == '{') {
                int end = re.indexOf('}', i);
                i = end < 0 ? re.length() : end + 1;
            }
            if (i < re.length() && re.charAt(i) == '?') {
                i++; // lazy modifier
            }
        }
        return i;
    }

    private static int skipGroup(String re, int i) {
        char open = re.charAt(i);
        if (open == '[') {
            int j = i + 1;
            if (j < re.length() && re.charAt(j) == '^') {
                j++;
            }
            if (j < re.length() && re.charAt(j) == ']') {
                j++;
            }
            while (j < re.length() && re.charAt(j) != ']') {
                if (re.charAt(j) == '\\') {
                    j++;
                }
                j++;
            }
            return Math.min(re.length(), j + 1);
        }
        int depth = 0;
        int j = i;
        while (j < re.length()) {
            char c = re.charAt(j);
            if (c == '\\') {
                j += 2;
                continue;
            }
            if (c == '[') {
                j = skipGroup(re, j);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    return j + 1;
                }
            }
            j++;
        }
        return re.length();
    }

    private static void flush(StringBuilder run, List<BloomTest> parts) {
        if (run.length() > 0) {
            parts.add(new BloomTest.LineContains(run.toString()));
            run.setLength(0);
        }
    }
}
