package io.logbloom.loadtest;

/**
 * One operation's activity during one sampling tick (about one second).
 *
 * <p>Immutable and thread-safe.
 *
 * @param elapsedSeconds seconds since the run started, at the end of the tick
 * @param operation operation name, for example {@code push} or {@code query_needle}
 * @param requests requests completed in the tick
 * @param errors failed requests in the tick
 * @param lines lines pushed (or returned) in the tick
 * @param requestsPerSecond request rate over the tick
 * @param linesPerSecond line rate over the tick
 * @param megabytesPerSecond line payload rate in MB/s (10^6 bytes) over the tick
 * @param p50Millis median latency of the tick, or {@code null} without answered requests
 * @param p99Millis 99th percentile latency of the tick, or {@code null} without answered requests
 */
public record TimelinePoint(double elapsedSeconds, String operation, long requests, long errors, long lines,
        double requestsPerSecond, double linesPerSecond, double megabytesPerSecond, Double p50Millis, Double p99Millis) {}
