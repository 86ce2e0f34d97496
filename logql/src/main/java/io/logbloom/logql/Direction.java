package io.logbloom.logql;

/** Order of log entries in a query: FORWARD is oldest first, BACKWARD newest first (Loki's default). Immutable. */
public enum Direction {
    FORWARD, BACKWARD
}
