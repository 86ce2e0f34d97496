package io.logbloom.ingest;

/**
 * The buffers pushes WAL-encode their entries ({@link PushCandidate#prepare}) and build their WAL records
 * ({@link StreamWriter}) in, handed from push to push: a fresh array of a whole push's size for each of
 * those per push was a large share of what a push allocated, and the
 * collector copied those still alive at each young collection. At most {@link #MAX_KEPT} buffers of at
 * most {@link #MAX_KEPT_BYTES} each are kept (a few MB of heap at most); bigger ones are left to the
 * collector.
 *
 * <p>A stack under this object's monitor, last given first taken (its bytes are the likeliest in cache). It was an
 * {@code ArrayBlockingQueue}: summing the kept bytes iterated it, an iterator registers with the queue, and from then
 * on every take ran a branch the start-up warm-up had never run, so C2's code for {@code Ingester.store} hit an
 * uncommon trap in the middle of the bar's push and was compiled again (0.35 s of C2 on a 2-core box;
 * {@code -XX:+LogCompilation}, 2026-12-07).
 *
 * <p>Thread-safe. A buffer taken belongs to its taker until given back; never give one back twice.
 */
final class EncodeBuffers {
    /** Buffers kept: about the pushes a small server runs at once. */
    static final int MAX_KEPT = 8;
    /** A buffer with more capacity than this is not kept. */
    static final int MAX_KEPT_BYTES = 1 << 20;

    private final WalCodec.Buffer[] free = new WalCodec.Buffer[MAX_KEPT];
    private int kept;

    /** An empty buffer with at least {@code capacity} bytes of room: a kept one when one is large enough. */
    WalCodec.Buffer take(int capacity) {
        WalCodec.Buffer buffer = pop();
        if (buffer == null || buffer.capacity() < capacity) {
            return new WalCodec.Buffer(capacity); // a kept one too small is dropped: pushes of one client are alike
        }
        buffer.clear();
        return buffer;
    }

    /** Gives {@code buffer} back once nothing reads it any more; kept when there is room and it is not too big. */
    void give(WalCodec.Buffer buffer) {
        if (buffer.capacity() <= MAX_KEPT_BYTES) {
            push(buffer);
        }
    }

    private synchronized WalCodec.Buffer pop() {
        if (kept == 0) {
            return null;
        }
        WalCodec.Buffer buffer = free[--kept];
        free[kept] = null;
        return buffer;
    }

    private synchronized void push(WalCodec.Buffer buffer) {
        if (kept < MAX_KEPT) {
            free[kept++] = buffer;
        }
    }

    /** Buffers kept now. */
    synchronized int kept() {
        return kept;
    }

    /** Heap bytes the kept buffers hold (their capacity); taken buffers are their pushes' own memory. */
    synchronized long keptBytes() {
        long total = 0;
        for (int i = 0; i < kept; i++) {
            total += free[i].capacity();
        }
        return total;
    }
}
