package io.logbloom.ingest;

/**
 * A push refused because the ingester's unflushed data is over {@code ingester.max_memory}; nothing
 * of the push was stored, so the client should retry after {@link #retryAfterSeconds()} (HTTP 429).
 */
public final class MemoryBudgetExceededException extends PushBackpressureException {
    private static final long serialVersionUID = 1L;

    /** A refusal with its message and the suggested wait. */
    public MemoryBudgetExceededException(String message, long retryAfterSeconds) {
        super(message, retryAfterSeconds);
    }

    @Override
    public String reason() {
        return "memory_limited";
    }
}
