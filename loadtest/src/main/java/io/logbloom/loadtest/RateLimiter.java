package io.logbloom.loadtest;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Open-loop pacing: reserves send times so permits are spent at a fixed rate across all threads.
 *
 * <p>Each reservation moves a shared "next free slot" forward by {@code permits / rate} seconds;
 * a caller waits until its slot. A slot never starts in the past by more than one interval, so a
 * stall (slow server) does not build up a burst that would later flood the server.
 *
 * <p>Thread-safe: one atomic long.
 */
final class RateLimiter {
    private final double nanosPerPermit;
    private final LongSupplier nanoTime;
    private final AtomicLong nextSlotNanos;

    /** Creates a limiter of {@code permitsPerSecond} (must be positive). */
    RateLimiter(double permitsPerSecond, LongSupplier nanoTime) {
        if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
            throw new IllegalArgumentException("rate must be a positive number, got " + permitsPerSecond);
        }
        this.nanosPerPermit = 1e9 / permitsPerSecond;
        this.nanoTime = nanoTime;
        this.nextSlotNanos = new AtomicLong(nanoTime.getAsLong());
    }

    /** Reserves {@code permits} and returns the nanoTime at which the caller may proceed. */
    long reserve(int permits) {
        long cost = (long) Math.ceil(permits * nanosPerPermit);
        while (true) {
            long now = nanoTime.getAsLong();
            long next = nextSlotNanos.get();
            long slot = Math.max(next, now - cost);
            if (nextSlotNanos.compareAndSet(next, slot + cost)) {
                return slot;
            }
        }
    }

    /** Reserves permits and sleeps until their slot or until {@code control} stops the run. */
    void acquire(int permits, RunControl control) throws InterruptedException {
        long slot = reserve(permits);
        while (!control.stopped()) {
            long waitNanos = slot - nanoTime.getAsLong();
            if (waitNanos <= 0) {
                return;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.sleep(Math.min(waitNanos, 100_000_000L));
        }
    }
}
