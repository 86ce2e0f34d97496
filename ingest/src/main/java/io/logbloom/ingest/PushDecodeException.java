package io.logbloom.ingest;

/** Thrown when a push body cannot be decoded; the message is safe to return to the client. */
public final class PushDecodeException extends Exception {
    public PushDecodeException(String message) {
        super(message);
    }

    public PushDecodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
