package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.ArrayList;
import java.util.List;

/** Helpers shared by the index tests. */
final class IndexFixtures {
    private IndexFixtures() {}

    /** A matcher from its operator text ({@code = != =~ !~}). */
    static LabelMatcher m(String name, String op, String value) {
        LabelMatcher.MatchType type = switch (op) {
            case "=" -> LabelMatcher.MatchType.EQUAL;
            case "!=" -> LabelMatcher.MatchType.NOT_EQUAL;
            case "=~" -> LabelMatcher.MatchType.REGEX;
            case "!~" -> LabelMatcher.MatchType.NOT_REGEX;
            default -> throw new IllegalArgumentException("unknown operator " + op);
        };
        return LabelMatcher.of(type, name, value);
    }

    /** Matchers from triples name, op, value. */
    static List<LabelMatcher> sel(String... triples) {
        List<LabelMatcher> out = new ArrayList<>();
        for (int i = 0; i < triples.length; i += 3) {
            out.add(m(triples[i], triples[i + 1], triples[i + 2]));
        }
        return out;
    }

    /** A chunk ref of {@code labels} covering [from, through] with a checksum derived from both. */
    static ChunkRef ref(String tenant, Labels labels, long from, long through) {
        return new ChunkRef(tenant, labels.fingerprint(), from, through, (int) (from * 31 + through), 1000, 10);
    }
}
