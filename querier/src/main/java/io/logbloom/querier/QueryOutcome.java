package io.logbloom.querier;

import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.MetricResult;
import java.util.Objects;

/** The result of a query with its statistics: log streams, or a metric matrix, vector or scalar. Immutable. */
public sealed interface QueryOutcome {
    /** The query's statistics. */
    QueryStatistics stats();

    /** A log query's streams. */
    record Logs(LogQueryResult result, QueryStatistics stats) implements QueryOutcome {
        public Logs {
            Objects.requireNonNull(result, "result is null");
            Objects.requireNonNull(stats, "stats is null");
        }
    }

    /** A metric query's matrix, vector or scalar. */
    record Metrics(MetricResult result, QueryStatistics stats) implements QueryOutcome {
        public Metrics {
            Objects.requireNonNull(result, "result is null");
            Objects.requireNonNull(stats, "stats is null");
        }
    }
}
