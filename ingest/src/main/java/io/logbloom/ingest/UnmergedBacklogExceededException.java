package io.logbloom.ingest;

/**
 * A push refused because sealed parts waiting on local disk for the object store are over
 * {@code ingester.max_unmerged_bytes} (the store is down or slower than the push rate); nothing of
 * the push was stored, so the client should retry after {@link #retryAfterSeconds()} (HTTP 429).
 */
public final class UnmergedBacklogExceededException extends PushBackpressureException {
    private static final long serialVersionUID = 1L;

    /** A refusal with its message and the suggested wait. */
    public UnmergedBacklogExceededException(String message, long retryAfterSeconds) {
        super(message, retryAfterSeconds);
    }

    @Override
    public String reason() {
        return "unmerged_backlog_limited";
    }
}
