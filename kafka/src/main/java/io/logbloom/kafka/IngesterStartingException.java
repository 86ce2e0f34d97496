package io.logbloom.kafka;

import java.io.IOException;

/**
 * An ingester answered that it is still starting (replaying, joining the consumer group): it consumes no
 * partition yet, so it answers for none. A strong read counts it for no partition and asks it again within
 * its budget, as for any partition not covered yet; unlike {@link NotCaughtUpException} it does not fail
 * the query at once.
 */
public final class IngesterStartingException extends IOException {
    private static final long serialVersionUID = 1L;

    /** With the ingester's answer. */
    public IngesterStartingException(String message) {
        super(message);
    }
}
