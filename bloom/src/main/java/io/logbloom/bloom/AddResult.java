package io.logbloom.bloom;

/**
 * Outcome of adding one item to a bloom filter; callers must handle {@link #FULL}.
 *
 * <p>Immutable and thread-safe.
 */
public enum AddResult {
    /** The item was new: at least one of its bits was clear and has now been set. */
    ADDED,
    /** All bits of the item were already set: it was added before, or it is a false positive. */
    ALREADY_PRESENT,
    /**
     * The item could not be added because the filter reached its capacity (non-scaling) or its
     * size limit (scaling); the filter no longer represents this item, so the owner must start a
     * new filter or stop skipping on it.
     */
    FULL
}
