package io.logbloom.ingest;

import java.time.InstantSource;
import java.util.Objects;

/**
 * A token bucket of bytes for one tenant (Loki's ingestion_rate_mb / ingestion_burst_size_mb): it
 * holds at most {@code burstBytes} tokens and refills at {@code rateBytesPerSecond}. A push is
 * allowed only if the bucket holds all its bytes; a push larger than the burst is never allowed,
 * as in Loki. Time comes from the injected clock. Thread-safe: synchronized on this object, which
 * guards the token count and the last refill time.
 */
final class IngestionRateLimiter {
    private final InstantSource clock;
    private final double rateBytesPerNano;
    private final long burstBytes;
    private double tokens;
    private long lastNanos;

    IngestionRateLimiter(InstantSource clock, long rateBytesPerSecond, long burstBytes) {
        this.clock = Objects.requireNonNull(clock, "clock is null");
        if (rateBytesPerSecond <= 0 || burstBytes <= 0) {
            throw new IllegalArgumentException(
                    "rate and burst must be positive: rate " + rateBytesPerSecond + ", burst " + burstBytes);
        }
        this.rateBytesPerNano = rateBytesPerSecond / 1e9;
        this.burstBytes = burstBytes;
        this.tokens = burstBytes;
        this.lastNanos = nowNanos();
    }

    /** Takes {@code bytes} tokens if available and returns true; otherwise takes nothing and returns false. */
    synchronized boolean tryAcquire(long bytes) {
        long now = nowNanos();
        if (now > lastNanos) {
            tokens = Math.min(burstBytes, tokens + (now - lastNanos) * rateBytesPerNano);
            lastNanos = now;
        }
        if (bytes > tokens) {
            return false;
        }
        tokens -= bytes;
        return true;
    }

    private long nowNanos() {
        java.time.Instant t = clock.instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
