package io.logbloom.querier;

/** Why a query failed, with the HTTP status the API edge maps it to. */
public enum QuerierErrorCode {
    /** Malformed query text or parameter (400). */
    BAD_REQUEST(400),
    /** A per-tenant limit (entries, series, bytes) was exceeded (400, as Loki). */
    LIMIT_EXCEEDED(400),
    /** The query ran longer than query_timeout (504, as Loki's deadline errors). */
    TIMEOUT(504),
    /** Reading storage failed (500). */
    STORAGE(500);

    private final int httpStatus;

    QuerierErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    /** The HTTP status code for this category. */
    public int httpStatus() {
        return httpStatus;
    }
}
