package io.logbloom.kafka;

/**
 * An ingester cannot answer a query now (HTTP 503): it did not consume its partitions up to a strongly
 * consistent query's offsets in time (one still starting answers {@link IngesterStartingException}).
 */
public final class NotCaughtUpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** With a message naming the partitions behind. */
    public NotCaughtUpException(String message) {
        super(message);
    }
}
