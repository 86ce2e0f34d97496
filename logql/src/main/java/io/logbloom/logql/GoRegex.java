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

    private static Pattern compile(String goRegex, int flags) {
        try {
            return Pattern.compile(goRegex, flags);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex " + GoStrings.quote(goRegex) + ": " + e.getDescription(), e);
        }
    }
}
