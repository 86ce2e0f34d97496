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
 * {@code detected_level} (as metadata or stream label) are left as they are.
 *
 * <p>What a stream's selector text needs (its text with a service name, its labels, a level they
 * give) is worked out once per distinct text and cached, as clients send the same few selectors in
 * every push: two label parses and a new string per stream and push were 3 % of a push's request
 * CPU, and the new string made admission hash it again to find its parsed labels. The cache is
 * emptied when it reaches {@link #MAX_PLANS}, so a flood of distinct selectors costs what it did
 * without it, in bounded memory ({@link SelectorCache}, as admission's parsed labels). Thread-safe.
 */
public final class PushEnricher {
    /** Distinct selector texts whose plans are kept: far above the streams a server takes pushes for at once. */
    static final int MAX_PLANS = 4096;

    private final ServiceNameDiscovery serviceNames;
    private final LogLevelDetector levels;
    private final SelectorCache<StreamPlan> plans = new SelectorCache<>(MAX_PLANS);

    /**
     * What enrichment does to the streams of one selector text: {@code labels} is the text to store them under (one
     * instance for every push); {@code pairs} are its labels when entries get levels detected, null when they do not
     * (levels off, labels unparseable, or a {@code detected_level} stream label); {@code streamLevel} is the level
     * the labels give every entry, or null when each entry's own is detected.
     */
    private record StreamPlan(String labels, List<Label> pairs, Label streamLevel) {}

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
            StreamPlan plan = plans.get(s.labels(), this::newPlan);
            List<LogEntry> entries = plan.pairs() == null ? s.entries() : withLevels(plan, s.entries());
            // the plan's labels instance even when the text is unchanged: admission then finds it without hashing
            out.add(plan.labels() == s.labels() && entries == s.entries() ? s : new PushStream(plan.labels(), entries));
        }
        return out;
    }

    private StreamPlan newPlan(String selector) {
        String labels = serviceNames == null ? selector : serviceNames.discover(selector);
        if (levels == null) {
            return new StreamPlan(labels, null, null);
        }
        List<Label> pairs;
        try {
            pairs = List.copyOf(LabelsParser.parse(labels));
        } catch (IllegalArgumentException invalid) {
            return new StreamPlan(labels, null, null);
        }
        for (Label l : pairs) {
            if (l.name().equals(LogLevelDetector.DETECTED_LEVEL)) {
                return new StreamPlan(labels, null, null);
            }
        }
        // a level from a stream label is the same for every entry: one label object for all of them
        String streamLevel = levels.streamLevel(pairs);
        return new StreamPlan(labels, pairs, streamLevel == null ? null : new Label(LogLevelDetector.DETECTED_LEVEL, streamLevel));
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

    private List<LogEntry> withLevels(StreamPlan plan, List<LogEntry> entries) {
        List<LogEntry> out = new ArrayList<>(entries.size());
        for (LogEntry e : entries) {
            if (e.metadataValue(LogLevelDetector.DETECTED_LEVEL) != null) {
                out.add(e);
                continue;
            }
            Label level = plan.streamLevel() != null ? plan.streamLevel()
                    : new Label(LogLevelDetector.DETECTED_LEVEL, levels.detect(plan.pairs(), e));
            out.add(e.withMetadata(withPair(e.metadata(), level)));
        }
        return out;
    }
}
