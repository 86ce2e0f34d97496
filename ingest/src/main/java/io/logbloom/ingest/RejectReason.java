package io.logbloom.ingest;

import java.util.Locale;

/** Why an entry was rejected; the lower-case name is the {@code reason} label of the rejected-lines metric (Loki's names). */
public enum RejectReason {
    INVALID_LABELS,
    MISSING_LABELS,
    MAX_LABEL_NAMES_PER_SERIES,
    LABEL_NAME_TOO_LONG,
    LABEL_VALUE_TOO_LONG,
    DUPLICATE_LABEL_NAMES,
    LINE_TOO_LONG,
    GREATER_THAN_MAX_SAMPLE_AGE,
    TOO_FAR_IN_FUTURE,
    TOO_FAR_BEHIND,
    OUT_OF_ORDER,
    RATE_LIMITED,
    STREAM_LIMIT,
    SERIES_LIMIT_HOURLY,
    SERIES_LIMIT_DAILY;

    /** The metric label value. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
