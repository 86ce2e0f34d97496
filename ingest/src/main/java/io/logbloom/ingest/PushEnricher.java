package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The enrichment step between decoding and {@link Ingester#push}: service-name discovery on each
 * stream's labels and {@code detected_level} structured metadata on each entry (Loki 3's distributor
 * defaults), each on or off by {@link PushEnrichmentConfig}. Entries that already carry
 * {@code detected_level} (as metadata or stream label) are left as they are. Thread-safe (immutable).
 */
public final class PushEnricher {
    private final ServiceNameDiscovery serviceNames;
    private final LogLevelDetector levels;

    /** An enricher doing what {@code config} turns on. */
    public PushEnricher(PushEnrichmentConfig config) {
        Objects.requireNonNull(config, "config is null");
        this.serviceNames = config.discoverServiceName().isEmpty() ? null
                : new ServiceNameDiscovery(config.discoverServiceName());
        this.levels = config.discoverLogLevels() ? new LogLevelDetector(config.logLevelFields()) : null;
    }

    /** {@code streams} with discovered service names and detected levels (the input itself when both are off). */
    public List<PushStream> enrich(List<PushStream> streams) {
        if (serviceNames == null && levels == null) {
            return streams;
        }
        List<PushStream> out = new ArrayList<>(streams.size());
        for (PushStream s : streams) {
            String labels = serviceNames == null ? s.labels() : serviceNames.discover(s.labels());
            List<LogEntry> entries = levels == null ? s.entries() : withLevels(labels, s.entries());
            out.add(labels == s.labels() && entries == s.entries() ? s : new PushStream(labels, entries));
        }
        return out;
    }

    /** {@code metadata} and then {@code pair}, immutable (so {@link LogEntry} keeps it without a copy). */
    private static List<Label> withPair(List<Label> metadata, Label pair) {
        return switch (metadata.size()) {
            case 0 -> List.of(pair);
            case 1 -> List.of(metadata.get(0), pair);
            default -> {
                Label[] all = metadata.toArray(new Label[metadata.size() + 1]);
                all[metadata.size()] = pair;
                yield List.of(all);
            }
        };
    }

    private List<LogEntry> withLevels(String labels, List<LogEntry> entries) {
        List<Label> pairs;
        try {
            pairs = LabelsParser.parse(labels);
        } catch (IllegalArgumentException invalid) {
            return entries;
        }
        for (Label l : pairs) {
            if (l.name().equals(LogLevelDetector.DETECTED_LEVEL)) {
                return entries;
            }
        }
        // a level from a stream label is the same for every entry: one label object for all of them
        String streamLevel = levels.streamLevel(pairs);
        Label streamLevelLabel = streamLevel == null ? null : new Label(LogLevelDetector.DETECTED_LEVEL, streamLevel);
        List<LogEntry> out = new ArrayList<>(entries.size());
        for (LogEntry e : entries) {
            if (e.metadataValue(LogLevelDetector.DETECTED_LEVEL) != null) {
                out.add(e);
                continue;
            }
            Label level = streamLevelLabel != null ? streamLevelLabel
                    : new Label(LogLevelDetector.DETECTED_LEVEL, levels.detect(pairs, e));
            out.add(new LogEntry(e.timestampNanos(), e.line(), withPair(e.metadata(), level)));
        }
        return out;
    }
}
