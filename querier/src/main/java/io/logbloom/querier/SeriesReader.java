package io.logbloom.querier;

import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The entries of one series in time order (either direction), merged lazily from its chunks and
 * the ingester's in-memory entries, with identical entries (same timestamp and line) dropped.
 *
 * <p>Design: segments (a chunk, or the in-memory run) are ordered by the time they can first
 * contribute — ascending start when reading forward, descending end when reading backward. A
 * segment is loaded only when the buffer is empty or its range reaches the buffer's next entry,
 * so a consumer that stops early (a satisfied limit) never fetches the chunks beyond. Chunks of a
 * series may overlap in time (unordered writes); a k-way merge over the loaded segments (each sorted once
 * on load, linear when it already is) merges them, so a step costs a comparison with the next segment rather
 * than a heap operation over every buffered entry, and a run from one segment touches no heap at all. Loading one
 * segment starts its own read (which the consumer waits for at once, so a segment may read it on the consuming
 * thread), then byte fetches for the next {@code prefetch} ones on the shared bounded pool; decoding
 * happens on the consuming thread when a segment is reached. Ties are
 * broken by line, then metadata, so the output is a total order and is the same whichever
 * chunks were skipped by blooms: a skipped chunk holds no match, and order does not depend on it.
 *
 * <p>Not thread-safe: one consumer.
 */
final class SeriesReader implements Iterator<LogEntry> {
    /** Decodes a segment's fetched bytes on the consuming thread. */
    @FunctionalInterface
    interface Decoder {
        List<LogEntry> decode(byte[] fetched) throws IOException;
    }

    /** Starts the read of a segment's bytes. */
    @FunctionalInterface
    interface Fetch {
        /**
         * The segment's bytes, coming. {@code awaited}: the consumer waits for them at once (nothing to overlap the
         * read with), so a read that costs less than a hand-off to the pool may run on the calling thread; false for
         * a prefetch, which must not hold the caller up.
         */
        CompletableFuture<byte[]> start(boolean awaited);

        /** A read of bytes that may fail. */
        @FunctionalInterface
        interface Read {
            byte[] read() throws IOException;
        }

        /**
         * {@code read} run on the calling thread, a failure reported through the future as a read on the pool
         * reports it: an I/O error as {@code cannot read <what>: <reason>}.
         */
        static CompletableFuture<byte[]> now(Read read, String what) {
            try {
                return CompletableFuture.completedFuture(read.read());
            } catch (IOException e) {
                return CompletableFuture.failedFuture(
                        new UncheckedIOException("cannot read " + what + ": " + e.getMessage(), e));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }

    /**
     * One source of entries with its time bounds: {@code fetch} starts the (asynchronous) read of its
     * bytes, {@code decoder} turns them into entries when the reader reaches the segment. Only bytes
     * are prefetched, so memory holds at most the prefetched encoded chunks plus the decoded ones
     * being merged.
     */
    record Segment(long minNanos, long maxNanos, Fetch fetch, Decoder decoder) {}

    static final Comparator<LogEntry> FORWARD = Comparator.comparingLong(LogEntry::timestampNanos)
            .thenComparing(LogEntry::line)
            .thenComparing(e -> e.metadata().toString());
    static final Comparator<LogEntry> BACKWARD = Comparator.comparingLong(LogEntry::timestampNanos).reversed()
            .thenComparing(LogEntry::line)
            .thenComparing(e -> e.metadata().toString());

    private final List<Segment> segments;
    private final boolean forward;
    private final int prefetch;
    private final QueryContext ctx;
    private final Comparator<LogEntry> order;
    /** Loaded segments not exhausted, by head entry, except {@link #top}. */
    private final PriorityQueue<Cursor> cursors;
    /** The loaded segment whose head is the smallest of all, kept off the heap while it stays so; may be null. */
    private Cursor top;
    private final List<CompletableFuture<byte[]>> started;
    private int nextSegment;
    private LogEntry pending;
    private LogEntry last;

    SeriesReader(List<Segment> segments, boolean forward, int prefetch, QueryContext ctx) {
        List<Segment> sorted = new ArrayList<>(segments);
        sorted.sort(forward
                ? Comparator.comparingLong(Segment::minNanos)
                : Comparator.comparingLong(Segment::maxNanos).reversed());
        this.segments = sorted;
        this.forward = forward;
        this.prefetch = Math.max(0, prefetch);
        this.ctx = ctx;
        this.order = forward ? FORWARD : BACKWARD;
        this.cursors = new PriorityQueue<>((a, b) -> order.compare(a.head(), b.head()));
        this.started = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            started.add(null);
        }
    }

