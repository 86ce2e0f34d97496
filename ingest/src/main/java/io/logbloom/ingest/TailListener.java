package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.List;

/**
 * Receives accepted entries right after a push is durable; must be fast and must not throw. Called
 * concurrently from pushing threads, so implementations must be thread-safe.
 */
@FunctionalInterface
public interface TailListener {
    /** Called once per stream of an accepted push with the entries that were stored. */
    void onEntries(String tenant, Labels labels, List<LogEntry> entries);
}
