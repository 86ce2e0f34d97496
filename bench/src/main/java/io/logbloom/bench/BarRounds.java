package io.logbloom.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Repeated bar measurements of several servers: the order each round measures them in, the per-metric medians
 * over the rounds, and whether the servers' answers agree.
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

    /**
     * The answer metrics ({@code answers}) whose values are not the same for every server in every round, each as
     * {@code metric: label#round=value, ...} (rounds 1-based); empty when all agree. The harness pushes the same lines
     * every run, so a count that differs is a wrong answer, not noise. A metric some measurement lacks is left out of
     * the comparison for it (a sink server answers no queries).
     */
    static List<String> disagreements(Map<String, List<Map<String, Double>>> byServer, List<String> answers) {
        List<String> out = new ArrayList<>();
        for (String metric : answers) {
            Map<String, Double> seen = new LinkedHashMap<>();
            byServer.forEach((label, rounds) -> {
                for (int round = 0; round < rounds.size(); round++) {
                    Double v = rounds.get(round).get(metric);
                    if (v != null) {
                        seen.put(label + "#" + (round + 1), v);
                    }
                }
            });
            if (new LinkedHashSet<>(seen.values()).size() > 1) {
                StringBuilder line = new StringBuilder(metric).append(':');
                seen.forEach((where, v) -> line.append(' ').append(where).append('=').append(v.longValue()).append(','));
                line.setLength(line.length() - 1);
                out.add(line.toString());
            }
        }
        return out;
    }
}
