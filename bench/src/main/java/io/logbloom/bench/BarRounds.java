package io.logbloom.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Repeated bar measurements of several servers: the order each round measures them in, and the per-metric medians
 * over the rounds.
 *
 * <p>Why alternate: on a shared two-core box the servers of one run are measured one after the other, and the one
 * measured second meets a warmer client JVM, page cache and disk: two runs of the same two jars, the order swapped,
 * each favoured the one measured second (count of every line 4.9 against 9.7 ms, then 10.5 against 13.1 ms).
 * Reversing the order every other round puts each server first as often as second, and medians keep one disturbed
 * round from deciding. Stateless.
 */
final class BarRounds {
    private BarRounds() {}

    /** The labels in the order round {@code round} (0-based) measures them: as given, reversed every other round. */
    static List<String> order(List<String> labels, int round) {
        if (round < 0) {
            throw new IllegalArgumentException("round must not be negative, got " + round);
        }
        List<String> ordered = new ArrayList<>(labels);
        if (round % 2 == 1) {
            Collections.reverse(ordered);
        }
        return ordered;
    }

    /**
     * Per metric, the median of its values over {@code rounds} (a metric some round lacks is the median of the rounds
     * that have it), in the order the metrics first appear.
     */
    static Map<String, Double> medians(List<Map<String, Double>> rounds) {
        Set<String> metrics = new LinkedHashSet<>();
        rounds.forEach(r -> metrics.addAll(r.keySet()));
        Map<String, Double> out = new LinkedHashMap<>();
        for (String metric : metrics) {
            List<Double> values = new ArrayList<>();
            for (Map<String, Double> r : rounds) {
                Double v = r.get(metric);
                if (v != null && !v.isNaN()) {
                    values.add(v);
                }
            }
            out.put(metric, ServerBarReport.median(values));
        }
        return out;
    }
}
