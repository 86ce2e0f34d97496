package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A log selector with its pipeline, asked line by line: does this stream match the selector, and does
 * this entry pass the pipeline (line filters, parsers, label filters)? Loki's delete requests are log
 * selector expressions applied this way (a line is deleted when its stream matches and it passes the
 * pipeline). Not thread-safe: the compiled pipeline keeps a scratch label set; use {@link #copy()} per
 * thread.
 */
public final class LogSelection {
    private final LogExpr expr;
    private final List<Predicate<Map<String, String>>> matchers;
    private final Pipeline pipeline;

    private LogSelection(LogExpr expr) {
        this.expr = expr;
        this.matchers = new ArrayList<>(expr.selector().size());
        for (Matcher m : expr.selector()) {
            Predicate<String> value = m.compile();
            matchers.add(labels -> value.test(labels.get(m.name())));
        }
        this.pipeline = Pipeline.compile(expr.stages());
    }

    /**
     * Parses {@code query}, which must be a log query (a selector with an optional pipeline); a metric
     * query or a pipeline that cannot be built throws {@link IllegalArgumentException} with the reason.
     */
    public static LogSelection parse(String query) {
        requireNonNull(query, "query is null");
        Expr parsed;
        try {
            parsed = LogQL.parse(query);
        } catch (LogQLParseException | LogQLValidationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(parsed instanceof LogExpr log)) {
            throw new IllegalArgumentException("expected a log selector expression, got a metric query: " + query);
        }
        return new LogSelection(log);
    }

    /** The stream selector's matchers. */
    public List<Matcher> selector() {
        return expr.selector();
    }

    /** Whether the expression has pipeline stages (a bare selector matches every line of its streams). */
    public boolean hasPipeline() {
        return !expr.stages().isEmpty();
    }

    /** Whether a stream with these labels matches the selector (a missing label reads as ""). */
    public boolean matchesStream(Map<String, String> streamLabels) {
        for (Predicate<Map<String, String>> m : matchers) {
            if (!m.test(streamLabels)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the entry passes the pipeline (its stream is assumed to match the selector). */
    public boolean passesPipeline(long timestampNanos, String line, Map<String, String> streamLabels,
            Map<String, String> metadata) {
        return expr.stages().isEmpty() || pipeline.process(timestampNanos, line, streamLabels, metadata) != null;
    }

    /** An independent instance for another thread. */
    public LogSelection copy() {
        return new LogSelection(expr);
    }
}
