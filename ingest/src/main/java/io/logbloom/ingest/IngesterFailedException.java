package io.logbloom.ingest;

import java.io.IOException;

/**
 * A push refused because the ingester cannot persist data (a fatal background failure, see
 * {@link FatalReason}); nothing of the push was acknowledged (HTTP 503).
 */
public final class IngesterFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    /** A refusal naming the failure. */
    public IngesterFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
