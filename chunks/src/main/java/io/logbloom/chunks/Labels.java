package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import net.openhft.hashing.LongHashFunction;

/**
 * A stream's label set: sorted by name, names unique, never empty, names valid per Loki's rules
 * ({@code [a-zA-Z_][a-zA-Z0-9_]*}). Immutable and thread-safe. The fingerprint is a stable 64-bit
 * XXH3 hash of the sorted pairs (name, 0xff, value, 0xff, ...), so it never changes across runs.
 */
public final class Labels implements Comparable<Labels> {
    private static final LongHashFunction HASH = LongHashFunction.xx3();

    private final List<Label> labels;
    private final long fingerprint;

    private Labels(List<Label> sorted) {
        this.labels = sorted;
        this.fingerprint = computeFingerprint(sorted);
    }

    /** Builds a label set from pairs; sorts them; rejects empty sets, invalid or duplicate names. */
    public static Labels of(List<Label> pairs) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("label set is empty");
        }
        Label[] sorted = pairs.toArray(new Label[0]);
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            validateName(sorted[i].name());
            if (i > 0 && sorted[i].name().equals(sorted[i - 1].name())) {
                throw new IllegalArgumentException("duplicate label name: " + sorted[i].name());
            }
        }
        return new Labels(List.of(sorted));
    }

    /** Builds a label set from a map. */
    public static Labels of(Map<String, String> map) {
        List<Label> pairs = new ArrayList<>(map.size());
        map.forEach((k, v) -> pairs.add(new Label(k, v)));
        return of(pairs);
    }

    /** Builds a label set from alternating names and values. */
    public static Labels of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("odd number of label names and values: " + namesAndValues.length);
        }
        List<Label> pairs = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            pairs.add(new Label(namesAndValues[i], namesAndValues[i + 1]));
        }
        return of(pairs);
    }

    /** Throws IllegalArgumentException naming the label when {@code name} breaks Loki's rules. */
    public static void validateName(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("invalid label name: empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9');
            if (!ok) {
                throw new IllegalArgumentException("invalid label name: '" + name + "'");
            }
        }
    }

    /** The sorted pairs. */
    public List<Label> list() {
        return labels;
    }

    /** The value of label {@code name}, or null when absent. */
    public String get(String name) {
        // indexed, not for-each: the list is List.of's (two classes), and its iterator is allocated per call where
        // the call site sees both; a needle asks this once per block it probes
        for (int i = 0, n = labels.size(); i < n; i++) {
            Label label = labels.get(i);
            if (label.name().equals(name)) {
                return label.value();
            }
        }
        return null;
    }

    /** The stable 64-bit fingerprint of this label set. */
    public long fingerprint() {
        return fingerprint;
    }

    /** The label names, sorted. */
    public List<String> names() {
        List<String> names = new ArrayList<>(labels.size());
        for (Label label : labels) {
            names.add(label.name());
        }
        return Collections.unmodifiableList(names);
    }

    private static long computeFingerprint(List<Label> sorted) {
        StringBuilder sb = new StringBuilder();
        for (Label label : sorted) {
            sb.append(label.name()).append('\u00ff').append(label.value()).append('\u00ff');
        }
        return HASH.hashBytes(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Prometheus/Loki selector syntax: {@code {a="b", c="d"}} with Go string escapes. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < labels.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Label label = labels.get(i);
            sb.append(label.name()).append("=\"");
            appendEscaped(sb, label.value());
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    private static void appendEscaped(StringBuilder sb, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Labels other && fingerprint == other.fingerprint && labels.equals(other.labels);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fingerprint);
    }

    @Override
    public int compareTo(Labels other) {
        int n = Math.min(labels.size(), other.labels.size());
        for (int i = 0; i < n; i++) {
            int c = labels.get(i).compareTo(other.labels.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(labels.size(), other.labels.size());
    }
}
