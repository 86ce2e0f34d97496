package io.logbloom.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** How far an ingester consumed its partitions: what strong read consistency waits on. */
@FunctionalInterface
public interface ConsumedOffsets {
    /**
     * Waits up to {@code maxWait} until every partition of {@code targets} this ingester owns is
     * consumed up to its target offset (exclusive: the partition's next offset when the query began).
     * Partitions of {@code targets} in neither set of the answer are not owned by this ingester.
     */
    CatchUp awaitConsumed(Map<Integer, Long> targets, Duration maxWait) throws InterruptedException;

    /**
     * Where an ingester stands against a query's offsets, taken at one instant.
     *
     * @param caughtUp partitions of the targets it owns and consumed up to their target offset
     * @param behind partitions of the targets it owns but has not consumed far enough, with the offset each
     *     reached (-1 when unknown); empty when caught up
     */
    record CatchUp(Set<Integer> caughtUp, Map<Integer, Long> behind) {
        /** Copies. */
        public CatchUp {
            caughtUp = Set.copyOf(Objects.requireNonNull(caughtUp, "caughtUp is null"));
            behind = Map.copyOf(Objects.requireNonNull(behind, "behind is null"));
        }
    }
}
