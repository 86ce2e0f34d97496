package io.logbloom.loadtest;

/**
 * What one HTTP request to the server came to.
 *
 * <p>Thread-safe as long as nobody writes into {@code body}; the harness never does.
 *
 * @param status HTTP status, or {@code -1} when no response arrived
 * @param failure for {@code status == -1}: {@code timeout}, {@code connection_refused} or {@code io_error}
 * @param detail the exception or error body text, for messages
 * @param latencyNanos time from sending to the complete response, or {@code -1} without a response
 * @param body the response body, empty without a response
 * @param retryAfter the wait the server's {@code Retry-After} header asks for, or null without one
 */
record HttpOutcome(int status, String failure, String detail, long latencyNanos, byte[] body, java.time.Duration retryAfter) {
    /** An outcome without a {@code Retry-After}. */
    HttpOutcome(int status, String failure, String detail, long latencyNanos, byte[] body) {
        this(status, failure, detail, latencyNanos, body, null);
    }

    /** Returns whether the server answered with a 2xx status. */
    boolean succeeded() {
        return status >= 200 && status < 300;
    }

    /** Returns whether the server answered at all (any status). */
    boolean answered() {
        return status >= 0;
    }

    /** Returns the key this outcome is counted under in the report's errors by status. */
    String errorKey() {
        return answered() ? Integer.toString(status) : failure;
    }
}
