package io.logbloom.logql;

import static io.logbloom.logql.ColumnarPipeline.FALSE;
import static io.logbloom.logql.ColumnarPipeline.TRUE;
import static io.logbloom.logql.ColumnarPipeline.UNSURE;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A label filter of a {@link ColumnarPipeline} compiled to a row's slots: {@link ColumnarPipeline#TRUE}, {@link
 * ColumnarPipeline#FALSE} or {@link ColumnarPipeline#UNSURE} (the row path decides) for the row an {@link
 * ColumnarPipeline.Evaluator} holds. Immutable.
 */
interface LabelTest {
    int test(ColumnarPipeline.Evaluator row);

    /** {@code f} on the slots named in {@code slots} (a name it reads gets a slot there). */
    static LabelTest of(LabelFilter f, Map<String, Integer> slots) {
        if (f instanceof LabelFilter.And a) {
            LabelTest l = of(a.left(), slots);
            LabelTest r = of(a.right(), slots);
            return row -> {
                int x = l.test(row);
                return x == TRUE ? r.test(row) : x;
            };
        }
        if (f instanceof LabelFilter.Or o) {
            LabelTest l = of(o.left(), slots);
            LabelTest r = of(o.right(), slots);
            return row -> {
                int x = l.test(row);
                return x == FALSE ? r.test(row) : x;
            };
        }
        String name = LabelFilters.name(f);
        LabelTest test = leafTest(f, ColumnarPipeline.slot(name, slots));
        if (LineLabels.isError(name)) {
            // the slots hold what the parsers extract, not an error a parser set: the row path reads that
            return row -> row.errorEver() ? UNSURE : test.test(row);
        }
        return test;
    }

    private static LabelTest leafTest(LabelFilter f, int slot) {
        if (f instanceof LabelFilter.StringFilter s) {
            MatchType type = s.matcher().type();
            if (type == MatchType.EQUAL || type == MatchType.NOT_EQUAL) {
                byte[] want = s.matcher().value().getBytes(StandardCharsets.UTF_8);
                boolean equal = type == MatchType.EQUAL;
                return row -> row.valueEquals(slot, want) == equal ? TRUE : FALSE;
            }
            Predicate<String> p = s.matcher().compile();
            return row -> p.test(row.string(slot)) ? TRUE : FALSE;
        }
        if (f instanceof LabelFilter.IpFilter ip) {
            IpMatcher m = IpMatcher.parse(ip.pattern());
            return row -> {
                String v = row.string(slot);
                boolean pass = v == null ? ip.negated() : m.matches(v) != ip.negated();
                return pass ? TRUE : FALSE;
            };
        }
        if (f instanceof LabelFilter.NumberFilter n) {
            return row -> {
                if (!row.present(slot)) {
                    return FALSE;
                }
                double x = row.number(slot);
                return Double.isNaN(x) && row.numberFailed() ? UNSURE : n.op().test(x, n.value()) ? TRUE : FALSE;
            };
        }
        if (f instanceof LabelFilter.DurationFilter d) {
            return converted(slot, d.op(), d.nanos(), v -> (double) GoUnits.parseDuration(v));
        }
        LabelFilter.BytesFilter b = (LabelFilter.BytesFilter) f;
        return converted(slot, b.op(), b.bytes(), GoUnits::parseBytes);
    }

    interface Converter {
        double convert(String v);
    }

    private static LabelTest converted(int slot, LabelFilter.CompareOp op, double value, Converter conv) {
        return row -> {
            String v = row.string(slot);
            if (v == null) {
                return FALSE;
            }
            try {
                return op.test(conv.convert(v), value) ? TRUE : FALSE;
            } catch (IllegalArgumentException e) {
                return UNSURE; // the row path marks the line with the conversion error
            }
        };
    }
}
