package io.logbloom.compactor;

import io.logbloom.logql.Direction;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.LogSelection;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Hides, at query time, what the compactor deletes or will delete: entries past their stream's
 * retention (when retention is enabled) and lines matching a tenant's delete requests (when its
 * {@code deletion_mode} allows deletes). It wraps the {@link EntrySource} the query runner hands the
 * LogQL engine, so every query kind (logs, metrics, drilldown) sees the same filtered entries; the
 * storage read path stays unaware of it.
 *
 * <p>A request hides a line when the line's stream matches its selector, its timestamp is in the
 * request's [start, end] and it passes the request's pipeline, as Loki's query-time delete filter.
 * Thread-safe; each wrapped source belongs to one query (one thread).
 */
public final class QueryTimeFilter {
    private final RetentionPolicy retention;
    private final boolean retentionEnabled;
    private final DeleteRequestStore deletes;
    private final InstantSource clock;

    /** A filter applying {@code retention} when {@code retentionEnabled}, and the requests of {@code deletes}. */
    public QueryTimeFilter(RetentionPolicy retention, boolean retentionEnabled, DeleteRequestStore deletes,
            InstantSource clock) {
        this.retention = Objects.requireNonNull(retention, "retention is null");
        this.retentionEnabled = retentionEnabled;
        this.deletes = Objects.requireNonNull(deletes, "deletes is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** {@code source} as {@code tenant}'s query sees it now: itself when nothing needs hiding. */
    public EntrySource wrap(String tenant, EntrySource source) throws IOException {
        Objects.requireNonNull(source, "source is null");
        long nowNanos = clock.millis() * 1_000_000L;
        boolean applyRetention = appliesRetention(tenant);
        List<Deletion> active = activeDeletions(tenant);
        if (!applyRetention && active.isEmpty()) {
            return source;
        }
        return new Filtered(tenant, source, applyRetention, nowNanos, List.copyOf(active));
    }

    /**
     * Whether {@link #wrap} may hide entries of {@code tenant} in [fromNanos, throughNanos) now: some
     * stream's retention cutoff lies after {@code fromNanos}, or a pending delete request overlaps the range.
     */
    public boolean mayHide(String tenant, long fromNanos, long throughNanos) throws IOException {
        if (appliesRetention(tenant)) {
            long latest = retention.latestCutoffNanos(tenant, clock.millis() * 1_000_000L);
            if (latest != RetentionPolicy.KEEP_ALL && latest > fromNanos) {
                return true;
            }
        }
        for (Deletion d : activeDeletions(tenant)) {
            if (d.startNanos() < throughNanos && d.endNanos() >= fromNanos) {
                return true;
            }
        }
        return false;
    }

    private boolean appliesRetention(String tenant) {
        RetentionLimits limits = retention.limits().forTenant(tenant);
        return retentionEnabled && (!limits.retentionPeriod().isZero() || !limits.streams().isEmpty());
    }

    /** The tenant's requests still hiding lines at query time (received, not yet processed). */
    private List<Deletion> activeDeletions(String tenant) throws IOException {
        List<Deletion> active = new ArrayList<>();
        if (retention.limits().forTenant(tenant).deletionMode().deleteEnabled()) {
            for (DeleteRequest r : deletes.cached(tenant)) {
                if (!r.received()) {
                    continue; // processed: its lines are physically gone
                }
                active.add(new Deletion(r.startNanos(), r.endNanos(), LogSelection.parse(r.query())));
            }
        }
        return active;
    }

    private record Deletion(long startNanos, long endNanos, LogSelection selection) {}

    /** The wrapped source of one query. */
    private final class Filtered implements EntrySource {
        private final String tenant;
        private final EntrySource inner;
        private final boolean applyRetention;
        private final long nowNanos;
        private final List<Deletion> deletions;

        Filtered(String tenant, EntrySource inner, boolean applyRetention, long nowNanos, List<Deletion> deletions) {
            this.tenant = tenant;
            this.inner = inner;
            this.applyRetention = applyRetention;
            this.nowNanos = nowNanos;
            this.deletions = deletions;
        }

        @Override
        public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction)
                throws IOException {
            long from = fromNanos;
            if (applyRetention) {
                long earliest = retention.earliestCutoffNanos(tenant, nowNanos);
                if (earliest != RetentionPolicy.KEEP_ALL && earliest > from) {
                    from = Math.min(earliest, throughNanos);
                }
            }
            List<SourceStream> streams = inner.select(selector, from, throughNanos, direction);
            List<SourceStream> out = new ArrayList<>(streams.size());
            for (SourceStream s : streams) {
                long cutoff = applyRetention ? retention.cutoffNanos(tenant, s.labels(), nowNanos) : RetentionPolicy.KEEP_ALL;
                List<Deletion> matching = new ArrayList<>();
                for (Deletion d : deletions) {
                    if (d.startNanos() < throughNanos && d.endNanos() >= from && d.selection().matchesStream(s.labels())) {
                        matching.add(d);
                    }
                }
                if (cutoff <= from && matching.isEmpty()) {
                    out.add(s);
                } else {
                    out.add(new SourceStream(s.labels(), new Hiding(s, cutoff, matching)));
                }
            }
            return out;
        }

        @Override
        public void structuredMetadataReferenced() {
            inner.structuredMetadataReferenced();
        }
    }

    /** Skips the entries of one stream that are expired or deleted. */
    private static final class Hiding implements Iterator<StreamEntry> {
        private final SourceStream stream;
        private final long cutoffNanos;
        private final List<Deletion> deletions;
        private StreamEntry next;

        Hiding(SourceStream stream, long cutoffNanos, List<Deletion> deletions) {
            this.stream = stream;
            this.cutoffNanos = cutoffNanos;
            this.deletions = deletions;
        }

        @Override
        public boolean hasNext() {
            while (next == null && stream.entries().hasNext()) {
                StreamEntry e = stream.entries().next();
                if (e.timestampNanos() >= cutoffNanos && !deleted(e)) {
                    next = e;
                }
            }
            return next != null;
        }

        private boolean deleted(StreamEntry e) {
            for (Deletion d : deletions) {
                if (e.timestampNanos() >= d.startNanos() && e.timestampNanos() <= d.endNanos()
                        && d.selection().passesPipeline(e.timestampNanos(), e.line(), stream.labels(), e.structuredMetadata())) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public StreamEntry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            StreamEntry e = next;
            next = null;
            return e;
        }
    }
}
