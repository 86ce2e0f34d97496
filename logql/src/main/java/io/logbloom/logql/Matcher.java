package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import com.google.re2j.Pattern;

/**
 * A label matcher such as {@code app=~"api.*"}; regexes are fully anchored and '.' does not match a newline
 * unless the regex says {@code (?s)}, as Loki documents for stream selectors.
 * Immutable and thread-safe; the compiled regex is cached but excluded from equality.
 */
public record Matcher(MatchType type, String name, String value) {

    /** Validates the fields and that a regex value compiles. */
    public Matcher {
        requireNonNull(type, "type is null");
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        if (type == MatchType.REGEX || type == MatchType.NOT_REGEX) {
            compile(value);
        }
    }

    /** Compiles this matcher into a predicate over label values, where a missing label is "". */
    public java.util.function.Predicate<String> compile() {
        return switch (type) {
            case EQUAL -> v -> value.equals(v == null ? "" : v);
            case NOT_EQUAL -> v -> !value.equals(v == null ? "" : v);
            case REGEX -> {
                Pattern p = anchored(value);
                yield v -> p.matcher(v == null ? "" : v).matches();
            }
            case NOT_REGEX -> {
                Pattern p = anchored(value);
                yield v -> !p.matcher(v == null ? "" : v).matches();
            }
        };
    }

    /** True when the (possibly missing, i.e. empty) label value satisfies this matcher; compiles per call. */
    public boolean matches(String labelValue) {
        return compile().test(labelValue);
    }

    /** True when this matcher also accepts the empty value (an absent label). */
    public boolean matchesEmpty() {
        return matches("");
    }

    private static void compile(String regex) {
        anchored(regex);
    }

    /** The compiled regex; match a whole value with {@code matcher(v).matches()} (label matchers are anchored). */
    static Pattern anchored(String regex) {
        return GoRegex.compileSearch(regex);
    }

    @Override
    public String toString() {
        return name + type.symbol() + GoStrings.quote(value);
    }
}
