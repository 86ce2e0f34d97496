package io.logbloom.logql;

import com.google.re2j.Pattern;
import java.util.List;

/** A compiled {@code | regexp} stage: Go named groups become labels. Immutable and thread-safe. */
final class RegexpParser {

    private final Pattern pattern;
    private final List<String> names;

    private RegexpParser(Pattern pattern, List<String> names) {
        this.pattern = pattern;
        this.names = names;
    }

    /** Compiles; throws IllegalArgumentException when the regex is invalid or has no named group. */
    static RegexpParser compile(String goRegex) {
        Pattern p;
        try {
            p = GoRegex.compileSearch(goRegex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid regexp" + e.getMessage().substring("invalid regex".length()), e);
        }
        List<String> names = GoRegex.groupNames(p);
        if (names.isEmpty()) {
            throw new IllegalArgumentException("invalid regexp " + GoStrings.quote(goRegex)
                    + ": at least one named capture must be supplied");
        }
        for (String n : names) {
            if (!n.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                throw new IllegalArgumentException("invalid regexp " + GoStrings.quote(goRegex)
                        + ": invalid label name " + GoStrings.quote(n));
            }
        }
        return new RegexpParser(p, names);
    }

    /** Extracts named groups of the first match into the consumer; nothing when the line does not match. */
    void extract(String line, java.util.function.BiConsumer<String, String> sink) {
        com.google.re2j.Matcher m = pattern.matcher(line);
        if (!m.find()) {
            return;
        }
        for (String name : names) {
            String v = m.group(name);
            if (v != null) {
                sink.accept(name, v);
            }
        }
    }
}
