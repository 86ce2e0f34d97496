package io.logbloom.logql;

/** A parsed LogQL query: a log query or a metric (sample) query. Implementations are immutable records. */
public sealed interface Expr permits LogExpr, SampleExpr {
}
