package io.logbloom.ingest;

import java.util.Objects;

/** A rejection: reason (metric label) and the client-facing message. Immutable. */
record Rejection(RejectReason reason, String message) {
    Rejection {
        Objects.requireNonNull(reason, "reason is null");
        Objects.requireNonNull(message, "message is null");
    }
}
