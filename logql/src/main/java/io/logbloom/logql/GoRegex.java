package io.logbloom.logql;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one place LogQL compiles user regexes. Loki's regexes are Go's RE2, so they are parsed and evaluated by
 * re2j, Google's Java port of RE2: the same syntax (Perl classes, {@code (?P<name>)} and {@code (?<name>)}
 * groups, flags {@code i s m U} anywhere, no backreferences or lookaround), the same semantics ({@code $}
 * is end of text without {@code (?m)}, {@code .} excludes only {@code \n}, {@code (?i)} folds Unicode, and
 * quantifiers bind to code points), and matching in time linear in the input, so no user regex can backtrack
 * exponentially. {@link RegexLiterals} derives bloom literals from re2j's parse tree of the same string, so what
 * the bloom requires and what the evaluator accepts cannot drift. Stateless; compiled patterns are thread-safe.
 */
final class GoRegex {

    private GoRegex() {
    }

    /** Compiles a line-filter regex: unanchored, and '.' matches newlines as Loki documents for |~ and !~. */
    static Pattern compileLineFilter(String goRegex) {
        return compile(goRegex, Pattern.DOTALL);
    }

    /** Compiles a Go regex for searching (Go's regexp.MatchString) or, with {@code matcher(v).matches()}, full matching. */
    static Pattern compileSearch(String goRegex) {
        return compile(goRegex, 0);
    }

    /** The names of the pattern's named groups, in group order. */
    static List<String> groupNames(Pattern pattern) {
        Map<String, Integer> named = pattern.namedGroups();
        String[] byIndex = new String[pattern.groupCount() + 1];
        named.forEach((name, index) -> byIndex[index] = name);
        List<String> out = new ArrayList<>(named.size());
        for (String name : byIndex) {
            if (name != null) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * Go's {@code ReplaceAllString} ({@code literal}: {@code ReplaceAllLiteralString}): successive non-overlapping
     * matches, an empty match right after a match left alone, each replaced by {@code template} expanded as Go's
     * {@code Expand} does: {@code $1} and {@code ${1}} by number, {@code $name} and {@code ${name}} by name (a name
     * as long as possible: {@code $1x} is the group named {@code 1x}), {@code $$} a dollar, an unknown or unmatched
     * group nothing, and a {@code $} that starts no name itself.
     */
    static String replaceAll(Pattern pattern, String src, String template, boolean literal) {
        com.google.re2j.Matcher m = pattern.matcher(src);
        StringBuilder out = new StringBuilder(src.length());
        int lastMatchEnd = 0;
        int searchPos = 0;
        while (searchPos <= src.length() && m.find(searchPos)) {
            out.append(src, lastMatchEnd, m.start());
            if (m.end() > lastMatchEnd || m.start() == 0) {
                if (literal) {
                    out.append(template);
                } else {
                    expand(out, template, m, pattern.namedGroups());
                }
            }
            lastMatchEnd = m.end();
            int width = searchPos < src.length() ? Character.charCount(src.codePointAt(searchPos)) : 1;
            searchPos = searchPos + width > m.end() ? searchPos + width : m.end();
        }
        return out.append(src, lastMatchEnd, src.length()).toString();
    }

    /** {@code template} expanded for the current match of {@code m} (a matcher of {@code pattern}), as Go's Expand. */
    static String expand(String template, com.google.re2j.Matcher m, Pattern pattern) {
        StringBuilder out = new StringBuilder();
        expand(out, template, m, pattern.namedGroups());
        return out.toString();
    }

    private static void expand(StringBuilder out, String t, com.google.re2j.Matcher m, Map<String, Integer> named) {
        int i = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (c != '$') {
                out.append(c);
                i++;
                continue;
            }
            i++;
            if (i < t.length() && t.charAt(i) == '$') {
                out.append('$');
                i++;
                continue;
            }
            boolean brace = i < t.length() && t.charAt(i) == '{';
            int from = brace ? i + 1 : i;
            int to = from;
            while (to < t.length()) {
                int cp = t.codePointAt(to);
                if (!Character.isLetterOrDigit(cp) && cp != '_') {
                    break;
                }
                to += Character.charCount(cp);
            }
            if (to == from || brace && (to >= t.length() || t.charAt(to) != '}')) {
                out.append('$'); // malformed: the dollar is text
                continue;
            }
            String name = t.substring(from, to);
            i = brace ? to + 1 : to;
            int group = number(name);
            if (group < 0) {
                Integer index = named.get(name);
                group = index == null ? -1 : index;
            }
            if (group >= 0 && group <= m.groupCount() && m.start(group) >= 0) {
                out.append(m.group(group));
            }
        }
    }

    /** A group name read as Go's Expand reads a number: ASCII digits, no leading zero, below 10^8; else -1. */
    private static int number(String name) {
        int n = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9' || n >= 100_000_000) {
                return -1;
            }
            n = n * 10 + c - '0';
        }
        return name.charAt(0) == '0' && name.length() > 1 ? -1 : n;
    }

    private static Pattern compile(String goRegex, int flags) {
        try {
            return Pattern.compile(goRegex, flags);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex " + GoStrings.quote(goRegex) + ": " + e.getDescription(), e);
        }
    }
}
