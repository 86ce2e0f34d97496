package io.logbloom.logql;

/**
 * A query needed more memory than its budget (see {@link Engine}); a client error (the query is too wide for
 * the server), so it extends {@link IllegalArgumentException} like every other query error the querier answers
 * with 400.
 */
public final class QueryMemoryBudgetException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the budget and what to change. */
    public QueryMemoryBudgetException(String message) {
        super(message);
    }
}
