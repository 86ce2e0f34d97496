package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Translates RE2/Go regex syntax to java.util.regex: {@code (?P<name>...)} groups become Java named
 * groups {@code g0, g1, ...} (Java group names cannot hold underscores) and the original names are
 * returned in order. Everything else in RE2 syntax is a subset Java understands. Stateless.
 */
final class GoRegex {

    /** A translated regex and the Go names of its named groups, index i named {@code g<i>}. */
    record Translated(String regex, List<String> groupNames) {
        Translated {
            groupNames = List.copyOf(groupNames);
        }
    }

    private GoRegex() {
    }

    static Translated toJava(String goRegex) {
        StringBuilder out = new StringBuilder(goRegex.length() + 8);
        List<String> names = new ArrayList<>();
        boolean inClass = false;
        for (int i = 0; i < goRegex.length(); i++) {
            char c = goRegex.charAt(i);
            if (c == '\\' && i + 1 < goRegex.length()) {
                char n = goRegex.charAt(i + 1);
                if (n == 'z') {
                    out.append("\\z");
                } else if ((n == 'p' || n == 'P') && goRegex.startsWith("{", i + 2) && !goRegex.startsWith("{Is", i + 2)) {
                    // RE2 \p{Greek} / \p{Lu}: Java spells scripts and categories \p{IsGreek} / \p{IsLu}
                    out.append(c).append(n).append("{Is");
                    i++; // with the i++ below, resume after the opening brace
                } else {
                    out.append(c).append(n);
                }
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
                out.append(c);
                continue;
            }
            if (c == '[') {
                inClass = true;
                out.append(c);
                if (i + 1 < goRegex.length() && goRegex.charAt(i + 1) == '^') {
                    out.append('^');
                    i++;
                }
                if (i + 1 < goRegex.length() && goRegex.charAt(i + 1) == ']') {
                    out.append("\\]");
                    i++;
                }
                continue;
            }
            if (c == '(' && goRegex.startsWith("(?P<", i) || c == '(' && goRegex.startsWith("(?<", i)
                    && !goRegex.startsWith("(?<=", i) && !goRegex.startsWith("(?<!", i)) {
                int nameStart = goRegex.indexOf('<', i) + 1;
                int nameEnd = goRegex.indexOf('>', nameStart);
                if (nameEnd < 0) {
                    throw new PatternSyntaxException("unterminated group name", goRegex, i);
                }
                String name = goRegex.substring(nameStart, nameEnd);
                out.append("(?<g").append(names.size()).append('>');
                names.add(name);
                i = nameEnd;
                continue;
            }
            out.append(c);
        }
        return new Translated(out.toString(), names);
    }

    /** Compiles a line-filter regex: unanchored, and '.' matches newlines as Loki documents for |~ and !~. */
    static Pattern compileLineFilter(String goRegex) {
        try {
            return Pattern.compile(toJava(goRegex).regex(), Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex " + GoStrings.quote(goRegex) + ": " + e.getDescription(), e);
        }
    }

    /** Compiles a Go regex unanchored (as Go's regexp.MatchString searches). */
    static Pattern compileSearch(String goRegex) {
        try {
            return Pattern.compile(toJava(goRegex).regex());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex " + GoStrings.quote(goRegex) + ": " + e.getDescription(), e);
        }
    }
}
