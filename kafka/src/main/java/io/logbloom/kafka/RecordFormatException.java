package io.logbloom.kafka;

/** A push record or unflushed-data frame that is damaged, truncated or of an unknown version. */
public final class RecordFormatException extends IllegalArgumentException {
    /** With a message naming what is wrong. */
    public RecordFormatException(String message) {
        super(message);
    }

    /** With a message and the underlying failure. */
    public RecordFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
