package io.logbloom.index;

import java.io.IOException;

/** Thrown when index file bytes are corrupted, truncated or of an unknown version; the message names the problem. */
public final class IndexFormatException extends IOException {
    /** Creates the exception with a message naming the file and the problem. */
    public IndexFormatException(String message) {
        super(message);
    }

    /** Creates the exception with a message and the underlying cause. */
    public IndexFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
