package io.logbloom.bloom;

/**
 * A snapshot of a scalable filter's properties, with the fields of Valkey's {@code BF.INFO}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param capacity sum of the sub-filters' capacities (items the filter holds before it must grow)
 * @param sizeBytes bytes of bit storage over all sub-filters
 * @param subFilters number of sub-filters
 * @param itemsInserted items added as new (an add that found all bits set is not counted)
 * @param errorRate configured compound false-positive target
 * @param expansion capacity factor from one sub-filter to the next
 * @param tightening error-rate factor from one sub-filter to the next
 * @param maxScaledCapacity total capacity the filter can reach by growing within its size limit
 *     (its own capacity when non-scaling)
 */
public record BloomStats(
        long capacity,
        long sizeBytes,
        int subFilters,
        long itemsInserted,
        double errorRate,
        double expansion,
        double tightening,
        long maxScaledCapacity) {}
