package io.logbloom.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * JMH secondary result of the byte-throughput benchmarks: raw log bytes (lines, and metadata names and values where
 * the benchmark has them) processed, reported per second; divide by 10^6 for MB/s. One per benchmark thread.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class RawBytesPerSecond {
    /** Raw bytes processed. */
    public long rawBytes;
}
