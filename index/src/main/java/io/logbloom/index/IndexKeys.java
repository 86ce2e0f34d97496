package io.logbloom.index;

/**
 * Object keys of index files: {@code index/<tenant>/<periodNumber>/<unique>.idx}, the period number
 * in decimal. Tenant ids are validated elsewhere (they are always one safe path segment).
 * Stateless and thread-safe.
 */
final class IndexKeys {
    static final String ROOT = "index/";
    static final String SUFFIX = ".idx";

    private IndexKeys() {}

    static String tenantPrefix(String tenant) {
        return ROOT + tenant + "/";
    }

    static String periodPrefix(String tenant, long periodNumber) {
        return tenantPrefix(tenant) + periodNumber + "/";
    }

    static String fileKey(String tenant, long periodNumber, String unique) {
        return periodPrefix(tenant, periodNumber) + unique + SUFFIX;
    }

    /**
     * The period number of an index file key under {@code tenantPrefix}, or null when the key is not an
     * index file (another suffix, a nested path, a non-numeric period).
     */
    static Long periodOf(String key, String tenantPrefix) {
        if (!key.startsWith(tenantPrefix) || !key.endsWith(SUFFIX)) {
            return null;
        }
        int slash = key.indexOf('/', tenantPrefix.length());
        if (slash < 0 || key.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        try {
            return Long.parseLong(key.substring(tenantPrefix.length(), slash));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
