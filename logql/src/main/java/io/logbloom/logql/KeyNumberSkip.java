package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * For a {@link ColumnarPipeline} that starts {@code | logfmt | key <op> number} (maybe as the left side of an {@code
 * and}: it refuses what its left side refuses; logfmt not strict, without parameters; the key ASCII letters only: one
 * line token, and no other raw key sanitises to it): a row whose every occurrence of the key's token is followed by
 * {@code =}, a number the filter refuses and a space, and that holds no token with "error", is rejected whatever else
 * it holds ({@link TokenizedLines#skipRowUnlessKeyNumber}); the filter would refuse the key's first value, or find no
 * key and refuse the row as well.
 */
record KeyNumberSkip(int slot, byte[] key, java.util.function.LongPredicate keeps) {
    static KeyNumberSkip of(List<Stage> stages, Map<String, Integer> slots) {
        if (stages.size() < 2 || !(stages.get(0) instanceof Stage.Logfmt l) || l.strict() || !l.params().isEmpty()
                || !(stages.get(1) instanceof Stage.LabelFilterStage f)) {
            return null;
        }
        LabelFilter first = f.filter();
        while (first instanceof LabelFilter.And a) {
            first = a.left(); // an 'and' (or ',') refuses a row its left side refuses
        }
        if (!(first instanceof LabelFilter.NumberFilter n)) {
            return null;
        }
        String name = n.name();
        if (!letters(name)) {
            return null;
        }
        LabelFilter.CompareOp op = n.op();
        double value = n.value();
        return new KeyNumberSkip(slots.get(name), name.getBytes(StandardCharsets.US_ASCII),
                v -> op.test((double) v, value));
    }

    /** Whether {@code name} is ASCII letters only: one line token, and no other raw logfmt key sanitises to it. */
    static boolean letters(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z');
    }
}
