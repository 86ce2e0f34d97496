package io.logbloom.bench;

/**
 * Reads a sample sum out of a {@code /metrics} answer in the Prometheus text format, for reports that watch a
 * server's counters across a phase (for example whether a merge ran during a push).
 *
 * <p>Thread-safe: stateless.
 */
final class MetricsText {
    private MetricsText() {}

    /** The sum of every sample of {@code name} (all label sets; not {@code name_suffix} families), 0 when absent. */
    static double sum(String exposition, String name) {
        double total = 0;
        for (String line : exposition.split("\n")) {
            if (!line.startsWith(name) || line.length() == name.length()) {
                continue;
            }
            char next = line.charAt(name.length());
            if (next != '{' && next != ' ') {
                continue;
            }
            int end = next == '{' ? line.indexOf('}', name.length()) + 1 : name.length();
            String[] rest = line.substring(end).trim().split("\\s+");
            total += Double.parseDouble(rest[0]);
        }
        return total;
    }
}
