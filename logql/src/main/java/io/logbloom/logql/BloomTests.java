package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;

/**
 * Extracts from a log query the {@link BloomTest} a chunk must pass to possibly hold a matching line. The
 * result is <b>sound</b>: if it is false for a chunk, no line of that chunk can pass the pipeline, so the chunk
 * can be skipped without changing the query result. Pipeline stages are conjunctive, so the tests of the
 * stages are combined with AND; anything not provably required becomes {@link BloomTest.MatchAll}.
 *
 * <p>Rules, walking the stages in order:
 * <ul>
 * <li>{@code |= "a"} → LineContains(a); {@code |= "a" or "b"} → Or; an empty literal or an {@code ip()} term
 * → MatchAll. Only before the first stage that rewrites the line ({@code line_format}, {@code decolorize},
 * {@code unpack}); parsers do not rewrite the line, so line filters after them still count.</li>
 * <li>{@code |~ "re"} → the literal substrings every match of the regex must contain (a conservative scan: a
 * top-level alternation becomes Or, literal runs become LineContains, groups, classes, escapes like \w, and
 * characters under {@code * ? {}} end a run; a leading flag group like {@code (?i)} gives MatchAll).
 * {@code |> "pattern"} → its literal parts.</li>
 * <li>Negated filters ({@code !=}, {@code !~}, {@code !>}) → MatchAll.</li>
 * <li>Label filter {@code name="v"} (v non-empty) → MetadataEquals(name, v), {@code name=~"a|b"} of plain
 * literals → Or of MetadataEquals; {@code and}/{@code or} combine. Only before any stage that can create or
 * change labels (json, logfmt, regexp, pattern, unpack, label_format): after them the label may come from the
 * parser. {@code drop}/{@code keep} only remove labels, so an equality that then fails matches nothing and the
 * test stays sound. Names starting with {@code __} and names ending in {@code _extracted} (metadata renamed
 * on a clash with a stream label) → MatchAll.</li>
 * <li>Numeric, duration, bytes, ip label filters, {@code !=}, {@code !~} → MatchAll.</li>
 * </ul>
 * <b>Caller's duty</b>: a label filter also matches stream labels, so MetadataEquals(k, v) may only be used to
 * skip a chunk of a stream whose labels do not contain {@code k}; the querier checks this per stream (or uses
 * {@link #withoutMetadata(BloomTest, java.util.Set)}). LineContains needs the n-gram tokenizer; without it use
 * {@link #withoutLineContains(BloomTest)}. Stateless and thread-safe.
 */
public final class BloomTests {

    private BloomTests() {
    }

    /** Answers token questions about one chunk; used by {@link #mayMatch}. */
    public interface Probe {
        /** True when the chunk may hold an entry with structured metadata key=value. */
        boolean mayContainMetadata(String key, String value);

        /** True when the chunk may hold a line containing the literal. */
        boolean mayContainLine(String literal);
    }

    /** The simplified bloom test of a log query. */
    public static BloomTest extract(LogExpr e) {
        List<BloomTest> parts = new ArrayList<>();
        boolean labelsMayChange = false;
        boolean lineRewritten = false;
        for (Stage s : e.stages()) {
            if (s instanceof Stage.LineFilter f) {
                if (!lineRewritten) {
                    parts.add(lineFilter(f));
                }
            } else if (s instanceof Stage.LabelFilterStage f) {
                if (!labelsMayChange) {
                    parts.add(labelFilter(f.filter()));
                }
            } else if (s instanceof Stage.LineFormat || s instanceof Stage.Decolorize) {
                lineRewritten = true;
            } else if (s instanceof Stage.Unpack) {
                lineRewritten = true;
                labelsMayChange = true;
            } else if (s instanceof Stage.Json || s instanceof Stage.Logfmt || s instanceof Stage.Regexp
                    || s instanceof Stage.PatternParser || s instanceof Stage.LabelFormat) {
                labelsMayChange = true;
            }
        }
        return and(parts);
    }

    /** The bloom test of each log expression of any query (metric queries read several), in query order. */
    public static List<BloomTest> extractAll(Expr e) {
        List<BloomTest> out = new ArrayList<>();
        for (LogExpr l : LogQL.logExprs(e)) {
            out.add(extract(l));
        }
        return out;
    }

    /** Evaluates a test against a chunk's tokens: false means the chunk can be skipped. */
    public static boolean mayMatch(BloomTest t, Probe probe) {
        if (t instanceof BloomTest.MatchAll) {
            return true;
        }
        if (t instanceof BloomTest.MetadataEquals m) {
            return probe.mayContainMetadata(m.key(), m.value());
        }
        if (t instanceof BloomTest.LineContains l) {
            return probe.mayContainLine(l.literal());
        }
        if (t instanceof BloomTest.And a) {
            for (BloomTest x : a.tests()) {
                if (!mayMatch(x, probe)) {
                    return false;
                }
            }
            return true;
        }
        for (BloomTest x : ((BloomTest.Or) t).tests()) {
            if (mayMatch(x, probe)) {
                return true;
            }
        }
        return false;
    }

