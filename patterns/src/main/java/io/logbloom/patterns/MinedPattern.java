package io.logbloom.patterns;

import java.util.List;
import java.util.Objects;

/**
 * One pattern answered by {@link PatternMiner#patterns}: the template, the detected level of its lines
 * (empty when unknown), and its line counts per step. Immutable.
 */
public record MinedPattern(String pattern, String level, List<Sample> samples) {
    public MinedPattern {
        Objects.requireNonNull(pattern, "pattern is null");
        Objects.requireNonNull(level, "level is null");
        samples = List.copyOf(samples);
    }

    /** Lines of a pattern in the step starting at {@code timestampMillis}. */
    public record Sample(long timestampMillis, long count) {}

    /** The sum of the sample counts. */
    public long total() {
        long sum = 0;
        for (Sample s : samples) {
            sum += s.count();
        }
        return sum;
    }
}
