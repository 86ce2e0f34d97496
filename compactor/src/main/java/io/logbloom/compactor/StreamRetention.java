package io.logbloom.compactor;

import io.logbloom.logql.LogSelection;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One {@code retention_stream} rule as in Loki's limits: streams matching {@code selector} keep their
 * entries for {@code period}; among matching rules the highest {@code priority} wins, and on a tie the
 * shortest period. Immutable and thread-safe.
 *
 * @param selector the stream selector text, e.g. {@code {namespace="dev"}}
 * @param period how long matching streams are kept (at least {@link RetentionLimits#MIN_PERIOD})
 * @param priority higher wins when several rules match
 */
public record StreamRetention(String selector, Duration period, int priority) {
    public StreamRetention {
        Objects.requireNonNull(selector, "selector is null");
        Objects.requireNonNull(period, "period is null");
        RetentionLimits.validatePeriod("retention_stream period", period, false);
        LogSelection parsed = LogSelection.parse(selector);
        if (parsed.hasPipeline()) {
            throw new IllegalArgumentException("retention_stream selector must be a stream selector only: " + selector);
        }
    }

    /** A predicate over stream labels that is true when this rule's selector matches them. */
    Predicate<Map<String, String>> compile() {
        LogSelection parsed = LogSelection.parse(selector);
        return parsed::matchesStream;
    }
}
