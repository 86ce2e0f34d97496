package io.logbloom.bloom;

import java.io.IOException;

/**
 * Thrown when serialized bloom filter bytes cannot be read; the message names the problem and offset.
 *
 * <p>Immutable once thrown; thread-safe like any exception that is not mutated.
 */
public final class BloomFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the problem. */
    public BloomFormatException(String message) {
        super(message);
    }
}
