package io.logbloom.logql;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

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
        GoRegex.Translated t;
        Pattern p;
        try {
            t = GoRegex.toJava(goRegex);
            p = Pattern.compile(t.regex());
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regexp " + GoStrings.quote(goRegex) + ": " + e.getDescription(), e);
        }
        if (t.groupNames().isEmpty()) {
            throw new IllegalArgumentException("invalid regexp " + GoStrings.quote(goRegex)
                    + ": at least one named capture must be supplied");
        }
        for (String n : t.groupNames()) {
            if (!n.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                throw new IllegalArgumentException("invalid regexp " + GoStrings.quote(goRegex)
                        + ": invalid label name " + GoStrings.quote(n));
            }
        }
        return new RegexpParser(p, t.groupNames());
    }

    /** Extracts named groups of the first match into the consumer; nothing when the line does not match. */
    void extract(String line, java.util.function.BiConsumer<String, String> sink) {
        java.util.regex.Matcher m = pattern.matcher(line);
        if (!m.find()) {
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            String v = m.group("g" + i);
            if (v != null) {
                sink.accept(names.get(i), v);
            }
        }
    }
}
