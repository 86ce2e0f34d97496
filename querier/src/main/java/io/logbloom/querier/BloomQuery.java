package io.logbloom.querier;

import java.util.List;
import java.util.Objects;

/**
 * The part of a query a series bloom can answer, as the querier evaluates it per chunk: a tree of
 * token tests where every leaf is a condition that MUST hold for any line the query returns or
 * counts. {@link MatchAll} means "cannot decide, fetch". Immutable values.
 */
public sealed interface BloomQuery {
    /** Nothing testable: every chunk must be fetched. */
    record MatchAll() implements BloomQuery {}

    /** Every matching entry carries structured metadata {@code key=value}. */
    record MetadataEquals(String key, String value) implements BloomQuery {
        public MetadataEquals {
            Objects.requireNonNull(key, "key is null");
            Objects.requireNonNull(value, "value is null");
        }
    }

    /** Every matching entry carries structured metadata field {@code key}. */
    record MetadataExists(String key) implements BloomQuery {
        public MetadataExists {
            Objects.requireNonNull(key, "key is null");
        }
    }

    /** Every matching line contains {@code literal} (case-sensitive). */
    record LineContains(String literal) implements BloomQuery {
        public LineContains {
            Objects.requireNonNull(literal, "literal is null");
        }
    }

    /** All parts must hold. */
    record And(List<BloomQuery> parts) implements BloomQuery {
        public And {
            parts = List.copyOf(parts);
        }
    }

    /** At least one part must hold. */
    record Or(List<BloomQuery> parts) implements BloomQuery {
        public Or {
            parts = List.copyOf(parts);
        }
    }

    /** Judges one leaf: {@link MetadataEquals}, {@link MetadataExists} or {@link LineContains}. */
    @FunctionalInterface
    interface LeafTest {
        boolean mayHold(BloomQuery leaf);
    }

    /**
     * Whether the query may hold when each leaf is judged by {@code leaves}: {@link MatchAll} and an
     * empty {@link Or} always may, an {@link And} needs every part, an {@link Or} one part.
     */
    default boolean mayHold(LeafTest leaves) {
        if (this instanceof MatchAll) {
            return true;
        }
        if (this instanceof And and) {
            for (BloomQuery part : and.parts()) {
                if (!part.mayHold(leaves)) {
                    return false;
                }
            }
            return true;
        }
        if (this instanceof Or or) {
            if (or.parts().isEmpty()) {
                return true;
            }
            for (BloomQuery part : or.parts()) {
                if (part.mayHold(leaves)) {
                    return true;
                }
            }
            return false;
        }
        return leaves.mayHold(this);
    }

    /** The query that never allows skipping. */
    static BloomQuery matchAll() {
        return new MatchAll();
    }
}
