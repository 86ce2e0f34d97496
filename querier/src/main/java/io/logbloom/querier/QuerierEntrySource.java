package io.logbloom.querier;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.logbloom.logql.Direction;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The LogQL engine's {@link EntrySource} over the querier's store reader, for one query: each
 * selector the engine asks for is read with the bloom query extracted from the log expressions
 * using that selector (or-ed when several expressions share it, so a chunk is fetched if any of
 * them may match). Entries are converted lazily. Not thread-safe: one query, one thread.
 */
final class QuerierEntrySource implements EntrySource {
    private final Querier querier;
    private final QueryContext ctx;
    private final Map<List<Matcher>, BloomQuery> bloomBySelector;

    QuerierEntrySource(Querier querier, QueryContext ctx, Map<List<Matcher>, BloomQuery> bloomBySelector) {
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.ctx = Objects.requireNonNull(ctx, "ctx is null");
        this.bloomBySelector = new HashMap<>(bloomBySelector);
    }

    @Override
    public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction)
            throws IOException {
        BloomQuery bloom = bloomBySelector.getOrDefault(selector, BloomQuery.matchAll());
        List<SeriesEntries> series = querier.select(ctx, matchers(selector), fromNanos, throughNanos,
                direction == Direction.FORWARD, bloom);
        List<SourceStream> out = new ArrayList<>(series.size());
        for (SeriesEntries s : series) {
            Map<String, String> labels = new LinkedHashMap<>();
            for (Label l : s.labels().list()) {
                labels.put(l.name(), l.value());
            }
            out.add(new SourceStream(labels, new Converting(s.entries())));
        }
        return out;
    }

    @Override
    public java.util.Optional<List<io.logbloom.logql.StreamSamples>> countLines(io.logbloom.logql.LineCountQuery query)
            throws IOException {
        BloomQuery bloom = bloomBySelector.getOrDefault(query.selector(), BloomQuery.matchAll());
        return querier.countLines(ctx, matchers(query.selector()), query, bloom);
    }

    @Override
    public void structuredMetadataReferenced() {
        ctx.stats.referencedStructuredMetadata.set(true);
    }

        /** Index matchers for a LogQL selector. */
    static List<LabelMatcher> matchers(List<Matcher> selector) {
        List<LabelMatcher> out = new ArrayList<>(selector.size());
        for (Matcher m : selector) {
            out.add(LabelMatcher.of(LabelMatcher.MatchType.valueOf(m.type().name()), m.name(), m.value()));
        }
        return out;
    }

    /**
     * Structured metadata as an immutable map (the first value of a repeated name wins), built without the
     * intermediate copies: the engine's entry keeps an immutable map as is, and most lines carry one field.
     */
    static Map<String, String> metadata(List<Label> labels) {
        switch (labels.size()) {
            case 0:
                return Map.of();
            case 1:
                return Map.of(labels.get(0).name(), labels.get(0).value());
            case 2:
                Label a = labels.get(0);
                Label b = labels.get(1);
                return a.name().equals(b.name()) ? Map.of(a.name(), a.value()) : Map.of(a.name(), a.value(), b.name(), b.value());
            default:
                Map<String, String> md = new HashMap<>();
                for (Label l : labels) {
                    md.putIfAbsent(l.name(), l.value());
                }
                return Map.copyOf(md);
        }
    }

    /**
     * Converts storage entries to engine entries as they are pulled; over a {@link SeriesReader} it tells the engine
     * what is buffered and the bound of what is left, so a log query's merge reads a series' blocks only when it
     * reaches them.
     */
    private static final class Converting implements io.logbloom.logql.LazyEntries {
        private final Iterator<LogEntry> inner;

        Converting(Iterator<LogEntry> inner) {
            this.inner = inner;
        }

        @Override
        public boolean nextBuffered() {
            // another iterator (a test's list) is read as before: its next entry counts as buffered
            return !(inner instanceof SeriesReader reader) || reader.nextBuffered();
        }

        @Override
        public long boundNanos() {
            if (inner instanceof SeriesReader reader) {
                return reader.boundNanos();
            }
            throw new IllegalStateException("BUG: bound asked of a buffered iterator");
        }

        @Override
        public boolean hasNext() {
            return inner.hasNext();
        }

        @Override
        public StreamEntry next() {
            LogEntry e = inner.next();
            return new StreamEntry(e.timestampNanos(), e.line(), metadata(e.metadata()));
        }
    }
}
