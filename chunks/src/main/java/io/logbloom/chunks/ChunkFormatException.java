package io.logbloom.chunks;

import java.io.IOException;

/** Thrown when encoded chunk bytes are corrupted, truncated or of an unsupported version; the message says what and where. */
public final class ChunkFormatException extends IOException {
    /** An exception with a message naming the problem and its position. */
    public ChunkFormatException(String message) {
        super(message);
    }

    /** An exception with a message and the underlying cause. */
    public ChunkFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
