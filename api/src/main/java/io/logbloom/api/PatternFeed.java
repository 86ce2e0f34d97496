package io.logbloom.api;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.LabelsParser;
import io.logbloom.ingest.LogLevelDetector;
import io.logbloom.ingest.PushListener;
import io.logbloom.ingest.PushStream;
import io.logbloom.patterns.PatternMiner;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Feeds accepted pushes to the {@link PatternMiner}: each entry is mined under its stream's labels and
 * its {@code detected_level} metadata (empty when absent), at its own timestamp. Public for the bench's
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
            for (LogEntry e : s.entries()) {
                String level = e.metadataValue(LogLevelDetector.DETECTED_LEVEL);
                miner.train(tenant, key, level == null ? "" : level, Math.floorDiv(e.timestampNanos(), 1_000_000L),
                        e.line(), now);
            }
        }
    }
}
