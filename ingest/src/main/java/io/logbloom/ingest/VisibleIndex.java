package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The index of everything in the object store (the persisted index files) with the visibility lock
 * between it and the ingester's local parts: a merge writes an object's index file and takes its
 * parts out of the readers' view under the write lock ({@link #publication()}), and a reader that
 * needs the index answer and the unflushed data together takes both under the read lock
 * ({@link #consistently}), so every row is in exactly one of the two.
 *
 * <p>Thread-safe.
 */
final class VisibleIndex implements IndexReader {
    private final PersistedIndex persisted;
    private final ReentrantReadWriteLock visibility = new ReentrantReadWriteLock();

    VisibleIndex(PersistedIndex persisted) {
        this.persisted = persisted;
    }

    /** The lock a merge holds while it publishes an object and retires its parts. */
    Lock publication() {
        return visibility.writeLock();
    }

    /** Runs {@code read} while no merge publishes. */
    <T> T consistently(IndexRead<T> read) throws IOException {
        visibility.readLock().lock();
        try {
            return read.run();
        } finally {
            visibility.readLock().unlock();
        }
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return consistently(() -> persisted.chunks(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return consistently(() -> persisted.series(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return consistently(() -> persisted.labelNames(tenant, matchers, fromNanos, throughNanos));
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        return consistently(() -> persisted.labelValues(tenant, name, matchers, fromNanos, throughNanos));
    }

    /** A read that may fail with an IOException. */
    @FunctionalInterface
    interface IndexRead<T> {
        T run() throws IOException;
    }
}