    @Override
    public boolean hasNext() {
        while (pending == null) {
            LogEntry candidate = pollNext();
            if (candidate == null) {
                return false;
            }
            if (last != null && last.timestampNanos() == candidate.timestampNanos()
                    && last.line().equals(candidate.line())) {
                ctx.stats.totalDuplicates.increment();
                continue;
            }
            pending = candidate;
        }
        return true;
    }

    @Override
    public LogEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        last = pending;
        pending = null;
        return last;
    }

    /** Whether the next {@link #hasNext}/{@link #next} answers from loaded segments, loading and fetching none. */
    boolean nextBuffered() {
        if (pending != null) {
            return true;
        }
        LogEntry head = bufferedHead();
        return head != null && (nextSegment >= segments.size() || !reaches(segments.get(nextSegment), head));
    }

    /**
     * A bound on the timestamps of the entries left, without loading: none is later (reading backward) or earlier
     * (reading forward) than it; {@link Long#MIN_VALUE} (backward) or {@link Long#MAX_VALUE} (forward) when none is
     * left. The next segment's bound is its time range's end in the read direction, as the segments are ordered by.
     */
    long boundNanos() {
        long bound = forward ? Long.MAX_VALUE : Long.MIN_VALUE;
        LogEntry head = pending != null ? pending : bufferedHead();
        if (head != null) {
            bound = head.timestampNanos();
        }
        if (nextSegment < segments.size()) {
            Segment next = segments.get(nextSegment);
            bound = forward ? Math.min(bound, next.minNanos()) : Math.max(bound, next.maxNanos());
        }
        return bound;
    }

    private LogEntry bufferedHead() {
        return top != null ? top.head() : cursors.isEmpty() ? null : cursors.peek().head();
    }

    /** A loaded segment's entries in merge order and the position of its head. */
    private static final class Cursor {
        final List<LogEntry> entries;
        int position;

        Cursor(List<LogEntry> entries) {
            this.entries = entries;
        }

        LogEntry head() {
            return entries.get(position);
        }
    }

    private LogEntry pollNext() {
        while (nextSegment < segments.size()) {
            LogEntry min = top != null ? top.head() : cursors.isEmpty() ? null : cursors.peek().head();
            if (min != null && !reaches(segments.get(nextSegment), min)) {
                break;
            }
            List<LogEntry> loaded = sorted(load(nextSegment++));
            if (!loaded.isEmpty()) {
                if (top != null) {
                    cursors.add(top);
                    top = null;
                }
                cursors.add(new Cursor(loaded));
            }
        }
        if (top == null) {
            top = cursors.poll();
            if (top == null) {
                return null;
            }
        }
        LogEntry entry = top.entries.get(top.position++);
        if (top.position == top.entries.size()) {
            top = null;
        } else if (!cursors.isEmpty() && order.compare(top.head(), cursors.peek().head()) > 0) {
            cursors.add(top);
            top = null;
        }
        return entry;
    }

    /** The entries in merge order: as they are when already sorted (one linear check), else a sorted copy. */
    private List<LogEntry> sorted(List<LogEntry> entries) {
        for (int i = 1; i < entries.size(); i++) {
            if (order.compare(entries.get(i - 1), entries.get(i)) > 0) {
                List<LogEntry> copy = new ArrayList<>(entries);
                copy.sort(order);
                return copy;
            }
        }
        return entries;
    }

    private boolean reaches(Segment segment, LogEntry head) {
        return forward ? segment.minNanos() <= head.timestampNanos() : segment.maxNanos() >= head.timestampNanos();
    }

    private List<LogEntry> load(int index) {
        // the awaited read first: on a shared pool it must not queue behind this reader's prefetches
        CompletableFuture<byte[]> future = started.get(index);
        if (future == null) {
            future = segments.get(index).fetch().start(true);
        }
        started.set(index, null);
        int end = Math.min(segments.size(), index + 1 + prefetch);
        for (int i = index + 1; i < end; i++) {
            if (started.get(i) == null) {
                started.set(i, segments.get(i).fetch().start(false));
            }
        }
        byte[] bytes;
        try {
            bytes = future.get(ctx.remainingMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw ctx.timeout();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuerierException(QuerierErrorCode.TIMEOUT, "query interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof QuerierException q) {
                throw q;
            }
            throw new QuerierException(QuerierErrorCode.STORAGE, "cannot read chunk: " + cause.getMessage(), cause);
        }
        try {
            return segments.get(index).decoder().decode(bytes);
        } catch (IOException e) {
            throw new QuerierException(QuerierErrorCode.STORAGE, "cannot decode chunk: " + e.getMessage(), e);
        }
    }
}
