package io.logbloom.kafka;

import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.Ingester;
import java.util.List;

/** Where {@link UnflushedEndpoint} reads an ingester's not-yet-uploaded rows ({@code Ingester::unflushed}). */
@FunctionalInterface
public interface UnflushedRows {
    /**
     * Unflushed data of {@code tenant}'s streams matching all {@code matchers} in [fromNanos, throughNanos); the
     * caller closes it once it has read the rows (its local parts stay on disk until then).
     */
    Ingester.Unflushed unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos);
}
