package io.logbloom.chunks;

/** Iteration order over entries: oldest first (FORWARD) or newest first (BACKWARD), as Loki's {@code direction}. */
public enum Direction {
    /** Ascending timestamps. */
    FORWARD,
    /** Descending timestamps. */
    BACKWARD
}
