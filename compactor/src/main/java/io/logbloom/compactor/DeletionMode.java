package io.logbloom.compactor;

import java.util.Locale;

/**
 * Loki's per-tenant {@code deletion_mode} limit: whether the delete API is open and what a delete request
 * does. Loki's default is {@link #FILTER_AND_DELETE}. Both enabled modes filter at query time; with
 * {@code filter-and-delete} the compactor also rewrites the stored objects without the deleted lines once a
 * request's cancel period is over, and marks it {@code processed} ({@link DeleteRewriter}).
 */
public enum DeletionMode {
    /** The delete API answers 403 and no request filters queries. */
    DISABLED("disabled"),
    /** Requests filter query results; stored data is kept. */
    FILTER_ONLY("filter-only"),
    /** Requests filter query results and the compactor rewrites the data. */
    FILTER_AND_DELETE("filter-and-delete");

    private final String configName;

    DeletionMode(String configName) {
        this.configName = configName;
    }

    /** The name in YAML ({@code filter-only}, ...). */
    public String configName() {
        return configName;
    }

    /** Whether the compactor physically removes the lines of delete requests. */
    public boolean rewritesData() {
        return this == FILTER_AND_DELETE;
    }

    /** Whether delete requests are accepted and applied. */
    public boolean deleteEnabled() {
        return this != DISABLED;
    }

    /** Parses a YAML value; an unknown one throws IllegalArgumentException naming the accepted values. */
    public static DeletionMode parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (DeletionMode m : values()) {
            if (m.configName.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown deletion mode '" + text
                + "', it must be one of: disabled, filter-only, filter-and-delete");
    }
}
