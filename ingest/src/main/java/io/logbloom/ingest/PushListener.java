package io.logbloom.ingest;

import java.util.List;

/**
 * Told about every push the ingester accepted in full (after enrichment), for consumers that mine the
 * write path without storing anything, such as the pattern miner behind {@code /loki/api/v1/patterns}.
 * Implementations must be thread-safe and quick: they run on the request thread.
 */
@FunctionalInterface
public interface PushListener {
    /** {@code streams} of {@code tenant} were accepted. */
    void accepted(String tenant, List<PushStream> streams);
}
