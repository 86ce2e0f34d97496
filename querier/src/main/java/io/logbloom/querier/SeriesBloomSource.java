package io.logbloom.querier;

import java.io.IOException;
import java.util.Optional;

/** Loads the bloom of one series and period; empty when none was written (the querier then fetches). */
@FunctionalInterface
public interface SeriesBloomSource {
    /** The bloom of (tenant, fingerprint, periodNumber), or empty when it does not exist. */
    Optional<SeriesBloomView> load(String tenant, long fingerprint, long periodNumber) throws IOException;
}
