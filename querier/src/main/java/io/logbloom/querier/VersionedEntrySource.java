package io.logbloom.querier;

import io.logbloom.logql.Direction;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.LineCountQuery;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamSamples;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An entry source that notes, for one split's evaluation, every read it passes on and the version of the data that
 * read sees, taken just before the read: if rows land between the two, the stored version is older than the result
 * and the next lookup misses, so a cached result never hides a change. A read the delete/retention filter may hide
 * rows of, or that meets unflushed rows, makes the split uncacheable. Not thread-safe: one split, one thread.
 */
final class VersionedEntrySource implements EntrySource {
    private final EntrySource delegate;
    private final Querier querier;
    private final String tenant;
    private final QuerySourceFilter filter;
    private final List<ResultsCache.SplitRead> reads = new ArrayList<>();
    private final List<List<String>> versions = new ArrayList<>();
    private boolean cacheable = true;

    VersionedEntrySource(EntrySource delegate, Querier querier, String tenant, QuerySourceFilter filter) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.tenant = Objects.requireNonNull(tenant, "tenant is null");
        this.filter = Objects.requireNonNull(filter, "filter is null");
    }

    @Override
    public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction)
            throws IOException {
        note(selector, fromNanos, throughNanos);
        return delegate.select(selector, fromNanos, throughNanos, direction);
    }

    @Override
    public Optional<List<StreamSamples>> countLines(LineCountQuery query) throws IOException {
        // the count's bounds are exclusive on both sides; the read [from, through + 1) covers them
        note(query.selector(), query.fromNanos(), query.throughNanos() + 1);
        return delegate.countLines(query);
    }

    @Override
    public void structuredMetadataReferenced() {
        delegate.structuredMetadataReferenced();
    }

    private void note(List<Matcher> selector, long fromNanos, long throughNanos) throws IOException {
        if (!cacheable) {
            return;
        }
        ResultsCache.SplitRead read = new ResultsCache.SplitRead(QuerierEntrySource.matchers(selector), fromNanos,
                throughNanos);
        Optional<List<String>> version = version(querier, filter, tenant, read);
        if (version.isEmpty()) {
            cacheable = false;
            return;
        }
        reads.add(read);
        versions.add(version.get());
    }

    /** The version of the data {@code read} sees, or empty when the filter may hide rows there or some are unflushed. */
    static Optional<List<String>> version(Querier querier, QuerySourceFilter filter, String tenant,
            ResultsCache.SplitRead read) throws IOException {
        if (filter.mayHide(tenant, read.fromNanos(), read.throughNanos())) {
            return Optional.empty();
        }
        return querier.readVersion(tenant, read.matchers(), read.fromNanos(), read.throughNanos());
    }

    /** Whether every read so far saw data that can no longer change unseen. */
    boolean cacheable() {
        return cacheable;
    }

    /** The reads passed on, in order. */
    List<ResultsCache.SplitRead> reads() {
        return List.copyOf(reads);
    }

    /** The version each read saw, in the order of {@link #reads()}. */
    List<List<String>> versions() {
        return List.copyOf(versions);
    }
}
