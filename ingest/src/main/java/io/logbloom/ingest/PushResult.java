package io.logbloom.ingest;

import java.util.List;

/**
 * Outcome of one push: how many entries were accepted and rejected, Loki-like messages for the
 * rejections (one per failing stream or entry), and whether the whole push was refused by the
 * ingestion rate limit (the HTTP edge maps that to 429, other errors to 400). Immutable.
 */
public record PushResult(int acceptedEntries, int rejectedEntries, List<String> errors, boolean rateLimited) {
    public PushResult {
        if (acceptedEntries < 0 || rejectedEntries < 0) {
            throw new IllegalArgumentException(
                    "negative entry count: accepted " + acceptedEntries + ", rejected " + rejectedEntries);
        }
        errors = List.copyOf(errors);
    }

    /** Whether every entry was accepted. */
    public boolean ok() {
        return errors.isEmpty() && !rateLimited;
    }

    /** The error messages joined by newlines, as Loki's 400 body. */
    public String errorMessage() {
        return String.join("\n", errors);
    }
}
