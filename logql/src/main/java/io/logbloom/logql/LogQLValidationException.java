package io.logbloom.logql;

/** An evaluation-time query error (e.g. a pipeline error label left in a metric result). Immutable. */
public final class LogQLValidationException extends RuntimeException {

    /** Creates the exception with a client-safe message. */
    public LogQLValidationException(String message) {
        super(message);
    }
}
