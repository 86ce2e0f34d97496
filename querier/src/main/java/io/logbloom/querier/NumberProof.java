package io.logbloom.querier;

import io.logbloom.chunks.ColumnarNumberFilter;
import io.logbloom.logql.LineFilterBytes;
import java.util.List;

/**
 * Whether a block's {@link ColumnarNumberFilter} proves that no row of the block passes a chain of literal line
 * filters: each literal with inner numbers ({@link ColumnarNumberFilter#requiredNumbers}) whose numbers the filter
 * lacks is absent from every row; the block is ruled out when the chain rejects a row for every presence of the other
 * literals (so a negated filter, {@code != "ts=5 "}, is never fooled: an absent literal passes it). With more than
 * {@value #MAX_UNKNOWN} other literals the proof is not tried.
 *
 * <p>Immutable and thread-safe.
 */
final class NumberProof {
    /** Each literal left unknown doubles the chain evaluations; chains of many literals are rare. */
    static final int MAX_UNKNOWN = 4;

    private final LineFilterBytes filter;
    /** Per literal index of the chain, its required numbers (empty: none). */
    private final long[][] required;

    private NumberProof(LineFilterBytes filter, long[][] required) {
        this.filter = filter;
        this.required = required;
    }

    /** The proof for {@code filter}, or null when none of its literals has an inner number (or it is not literal). */
    static NumberProof of(LineFilterBytes filter) {
        List<byte[]> literals = filter.literals();
        if (literals == null || literals.isEmpty()) {
            return null;
        }
        long[][] required = new long[literals.size()][];
        boolean any = false;
        for (int i = 0; i < required.length; i++) {
            required[i] = ColumnarNumberFilter.requiredNumbers(literals.get(i));
            any |= required[i].length > 0;
        }
        return any ? new NumberProof(filter, required) : null;
    }

    /** Whether no row of the block {@code numbers} describes can pass the chain. */
    boolean rulesOut(ColumnarNumberFilter numbers) {
        boolean[] absent = new boolean[required.length];
        int[] unknown = new int[required.length];
        int unknowns = 0;
        boolean anyAbsent = false;
        for (int i = 0; i < required.length; i++) {
            absent[i] = required[i].length > 0 && !numbers.mayContainAll(required[i]);
            anyAbsent |= absent[i];
            if (!absent[i]) {
                unknown[unknowns++] = i;
            }
        }
        if (!anyAbsent || unknowns > MAX_UNKNOWN) {
            return false;
        }
        boolean[] present = new boolean[required.length];
        for (int assignment = 0; assignment < 1 << unknowns; assignment++) {
            for (int u = 0; u < unknowns; u++) {
                present[unknown[u]] = (assignment & (1 << u)) != 0;
            }
            if (filter.test(k -> present[k])) {
                return false; // a row with these literals present would pass
            }
        }
        return true;
    }
}
