package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A boolean condition over a chunk's bloom tokens that every chunk holding a matching line must satisfy
 * (see {@link BloomTests} for the extraction rules). Records are immutable and thread-safe.
 */
public sealed interface BloomTest {

    /** No constraint: the chunk cannot be skipped. */
    record MatchAll() implements BloomTest {
    }

    /** The chunk must contain an entry whose structured metadata has {@code key=value}. */
    record MetadataEquals(String key, String value) implements BloomTest {
        /** Validates. */
        public MetadataEquals {
            requireNonNull(key, "key is null");
            requireNonNull(value, "value is null");
        }
    }

    /** The chunk must contain a line containing this literal (case-sensitive); testable in n-gram mode. */
    record LineContains(String literal) implements BloomTest {
        /** Validates. */
        public LineContains {
            requireNonNull(literal, "literal is null");
            if (literal.isEmpty()) {
                throw new IllegalArgumentException("literal is empty");
            }
        }
    }

    /** All must hold. */
    record And(List<BloomTest> tests) implements BloomTest {
        /** Copies. */
        public And {
            tests = List.copyOf(tests);
        }
    }

    /** At least one must hold. */
    record Or(List<BloomTest> tests) implements BloomTest {
        /** Copies. */
        public Or {
            tests = List.copyOf(tests);
        }
    }

    /** The shared no-constraint value. */
    BloomTest MATCH_ALL = new MatchAll();

    /** True when this test can never skip a chunk. */
    default boolean isMatchAll() {
        return this instanceof MatchAll;
    }
}
