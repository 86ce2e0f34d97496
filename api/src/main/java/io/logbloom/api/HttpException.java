package io.logbloom.api;

import java.util.Objects;

/**
 * A request refused at the HTTP edge with a known status: its message is safe to send to the client
 * as is, and {@code reason} is the low-cardinality metric label ({@code unauthorized},
 * {@code too_large}, ...). Immutable.
 */
public final class HttpException extends RuntimeException {
    private final int status;
    private final String reason;

    /** A refusal with HTTP {@code status}, client-safe {@code message} and metric {@code reason}. */
    public HttpException(int status, String reason, String message) {
        super(message);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("HttpException status must be 4xx or 5xx, got " + status);
        }
        this.status = status;
        this.reason = Objects.requireNonNull(reason, "reason is null");
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The metric label naming the kind of refusal. */
    public String reason() {
        return reason;
    }
}
