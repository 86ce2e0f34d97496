package io.logbloom.loadtest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many acknowledged lines contain each of some texts (case-sensitive, as LogQL's {@code |= "text"}), so a later
 * count such as {@code sum(count_over_time({run="…"} |= "status=500" [...]))} can be checked against the truth rather
 * than only against another server. A body's lines are counted when it is generated ({@link #count}); the counts are
 * added once the server acknowledged it ({@link #acknowledged}).
 *
 * <p>Thread-safe: the texts are immutable, the totals are adders.
 */
final class LineTally {
    private final List<String> texts;
    private final LongAdder[] totals;

    LineTally(List<String> texts) {
        for (String text : texts) {
            if (text.isEmpty()) {
                throw new IllegalArgumentException("--count-lines-containing needs a non-empty text");
            }
        }
        this.texts = List.copyOf(texts);
        this.totals = new LongAdder[this.texts.size()];
        for (int i = 0; i < totals.length; i++) {
            totals[i] = new LongAdder();
        }
    }

    /** Per text, in order, the lines of {@code batch} that contain it; an empty array when no text is tallied. */
    int[] count(PushBatch batch) {
        int[] counts = new int[texts.size()];
        if (counts.length == 0) {
            return counts;
        }
        for (LogStream stream : batch.streams()) {
            for (LogEntry entry : stream.entries()) {
                for (int i = 0; i < counts.length; i++) {
                    if (entry.line().contains(texts.get(i))) {
                        counts[i]++;
                    }
                }
            }
        }
        return counts;
    }

    /** Adds the counts of an acknowledged body, as {@link #count} returned them. */
    void acknowledged(int[] counts) {
        for (int i = 0; i < counts.length; i++) {
            totals[i].add(counts[i]);
        }
    }

    /** Per text, in the order given, the acknowledged lines containing it so far. */
    Map<String, Long> totals() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < totals.length; i++) {
            out.put(texts.get(i), totals[i].sum());
        }
        return out;
    }
}
