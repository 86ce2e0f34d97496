package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * For a {@link ColumnarPipeline} with a label filter that refuses a row without label {@code key} (its first
 * conjunct a string matcher on the key that does not accept the empty value, as Logs Drilldown's {@code field!=""}),
 * reached through nothing but {@code logfmt}, {@code json}, {@code drop}s of the error labels, line filters and other
 * label filters: a row whose tokens lack the key is rejected without a walk ({@link TokenizedLines#skipRowWithout}),
 * as is, without logfmt, a row that opens no JSON.
 * The key is ASCII letters only, so a logfmt pair can name it only as one whole line token (no other raw key sanitises
 * to it), and a string filter refuses a row without it whatever error an earlier stage set; the evaluator applies it
 * only where the line alone can set the label (not a stream label, not read from structured metadata, the logfmt
 * pair of that very key); to a row that opens JSON only where {@code json} may set the label from a member of its
 * name alone (without parameters; a row holding a backslash is walked, as an escape may spell the name), or cannot set it.
 */
record AbsentKeySkip(int slot, byte[] key) {
    static AbsentKeySkip of(List<Stage> stages, Map<String, Integer> slots) {
        for (Stage s : stages) {
            if (s instanceof Stage.LabelFilterStage f) {
                LabelFilter first = f.filter();
                while (first instanceof LabelFilter.And a) {
                    first = a.left(); // an 'and' (or ',') refuses a row its left side refuses
                }
                if (first instanceof LabelFilter.StringFilter sf && KeyNumberSkip.letters(sf.matcher().name())
                        && !sf.matcher().matchesEmpty()) {
                    String name = sf.matcher().name();
                    return new AbsentKeySkip(slots.get(name), name.getBytes(StandardCharsets.US_ASCII));
                }
            } else if (!(s instanceof Stage.Logfmt || s instanceof Stage.Json || s instanceof Stage.Drop
                    || s instanceof Stage.LineFilter)) {
                return null; // a stage that may set the label from something else than its key
            }
        }
        return null;
    }
}
