package io.logbloom.ingest;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Caps how many distinct series may be created per time window, with VictoriaMetrics' bloom-filter
 * limiter ({@code lib/bloomfilter/limiter.go}; seed 001).
 *
 * <p>Design: each window (an hour or a day, aligned to the epoch) owns one fixed-size bloom filter
 * of {@value #BITS_PER_ITEM} bits per allowed item with {@value #HASHES} probes — VictoriaMetrics'
 * constants, giving about 0.3% false positives at capacity. {@link #allow(long)} adds a series hash
 * while fewer than {@code maxItems} distinct hashes were added in this window; once the window is
 * full, only series already in the filter are allowed. So a series seen earlier in the window keeps
 * writing, and a brand-new one is refused until the next window replaces the filter. The limit is
 * approximate in the way VictoriaMetrics documents: a new series colliding with the filter (false
 * positive) is let through, and the distinct count can undercount by the same rate.
 *
 * <p>Probes come from one 64-bit hash by double hashing (Kirsch–Mitzenmacher) instead of VM's
 * rehash per probe; the series fingerprint is already an XXH3 hash, so only a second mix is needed.
 *
 * <p>Thread-safe and lock-free: bits are set with CAS on an {@link AtomicLongArray}, the item count
 * is atomic, and a window switch swaps the whole filter through an {@link AtomicReference}.
 */
final class SeriesLimiter {
    /** Bits per item: VM derives 16 from k = 4 and a 0.3% target false-positive rate. */
    static final int BITS_PER_ITEM = 16;
    /** Probes per item, as VM's hashesCount. */
    static final int HASHES = 4;

    private final int maxItems;
    private final long windowNanos;
    private final InstantSource clock;
    private final AtomicReference<Window> current;

    SeriesLimiter(int maxItems, Duration window, InstantSource clock) {
        if (maxItems <= 0) {
            throw new IllegalArgumentException("series limiter maxItems must be positive: " + maxItems);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("series limiter window must be positive: " + window);
        }
        this.maxItems = maxItems;
        this.windowNanos = window.toNanos();
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.current = new AtomicReference<>(new Window(windowIndex(), maxItems));
    }

    /** Whether the series with hash {@code seriesHash} may be written in the current window. */
    boolean allow(long seriesHash) {
        Window w = window();
        if (w.items.get() >= maxItems) {
            return w.has(seriesHash);
        }
        if (w.add(seriesHash)) {
            w.items.incrementAndGet();
        }
        return true;
    }

    /** The configured capacity per window. */
    int maxItems() {
        return maxItems;
    }

    private Window window() {
        long index = windowIndex();
        while (true) {
            Window w = current.get();
            if (w.index == index) {
                return w;
            }
            Window fresh = new Window(index, maxItems);
            if (current.compareAndSet(w, fresh)) {
                return fresh;
            }
        }
    }

    private long windowIndex() {
        java.time.Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return Math.floorDiv(nanos, windowNanos);
    }

    private static final class Window {
        final long index;
        final AtomicLongArray bits;
        final long bitCount;
        final java.util.concurrent.atomic.AtomicInteger items = new java.util.concurrent.atomic.AtomicInteger();

        Window(long index, int maxItems) {
            this.index = index;
            int words = (int) Math.max(1, ((long) maxItems * BITS_PER_ITEM + 63) / 64);
            this.bits = new AtomicLongArray(words);
            this.bitCount = (long) words * 64;
        }

        /** Sets the probes' bits; true when at least one was newly set (the item is new). */
        boolean add(long h) {
            long h2 = mix(h) | 1;
            boolean isNew = false;
            for (int i = 0; i < HASHES; i++) {
                long idx = Long.remainderUnsigned(h + i * h2, bitCount);
                int word = (int) (idx >>> 6);
                long mask = 1L << (idx & 63);
                long w = bits.get(word);
                while ((w & mask) == 0) {
                    if (bits.compareAndSet(word, w, w | mask)) {
                        isNew = true;
                        break;
                    }
                    w = bits.get(word);
                }
            }
            return isNew;
        }

        boolean has(long h) {
            long h2 = mix(h) | 1;
            for (int i = 0; i < HASHES; i++) {
                long idx = Long.remainderUnsigned(h + i * h2, bitCount);
                if ((bits.get((int) (idx >>> 6)) & (1L << (idx & 63))) == 0) {
                    return false;
                }
            }
            return true;
        }

        /** SplitMix64's finalizer: a second, independent-looking hash from the first. */
        private static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }
    }
}
