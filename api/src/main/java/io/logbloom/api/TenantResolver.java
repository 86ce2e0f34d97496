package io.logbloom.api;

import io.logbloom.chunks.TenantIds;

/**
 * Turns the {@code X-Scope-OrgID} header into a tenant id, as Loki: the header's value when present;
 * when absent, {@code fake} if auth is disabled and 401 {@code no org id} if it is enabled. An id
 * breaking Loki's tenant rules is 400 naming the id. Immutable and thread-safe.
 */
public final class TenantResolver {
    /** The request header carrying the tenant id. */
    public static final String HEADER = "X-Scope-OrgID";
    /** Loki's tenant when auth is disabled and no header is sent. */
    public static final String DEFAULT_TENANT = "fake";

    private final boolean authEnabled;

    /** A resolver for a server with auth {@code authEnabled}. */
    public TenantResolver(boolean authEnabled) {
        this.authEnabled = authEnabled;
    }

    /** The tenant for a request whose header value is {@code headerValue} (null when absent). */
    public String tenant(String headerValue) {
        if (headerValue == null || headerValue.isBlank()) {
            if (authEnabled) {
                throw new HttpException(401, "unauthorized", "no org id");
            }
            return DEFAULT_TENANT;
        }
        String tenant = headerValue.trim();
        try {
            TenantIds.validate(tenant);
        } catch (IllegalArgumentException e) {
            throw new HttpException(400, "bad_tenant", "invalid " + HEADER + " header: " + e.getMessage());
        }
        return tenant;
    }
}
