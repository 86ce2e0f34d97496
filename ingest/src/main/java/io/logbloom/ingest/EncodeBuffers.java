package io.logbloom.ingest;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * The buffers pushes WAL-encode their entries ({@link PushCandidate#prepare}) and build their WAL records
 * ({@link StreamWriter}) in, handed from push to push: a fresh array of a whole push's size for each of
 * those per push was a large share of what a push allocated, and the
 * collector copied those still alive at each young collection. At most {@link #MAX_KEPT} buffers of at
 * most {@link #MAX_KEPT_BYTES} each are kept (a few MB of heap at most); bigger ones are left to the
 * collector.
 *
 * <p>Thread-safe. A buffer taken belongs to its taker until given back; never give one back twice.
 */
final class EncodeBuffers {
    /** Buffers kept: about the pushes a small server runs at once. */
    static final int MAX_KEPT = 8;
    /** A buffer with more capacity than this is not kept. */
    static final int MAX_KEPT_BYTES = 1 << 20;

    private final ArrayBlockingQueue<WalCodec.Buffer> free = new ArrayBlockingQueue<>(MAX_KEPT);

    /** An empty buffer with at least {@code capacity} bytes of room: a kept one when one is large enough. */
    WalCodec.Buffer take(int capacity) {
        WalCodec.Buffer buffer = free.poll();
        if (buffer == null || buffer.capacity() < capacity) {
            return new WalCodec.Buffer(capacity); // a kept one too small is dropped: pushes of one client are alike
        }
        buffer.clear();
        return buffer;
    }

    /** Gives {@code buffer} back once nothing reads it any more; kept when there is room and it is not too big. */
    void give(WalCodec.Buffer buffer) {
        if (buffer.capacity() <= MAX_KEPT_BYTES) {
            free.offer(buffer);
        }
    }

    /** Buffers kept now. */
    int kept() {
        return free.size();
    }

    /** Heap bytes the kept buffers hold (their capacity); taken buffers are their pushes' own memory. */
    long keptBytes() {
        long total = 0;
        for (WalCodec.Buffer buffer : free) { // weakly consistent: an estimate while pushes take and give
            total += buffer.capacity();
        }
        return total;
    }
}