    /** Replaces LineContains by MatchAll (for blooms built without n-grams). */
    public static BloomTest withoutLineContains(BloomTest t) {
        return replace(t, x -> x instanceof BloomTest.LineContains);
    }

    /** Replaces MetadataEquals on the given label names (e.g. a stream's own label names) by MatchAll. */
    public static BloomTest withoutMetadata(BloomTest t, java.util.Set<String> labelNames) {
        return replace(t, x -> x instanceof BloomTest.MetadataEquals m && labelNames.contains(m.key()));
    }

    private static BloomTest replace(BloomTest t, java.util.function.Predicate<BloomTest> drop) {
        if (drop.test(t)) {
            return BloomTest.MATCH_ALL;
        }
        if (t instanceof BloomTest.And a) {
            List<BloomTest> out = new ArrayList<>();
            a.tests().forEach(x -> out.add(replace(x, drop)));
            return and(out);
        }
        if (t instanceof BloomTest.Or o) {
            List<BloomTest> out = new ArrayList<>();
            o.tests().forEach(x -> out.add(replace(x, drop)));
            return or(out);
        }
        return t;
    }

    /** AND with flattening; MatchAll parts vanish; no parts is MatchAll. */
    static BloomTest and(List<BloomTest> parts) {
        List<BloomTest> out = new ArrayList<>();
        for (BloomTest p : parts) {
            if (p instanceof BloomTest.And a) {
                out.addAll(a.tests());
            } else if (!p.isMatchAll() && !out.contains(p)) {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            return BloomTest.MATCH_ALL;
        }
        return out.size() == 1 ? out.get(0) : new BloomTest.And(out);
    }

    /** OR with flattening; any MatchAll part makes it MatchAll. */
    static BloomTest or(List<BloomTest> parts) {
        List<BloomTest> out = new ArrayList<>();
        for (BloomTest p : parts) {
            if (p.isMatchAll()) {
                return BloomTest.MATCH_ALL;
            }
            if (p instanceof BloomTest.Or o) {
                out.addAll(o.tests());
            } else if (!out.contains(p)) {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            return BloomTest.MATCH_ALL;
        }
        return out.size() == 1 ? out.get(0) : new BloomTest.Or(out);
    }

    private static BloomTest lineFilter(Stage.LineFilter f) {
        if (f.op().negated()) {
            return BloomTest.MATCH_ALL;
        }
        List<BloomTest> alternatives = new ArrayList<>();
        for (Stage.FilterTerm t : f.terms()) {
            if (t.ip()) {
                return BloomTest.MATCH_ALL;
            }
            alternatives.add(switch (f.op()) {
                case CONTAINS -> t.value().isEmpty() ? BloomTest.MATCH_ALL : new BloomTest.LineContains(t.value());
                case MATCHES -> RegexLiterals.required(t.value());
                default -> patternLiterals(t.value());
            });
        }
        return or(alternatives);
    }

    private static BloomTest patternLiterals(String pattern) {
        List<BloomTest> parts = new ArrayList<>();
        for (String lit : LinePattern.parse(pattern, false).literals()) {
            parts.add(new BloomTest.LineContains(lit));
        }
        return and(parts);
    }

    private static BloomTest labelFilter(LabelFilter f) {
        if (f instanceof LabelFilter.And a) {
            return and(List.of(labelFilter(a.left()), labelFilter(a.right())));
        }
        if (f instanceof LabelFilter.Or o) {
            return or(List.of(labelFilter(o.left()), labelFilter(o.right())));
        }
        if (f instanceof LabelFilter.StringFilter s) {
            Matcher m = s.matcher();
            if (m.name().startsWith("__") || m.name().endsWith(LineLabels.DUPLICATE_SUFFIX)) {
                return BloomTest.MATCH_ALL;
            }
            if (m.type() == MatchType.EQUAL && !m.value().isEmpty()) {
                return new BloomTest.MetadataEquals(m.name(), m.value());
            }
            if (m.type() == MatchType.REGEX) {
                List<String> values = RegexLiterals.literalAlternatives(m.value());
                if (values == null || values.contains("")) {
                    return BloomTest.MATCH_ALL;
                }
                List<BloomTest> alts = new ArrayList<>();
                values.forEach(v -> alts.add(new BloomTest.MetadataEquals(m.name(), v)));
                return or(alts);
            }
        }
        return BloomTest.MATCH_ALL;
    }
}
