package io.logbloom.kafka;

import java.time.Duration;
import java.util.Map;

/** How far an ingester consumed its partitions: what strong read consistency waits on. */
@FunctionalInterface
public interface ConsumedOffsets {
    /**
     * Waits up to {@code maxWait} until every partition of {@code targets} this ingester owns is
     * consumed up to its target offset (exclusive: the partition's next offset when the query began).
     *
     * @return the owned partitions still behind with the offset each reached (-1 when unknown); empty when caught up
     */
    Map<Integer, Long> awaitConsumed(Map<Integer, Long> targets, Duration maxWait) throws InterruptedException;
}
