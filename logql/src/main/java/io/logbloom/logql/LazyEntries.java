package io.logbloom.logql;

import java.util.Iterator;

/**
 * An entry iterator of a {@link SourceStream} that can tell, without reading storage, whether its next entry is
 * already in memory and a bound on the time of every entry it has left. A log query's k-way merge uses it to keep a
 * stream that has not been read yet (or whose buffered entries ran out) in its heap by that bound, so a satisfied
 * limit stops before the blocks it never needed are read, as Loki's iterators merge in time order. A source whose
 * iterator is a plain {@link Iterator} is read eagerly up to its first entry, as before.
 */
public interface LazyEntries extends Iterator<StreamEntry> {
    /** Whether {@link #hasNext()} and {@link #next()} answer from memory (no block or chunk read). */
    boolean nextBuffered();

    /**
     * A bound on the timestamps of all entries left: none is later than it reading backward, none earlier reading
     * forward; {@link Long#MIN_VALUE} (backward) or {@link Long#MAX_VALUE} (forward) when nothing is left.
     */
    long boundNanos();
}
