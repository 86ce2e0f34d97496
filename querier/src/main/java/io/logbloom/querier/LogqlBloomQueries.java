package io.logbloom.querier;

import io.logbloom.logql.BloomTest;
import io.logbloom.logql.BloomTests;
import io.logbloom.logql.LogExpr;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps the LogQL module's sound {@link BloomTest} (what every matching line must carry) onto the
 * querier's {@link BloomQuery}; the per-stream rule that a stream label shadows a metadata test is
 * applied later by the chunk tester. Stateless and thread-safe.
 */
public final class LogqlBloomQueries {
    private LogqlBloomQueries() {}

    /** The bloom query of one log expression. */
    public static BloomQuery extract(LogExpr expr) {
        return from(BloomTests.extract(expr));
    }

    /** The same condition as a querier bloom query. */
    static BloomQuery from(BloomTest test) {
        if (test instanceof BloomTest.MetadataEquals eq) {
            return new BloomQuery.MetadataEquals(eq.key(), eq.value());
        }
        if (test instanceof BloomTest.LineContains lc) {
            return new BloomQuery.LineContains(lc.literal());
        }
        if (test instanceof BloomTest.And and) {
            return new BloomQuery.And(all(and.tests()));
        }
        if (test instanceof BloomTest.Or or) {
            return new BloomQuery.Or(all(or.tests()));
        }
        return BloomQuery.matchAll();
    }

    private static List<BloomQuery> all(List<BloomTest> tests) {
        List<BloomQuery> out = new ArrayList<>(tests.size());
        for (BloomTest t : tests) {
            out.add(from(t));
        }
        return out;
    }
}
