package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

/** Checks a columnar evaluator's verdict on one row against the row-at-a-time reference sampling the same row. */
final class ReferenceAgreement {
    private ReferenceAgreement() {}

    /**
     * Samples {@code line} with {@code sampler} and asserts that {@code verdict} (the evaluator's answer for it)
     * agrees: declined exactly where the reference meets an error it does not preserve, passed exactly where the
     * reference samples, with the same value. Returns whether the row passed.
     */
    static boolean agrees(int verdict, ColumnarPipeline.Evaluator evaluator, RowSampler sampler, long ts, String line,
            Map<String, String> stream) {
        return agrees(verdict, evaluator, sampler, ts, line, stream, Map.of());
    }

    /** As above, for a row carrying structured metadata {@code metadata}. */
    static boolean agrees(int verdict, ColumnarPipeline.Evaluator evaluator, RowSampler sampler, long ts, String line,
            Map<String, String> stream, Map<String, String> metadata) {
        boolean sample = sampler.sample(ts, line, stream, metadata);
        boolean error = sample && sampler.labels().hasError() && !sampler.preservesErrors();
        if (verdict == ColumnarPipeline.DECLINE) {
            assertThat(error).as("declined %s", line).isTrue();
            return false;
        }
        assertThat(error).as("error missed on %s", line).isFalse();
        assertThat(verdict == ColumnarPipeline.PASS).as(line).isEqualTo(sample);
        if (sample) {
            assertThat(evaluator.value()).as(line).isEqualTo(sampler.value());
        }
        return sample;
    }

    /**
     * As {@link #agrees(int, ColumnarPipeline.Evaluator, RowSampler, long, String, Map)}, and a row that passed falls
     * in the group of the values the reference's labels give the {@code by} names the parsers set ({@code
     * parsedGroups}: the grouped names that are not stream labels, error labels or the unwrapped one).
     */
    static boolean agrees(int verdict, ColumnarPipeline.Evaluator evaluator, RowSampler sampler, long ts, String line,
            Map<String, String> stream, java.util.Set<String> parsedGroups) {
        return agrees(verdict, evaluator, sampler, ts, line, stream, Map.of(), parsedGroups);
    }

    /** As above, for a row carrying structured metadata {@code metadata}. */
    static boolean agrees(int verdict, ColumnarPipeline.Evaluator evaluator, RowSampler sampler, long ts, String line,
            Map<String, String> stream, Map<String, String> metadata, java.util.Set<String> parsedGroups) {
        boolean sample = agrees(verdict, evaluator, sampler, ts, line, stream, metadata);
        if (sample && evaluator.grouping()) {
            Map<String, String> want = new java.util.HashMap<>();
            for (String g : parsedGroups) {
                String v = sampler.labels().get(g);
                if (v != null) {
                    want.put(g, v);
                }
            }
            assertThat(evaluator.groupLabels(evaluator.group())).as("group of %s", line).isEqualTo(want);
        }
        return sample;
    }
}
