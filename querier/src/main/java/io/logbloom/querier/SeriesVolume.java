package io.logbloom.querier;

import java.util.Map;
import java.util.Objects;

/** Bytes stored for one group of series (Loki's {@code /index/volume}), keyed by the grouping labels. Immutable. */
public record SeriesVolume(Map<String, String> labels, long bytes) {
    public SeriesVolume {
        Objects.requireNonNull(labels, "labels is null");
        labels = Map.copyOf(labels);
    }
}
