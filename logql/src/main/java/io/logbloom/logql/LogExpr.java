package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A log query: a stream selector followed by pipeline stages. Immutable and thread-safe. */
public record LogExpr(List<Matcher> selector, List<Stage> stages) implements Expr {

    /** Copies the lists. */
    public LogExpr {
        selector = List.copyOf(requireNonNull(selector, "selector is null"));
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
    }
}
