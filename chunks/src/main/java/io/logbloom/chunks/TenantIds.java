package io.logbloom.chunks;

/**
 * Tenant id rules, as Loki's: at most 150 bytes of ASCII letters, digits and
 * {@code !-_.*'()}; and never {@code .} or {@code ..}, so an id is always safe as a path segment.
 * Beyond Loki: never {@code index}, {@code blooms} or {@code compactor}, the first key segment of the namespaces all
 * tenants share (chunks are keyed {@code <tenant>/...}, so such a tenant's chunks would land among
 * other tenants' index files, blooms or compactor state, where a per-tenant cleanup of those could delete them).
 */
public final class TenantIds {
    /** Loki's limit on tenant id length. */
    public static final int MAX_LENGTH = 150;

    /** First key segments of the shared namespaces, which no tenant may take as its own prefix. */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("index", "blooms", "compactor");

    private TenantIds() {}

    /** Throws IllegalArgumentException naming the id and the rule when {@code tenant} is invalid. */
    public static void validate(String tenant) {
        if (tenant.isEmpty()) {
            throw new IllegalArgumentException("tenant id is empty");
        }
        if (tenant.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("tenant id too long: " + tenant.length() + " > " + MAX_LENGTH);
        }
        if (tenant.equals(".") || tenant.equals("..")) {
            throw new IllegalArgumentException("tenant id '" + tenant + "' is not allowed");
        }
        if (RESERVED.contains(tenant)) {
            throw new IllegalArgumentException("tenant id '" + tenant + "' is reserved (it names the shared key namespace '"
                    + tenant + "/' of the object store)");
        }
        for (int i = 0; i < tenant.length(); i++) {
            char c = tenant.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!-_.*'()".indexOf(c) >= 0;
            if (!ok) {
                throw new IllegalArgumentException(
                        "tenant id '" + tenant + "' contains unsupported character '" + c + "' at position " + i);
            }
        }
    }
}
