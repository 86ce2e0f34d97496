package io.logbloom.querier;

import java.util.Objects;

/** A query failure with a category and a client-safe message. */
public final class QuerierException extends RuntimeException {
    private final QuerierErrorCode code;

    /** A failure of category {@code code} whose message is safe to return to clients. */
    public QuerierException(QuerierErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code is null");
    }

    /** A failure with a cause. */
    public QuerierException(QuerierErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code is null");
    }

    /** The category (and so the HTTP status) of this failure. */
    public QuerierErrorCode code() {
        return code;
    }
}
