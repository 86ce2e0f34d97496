package io.logbloom.index;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The index files this process put into the store in the last {@link #KEPT}, with when: an ingester of a cluster
 * tells queriers that keep their index listings (see {@code IndexListingCachingStore#reported}) which files it wrote
 * since a moment, so a listing taken before those uploads does not hide them. A put that failed is recorded too (it
 * may still have landed). Bounded at {@link #MAX_FILES}; when older writes had to be dropped, or the moment asked
 * about lies more than {@link #KEPT} back, {@link #since} says it does not know. Before it was created this log's
 * writer wrote nothing, so a moment before that is answered in full; a reader telling logs apart goes by {@link #id}
 * (an ingester names it in its incarnation). Thread-safe.
 */
public final class RecentIndexFiles {
    /** How long a write is remembered; a querier keeping listings longer than this (less a margin) lists every query. */
    public static final Duration KEPT = Duration.ofMinutes(10);
    /** Writes remembered at most: a merge writes a file per period it covers, a few a minute per tenant. */
    static final int MAX_FILES = 20_000;

    private final InstantSource clock;
    private final int maxFiles;
    private final String id = Long.toHexString(ThreadLocalRandom.current().nextLong());
    /** Oldest first. Guarded by {@code this}. */
    private final ArrayDeque<Write> writes = new ArrayDeque<>();
    /** Every write at or after this instant (epoch millis) is in {@link #writes}. Guarded by {@code this}. */
    private long completeSinceMillis;

    private record Write(long atMillis, String key) {}

    /** Remembers writes from now on, timed by {@code clock}. */
    public RecentIndexFiles(InstantSource clock) {
        this(clock, MAX_FILES);
    }

    /** As the public constructor, remembering at most {@code maxFiles} writes (tests use a small bound). */
    RecentIndexFiles(InstantSource clock, int maxFiles) {
        this.clock = Objects.requireNonNull(clock, "clock is null");
        if (maxFiles < 1) {
            throw new IllegalArgumentException("maxFiles must be positive: " + maxFiles);
        }
        this.maxFiles = maxFiles;
        this.completeSinceMillis = Long.MIN_VALUE;
    }

    /** Tells this log apart from any other (of a restarted process, say): random, fixed for its life. */
    public String id() {
        return id;
    }

    /** Records that this process put (or tried to put) the index file {@code key} just now. */
    public synchronized void written(String key) {
        Objects.requireNonNull(key, "key is null");
        long now = clock.millis();
        prune(now);
        if (writes.size() == maxFiles) {
            Write dropped = writes.removeFirst();
            completeSinceMillis = Math.max(completeSinceMillis, dropped.atMillis() + 1);
        }
        writes.addLast(new Write(now, key));
    }

    /**
     * The keys of {@code tenant}'s index files written at or after {@code sinceMillis} (epoch millis), oldest first;
     * empty when some writes since then may be missing (more than {@link #KEPT} ago, or dropped for the bound).
     */
    public synchronized Optional<List<String>> since(String tenant, long sinceMillis) {
        prune(clock.millis());
        if (sinceMillis < completeSinceMillis) {
            return Optional.empty();
        }
        String prefix = IndexKeys.tenantPrefix(tenant);
        List<String> keys = new ArrayList<>();
        for (Write w : writes) {
            if (w.atMillis() >= sinceMillis && w.key().startsWith(prefix)) {
                keys.add(w.key());
            }
        }
        return Optional.of(keys);
    }

    private void prune(long now) {
        long horizon = now - KEPT.toMillis();
        while (!writes.isEmpty() && writes.peekFirst().atMillis() < horizon) {
            Write dropped = writes.removeFirst();
            completeSinceMillis = Math.max(completeSinceMillis, dropped.atMillis() + 1);
        }
    }
}
