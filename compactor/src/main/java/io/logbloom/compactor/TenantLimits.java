package io.logbloom.compactor;

import io.logbloom.chunks.TenantIds;
import java.util.Map;
import java.util.Objects;

/**
 * The retention limits in force for each tenant: the global ones, replaced per tenant by its overrides
 * (as Loki's runtime {@code overrides}, a tenant's entry is the whole limit set with unset keys taken
 * from the global limits, which the config mapping fills in). Immutable and thread-safe.
 *
 * @param defaults the global limits
 * @param overrides per-tenant limits by tenant id
 */
public record TenantLimits(RetentionLimits defaults, Map<String, RetentionLimits> overrides) {
    public TenantLimits {
        Objects.requireNonNull(defaults, "defaults is null");
        overrides = Map.copyOf(overrides);
        overrides.keySet().forEach(TenantIds::validate);
    }

    /** The same limits for every tenant. */
    public static TenantLimits uniform(RetentionLimits limits) {
        return new TenantLimits(limits, Map.of());
    }

    /** The limits of {@code tenant}. */
    public RetentionLimits forTenant(String tenant) {
        return overrides.getOrDefault(tenant, defaults);
    }
}
