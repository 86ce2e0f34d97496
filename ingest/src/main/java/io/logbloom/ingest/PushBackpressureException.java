package io.logbloom.ingest;

import java.io.IOException;

/**
 * A push refused, with nothing of it stored, because the ingester is over one of its budgets; the
 * client should retry after {@link #retryAfterSeconds()} (HTTP 429 with {@code Retry-After}).
 */
public abstract sealed class PushBackpressureException extends IOException
        permits MemoryBudgetExceededException, UnmergedBacklogExceededException {
    private static final long serialVersionUID = 1L;
    private final long retryAfterSeconds;

    PushBackpressureException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Seconds the client should wait before retrying (the {@code Retry-After} header). */
    public final long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The metric label of the budget that refused the push, e.g. {@code memory_limited}. */
    public abstract String reason();
}
