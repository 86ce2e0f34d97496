package io.logbloom.index;

import io.logbloom.chunks.TenantIds;
import java.util.List;
import java.util.Objects;

/** Argument checks shared by every {@link IndexReader} so that all views reject the same input. Stateless and thread-safe. */
final class Selectors {
    private Selectors() {}

    /**
     * Rejects a selector whose every matcher matches the empty string, as Loki does: such a selector
     * would select every series of the tenant. An empty list means "all series" and is allowed.
     */
    static void validateMatchers(List<LabelMatcher> matchers) {
        Objects.requireNonNull(matchers, "matchers is null");
        if (matchers.isEmpty()) {
            return;
        }
        for (LabelMatcher matcher : matchers) {
            if (!matcher.matchesEmpty()) {
                return;
            }
        }
        throw new IllegalArgumentException("queries require at least one regexp or equality matcher that does not"
                + " have an empty-compatible value. For instance, app=~\".*\" does not meet this requirement, but"
                + " app=~\".+\" will; selector: " + matchers);
    }

    /** Validates tenant, matchers and the range [fromNanos, throughNanos) of a lookup. */
    static void validateLookup(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        validateMatchers(matchers);
        if (throughNanos < fromNanos) {
            throw new IllegalArgumentException("range through " + throughNanos + " is before from " + fromNanos);
        }
    }
}
