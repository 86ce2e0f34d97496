package io.logbloom.api;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.LabelsParser;
import io.logbloom.ingest.LogLevelDetector;
import io.logbloom.ingest.PushListener;
import io.logbloom.ingest.PushStream;
import io.logbloom.patterns.PatternMiner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Feeds accepted pushes to the {@link PatternMiner}: each entry is mined under its stream's labels and
 * its {@code detected_level} metadata (empty when absent), at its own timestamp, one batch per stream and level. Public for the bench's
 * ingest-cost report. Thread-safe (the miner is).
 */
public final class PatternFeed implements PushListener {
    private final PatternMiner miner;
    private final Clock clock;

    /** A feed into {@code miner}; {@code clock} drives the miner's pruning. */
    public PatternFeed(PatternMiner miner, Clock clock) {
        this.miner = Objects.requireNonNull(miner, "miner is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    @Override
    public void accepted(String tenant, List<PushStream> streams) {
        long now = clock.millis();
        for (PushStream s : streams) {
            Map<String, String> labels = new HashMap<>();
            for (Label l : LabelsParser.parse(s.labels())) {
                labels.put(l.name(), l.value());
            }
            Map<String, String> key = Map.copyOf(labels);
            Map<String, List<LogEntry>> byLevel = new HashMap<>(4);
            for (LogEntry e : s.entries()) {
                String level = e.metadataValue(LogLevelDetector.DETECTED_LEVEL);
                byLevel.computeIfAbsent(level == null ? "" : level, k -> new ArrayList<>()).add(e);
            }
            byLevel.forEach((level, entries) -> {
                long[] times = new long[entries.size()];
                List<String> lines = new ArrayList<>(entries.size());
                for (int i = 0; i < times.length; i++) {
                    times[i] = Math.floorDiv(entries.get(i).timestampNanos(), 1_000_000L);
                    lines.add(entries.get(i).line());
                }
                miner.train(tenant, key, level, times, lines, now);
            });
        }
    }
}
