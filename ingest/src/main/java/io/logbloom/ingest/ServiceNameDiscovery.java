package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import java.util.List;
import java.util.Objects;

/**
 * Loki's {@code discover_service_name}: a stream without a {@code service_name} label gets one
 * from the first label of the configured list that it carries, else {@code unknown_service}
 * (Loki's {@code distributor.go}, {@code ServiceUnknown}). Streams whose labels do not parse are
 * returned unchanged so the validator reports them with its own message. Thread-safe (immutable).
 */
public final class ServiceNameDiscovery {
    /** The label Grafana Logs Drilldown groups by. */
    public static final String SERVICE_NAME = "service_name";
    /** Loki's value when no label of the list is present. */
    public static final String UNKNOWN_SERVICE = "unknown_service";

    private final List<String> sourceLabels;

    /** Discovery from {@code sourceLabels}, tried in order (must not be empty: an empty list means "off"). */
    public ServiceNameDiscovery(List<String> sourceLabels) {
        this.sourceLabels = List.copyOf(Objects.requireNonNull(sourceLabels, "sourceLabels is null"));
        if (this.sourceLabels.isEmpty()) {
            throw new IllegalArgumentException("service name discovery needs at least one source label");
        }
    }

    /** {@code labels} (a push stream's selector text) with {@code service_name} appended when missing. */
    public String discover(String labels) {
        List<Label> pairs;
        try {
            pairs = LabelsParser.parse(labels);
        } catch (IllegalArgumentException invalid) {
            return labels;
        }
        if (pairs.isEmpty()) {
            return labels;
        }
        String value = serviceName(pairs);
        if (value == null) {
            return labels;
        }
        return withLabel(labels, SERVICE_NAME, value);
    }

    /** {@code labels} (a parsed, non-empty selector) with one more pair appended before its closing brace. */
    static String withLabel(String labels, String name, String value) {
        int close = labels.lastIndexOf('}');
        StringBuilder sb = new StringBuilder(labels.length() + name.length() + value.length() + 8);
        sb.append(labels, 0, close).append(", ").append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
        return sb.append("\"}").toString();
    }

    /** The service name to add to {@code pairs}, or null when they already carry one. */
    String serviceName(List<Label> pairs) {
        for (Label l : pairs) {
            if (l.name().equals(SERVICE_NAME)) {
                return null;
            }
        }
        for (String source : sourceLabels) {
            for (Label l : pairs) {
                if (l.name().equals(source) && !l.value().isEmpty()) {
                    return l.value();
                }
            }
        }
        return UNKNOWN_SERVICE;
    }
}
