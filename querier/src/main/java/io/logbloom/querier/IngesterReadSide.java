package io.logbloom.querier;

import io.logbloom.chunks.Labels;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.StreamSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The querier's view of a running {@link Ingester}: its index (head + persisted) and its unflushed
 * entries, looked up through a supplier on every call so the querier can be built before the
 * ingester has replayed its WAL. Thread-safe (the ingester is).
 */
final class IngesterReadSide implements IndexReader, UnflushedSource {
    private final Supplier<Ingester> ingester;

    IngesterReadSide(Supplier<Ingester> ingester) {
        this.ingester = Objects.requireNonNull(ingester, "ingester is null");
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return ingester.get().index().chunks(tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return ingester.get().index().series(tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        return ingester.get().index().labelNames(tenant, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        return ingester.get().index().labelValues(tenant, name, matchers, fromNanos, throughNanos);
    }

    @Override
    public List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        // labels and time ranges only (label, series and volume lookups): the parts are handed back at once
        try (Ingester.Unflushed unflushed = ingester.get().unflushed(tenant, matchers, fromNanos, throughNanos)) {
            return streams(unflushed.streams());
        }
    }

    /** The ingester's index answer and unflushed data, taken together (a merge in between neither hides nor repeats rows). */
    @Override
    public Snapshot snapshot(IndexReader index, String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        Ingester.ReadView view = ingester.get().read(tenant, matchers, fromNanos, throughNanos);
        return new Snapshot(view.indexed(), streams(view.unflushed().streams()), view::close);
    }

    /** True: the ingester runs in this process. */
    @Override
    public boolean answersInProcess() {
        return true;
    }

    private static List<Stream> streams(List<StreamSnapshot> snapshots) {
        List<Stream> out = new ArrayList<>(snapshots.size());
        for (StreamSnapshot s : snapshots) {
            out.add(new Stream(s.labels(), s.entries(), s.parts()));
        }
        return out;
    }
}
