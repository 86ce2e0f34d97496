package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.LogRange;
import io.logbloom.logql.SampleExpr.RangeOp;
import io.logbloom.logql.SampleExpr.Unwrap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The sample one log entry yields for a range aggregation, row at a time: the entry runs through the compiled
 * {@link Pipeline}; then, for an {@code unwrap}, the label's value is converted (a line without it yields no
 * sample) and the post-unwrap label filters run; otherwise the sample weighs 1, or the line's UTF-8 length for
 * the byte functions. The caller decides what an {@code __error__} label means ({@link #preservesErrors()}).
 * Not thread-safe: it reuses the pipeline's label scratch per entry.
 */
final class RowSampler {
    private final Pipeline pipeline;
    private final Unwrap unwrap;
    private final boolean lineBytes;
    private final boolean keepsUnwrapLabel;
    private final boolean preservesErrors;
    private final List<Predicate<LineLabels>> post = new ArrayList<>();
    private double value;

    /** {@code keepsUnwrapLabel}: as Loki, the unwrapped label stays a label only when a by() grouping names it. */
    RowSampler(LogRange range, RangeOp op, boolean keepsUnwrapLabel) {
        this.pipeline = Pipeline.compile(range.log().stages());
        this.unwrap = range.unwrap();
        this.lineBytes = op == RangeOp.BYTES_OVER_TIME || op == RangeOp.BYTES_RATE;
        this.keepsUnwrapLabel = keepsUnwrapLabel;
        this.preservesErrors = filtersOnError(range);
        if (unwrap != null) {
            for (LabelFilter f : unwrap.postFilters()) {
                post.add(Pipeline.labelFilter(f));
            }
        }
    }

    /** As Loki's parser hints: a query that filters on __error__ asked for its errors, so they are no failure. */
    boolean preservesErrors() {
        return preservesErrors;
    }

    /** Runs one entry; true when it yields a sample, whose value is {@link #value()} and labels {@link #labels()}. */
    boolean sample(long ts, String line, Map<String, String> streamLabels, Map<String, String> metadata) {
        String out = pipeline.process(ts, line, streamLabels, metadata);
        if (out == null) {
            return false;
        }
        LineLabels labels = pipeline.labels();
        if (unwrap == null) {
            value = lineBytes ? out.getBytes(StandardCharsets.UTF_8).length : 1;
            return true;
        }
        String raw = labels.get(unwrap.label());
        if (raw == null || raw.isEmpty()) {
            return false; // Loki: a line without the unwrapped label yields no sample and no error
        }
        if (!keepsUnwrapLabel) {
            labels.delete(unwrap.label());
        }
        value = unwrapValue(unwrap, raw, labels);
        for (Predicate<LineLabels> p : post) {
            if (!p.test(labels)) {
                return false;
            }
        }
        return true;
    }

    /** The value of the last sample. */
    double value() {
        return value;
    }

    /** The labels of the last entry. */
    LineLabels labels() {
        return pipeline.labels();
    }

    private static boolean filtersOnError(LogRange lr) {
        for (Stage s : lr.log().stages()) {
            if (s instanceof Stage.LabelFilterStage f && namesError(f.filter())) {
                return true;
            }
        }
        if (lr.unwrap() != null) {
            for (LabelFilter f : lr.unwrap().postFilters()) {
                if (namesError(f)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean namesError(LabelFilter f) {
        if (f instanceof LabelFilter.And a) {
            return namesError(a.left()) || namesError(a.right());
        }
        if (f instanceof LabelFilter.Or o) {
            return namesError(o.left()) || namesError(o.right());
        }
        return LabelFilters.name(f).equals(LineLabels.ERROR);
    }

    /** An unwrapped value as Loki converts it; a failure replaces the error label and yields 0. */
    static double unwrapValue(Unwrap u, String v, LineLabels labels) {
        try {
            return convert(u, v);
        } catch (IllegalArgumentException e) {
            labels.replaceError(Pipeline.SAMPLE_ERROR, e.getMessage()); // Loki overwrites an earlier parser error
            return 0;
        }
    }

    /** Converts an unwrapped value. @throws IllegalArgumentException worded as Loki when it does not convert */
    static double convert(Unwrap u, String v) {
        return switch (u.conversion()) {
            case NONE -> GoStrings.parseFloat(v);
            case DURATION, DURATION_SECONDS -> GoUnits.durationSeconds(v);
            case BYTES -> GoUnits.parseBytes(v);
        };
    }
}
