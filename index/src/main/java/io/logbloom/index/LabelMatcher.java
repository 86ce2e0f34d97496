package io.logbloom.index;

import io.logbloom.chunks.Labels;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One label matcher of a stream selector, with Loki's semantics: a missing label has the value "",
 * so a matcher that matches "" also matches series lacking the label; regexes are fully anchored.
 * Immutable and thread-safe.
 */
public record LabelMatcher(MatchType type, String name, String value, Pattern pattern) {
    /** The four matcher operators. */
    public enum MatchType { EQUAL, NOT_EQUAL, REGEX, NOT_REGEX }

    public LabelMatcher {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(value, "value is null");
        if ((type == MatchType.REGEX || type == MatchType.NOT_REGEX) && pattern == null) {
            pattern = compile(value);
        }
    }

    /** Builds a matcher; regex values are compiled (anchored) and a bad one throws IllegalArgumentException. */
    public static LabelMatcher of(MatchType type, String name, String value) {
        return new LabelMatcher(type, name, value, null);
    }

    public static LabelMatcher equal(String name, String value) {
        return of(MatchType.EQUAL, name, value);
    }

    private static Pattern compile(String regex) {
        try {
            return Pattern.compile("(?:" + regex + ")", Pattern.DOTALL);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex '" + regex + "': " + e.getDescription(), e);
        }
    }

    /** Whether a label value (null or "" when the label is absent) satisfies this matcher. */
    public boolean matches(String labelValue) {
        String v = labelValue == null ? "" : labelValue;
        return switch (type) {
            case EQUAL -> v.equals(value);
            case NOT_EQUAL -> !v.equals(value);
            case REGEX -> pattern.matcher(v).matches();
            case NOT_REGEX -> !pattern.matcher(v).matches();
        };
    }

    /** Whether the series' labels satisfy this matcher. */
    public boolean matches(Labels labels) {
        return matches(labels.get(name));
    }

    /** Whether this matcher matches the empty string (and so series lacking the label). */
    public boolean matchesEmpty() {
        return matches("");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelMatcher m && m.type == type && m.name.equals(name) && m.value.equals(value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, name, value);
    }

    @Override
    public String toString() {
        String op = switch (type) {
            case EQUAL -> "=";
            case NOT_EQUAL -> "!=";
            case REGEX -> "=~";
            case NOT_REGEX -> "!~";
        };
        return name + op + '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
