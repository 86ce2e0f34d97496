package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.index.CombinedIndex;
import io.logbloom.index.HeadIndex;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongConsumer;

/**
 * The index of everything flushed (this process' head index plus the persisted index files), with
 * the visibility protocol between it and the unflushed data: every publication of chunk refs to the
 * head index is one numbered epoch, and every lookup records, for the calling thread, the epoch it
 * saw, so the stream store then returns exactly the in-memory chunks missing from that answer.
 *
 * <p>Thread-safe: {@code visibility} (taken before the stream store's lock) makes publications atomic
 * with respect to lookups and guards {@code epoch}.
 */
final class VisibleIndex implements IndexReader {
    private final HeadIndex head;
    private final CombinedIndex combined;
    private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();
    private final ThreadLocal<Long> epochSeenByIndexRead = new ThreadLocal<>();
    private long epoch;

    VisibleIndex(HeadIndex head, PersistedIndex persisted) {
        this.head = head;
        this.combined = new CombinedIndex(head, persisted);
    }

    /**
     * Runs {@code publish} with the next epoch while no lookup runs; it adds refs to the head index
     * (and marks the chunks indexed with that epoch).
     */
    void publish(LongConsumer publish) {
        visibility.writeLock().lock();
        try {
            publish.accept(++epoch);
        } finally {
            visibility.writeLock().unlock();
        }
    }

    /** Adds one ref to the head index; call inside {@link #publish}. */
    void addToHead(String tenant, Labels labels, io.logbloom.chunks.ChunkRef ref) {
        head.add(tenant, labels, ref);
    }

    /** Empties the head index (every ref in it is in a persisted index file). */
    void clearHead() {
        head.removeChunksEndingBefore(Long.MAX_VALUE);
    }

    /** The epoch the calling thread's last lookup saw (forgetting it), or {@link Long#MAX_VALUE} without one. */
    long takeSeenEpoch() {
        Long seen = epochSeenByIndexRead.get();
        epochSeenByIndexRead.remove();
        return seen == null ? Long.MAX_VALUE : seen;
    }

    private <T> T read(IndexRead<T> lookup) throws IOException {
        visibility.readLock().lock();
        try {
            epochSeenByIndexRead.set(epoch);
            return lookup.run();
        } finally {
            visibility.readLock().unlock();
        }
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return read(() -> combined.chunks(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return read(() -> combined.series(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return read(() -> combined.labelNames(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        return read(() -> combined.labelValues(tenant, name, matchers, fromNanos, throughNanos));
    }

    @FunctionalInterface
    private interface IndexRead<T> {
        T run() throws IOException;
    }
}
