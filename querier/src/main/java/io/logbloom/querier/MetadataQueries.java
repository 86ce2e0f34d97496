package io.logbloom.querier;

import io.logbloom.chunks.Labels;
import io.logbloom.index.LabelMatcher;
import io.logbloom.logql.Direction;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.MatchType;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Label names and values, series, index stats and volumes as log queries see the data: what the
 * query source filter hides (entries past retention, lines of pending delete requests) is hidden
 * here too, as Loki hides expired and deleted data from these endpoints.
 *
 * <p>When the filter cannot hide anything of the tenant in the range ({@link QuerySourceFilter#mayHide}:
 * no retention cutoff inside it, no delete request overlapping it), the answers come from the index and
 * the ingester's unflushed data as before, without reading a line. Otherwise the matching streams are
 * read through the filter: a series counts only while one of its entries in the range stays visible
 * (labels and series stop at the first one); stats and volumes count the visible entries, and scale
 * each series' bytes (encoded sizes, as the index keeps them) by its share of visible entries.
 *
 * <p>Thread-safe (each call reads with its own query context).
 */
public final class MetadataQueries {
    private final Querier querier;
    private final QuerySourceFilter filter;

    /** Answers over {@code querier}'s data as {@code filter} shows it to queries. */
    public MetadataQueries(Querier querier, QuerySourceFilter filter) {
        this.querier = Objects.requireNonNull(querier, "querier is null");
        this.filter = Objects.requireNonNull(filter, "filter is null");
    }

    /** Label names of matching series with visible data in the range, sorted. */
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        if (!filter.mayHide(tenant, fromNanos, throughNanos)) {
            return querier.labelNames(tenant, matchers, fromNanos, throughNanos);
        }
        TreeSet<String> names = new TreeSet<>();
        for (Labels labels : visible(tenant, matchers, fromNanos, throughNanos, false).keySet()) {
            names.addAll(labels.names());
        }
        return List.copyOf(names);
    }

    /** Values of label {@code name} over matching series with visible data in the range, sorted. */
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        if (!filter.mayHide(tenant, fromNanos, throughNanos)) {
            return querier.labelValues(tenant, name, matchers, fromNanos, throughNanos);
        }
        TreeSet<String> values = new TreeSet<>();
        for (Labels labels : visible(tenant, matchers, fromNanos, throughNanos, false).keySet()) {
            String v = labels.get(name);
            if (v != null) {
                values.add(v);
            }
        }
        return List.copyOf(values);
    }

    /** Label sets of series matching any of the matcher groups with visible data in the range, sorted. */
    public List<Labels> series(String tenant, List<List<LabelMatcher>> groups, long fromNanos, long throughNanos)
            throws IOException {
        if (!filter.mayHide(tenant, fromNanos, throughNanos)) {
            return querier.series(tenant, groups, fromNanos, throughNanos);
        }
        TreeSet<Labels> all = new TreeSet<>();
        for (List<LabelMatcher> matchers : groups) {
            all.addAll(visible(tenant, matchers, fromNanos, throughNanos, false).keySet());
        }
        return List.copyOf(all);
    }

    /** Streams, chunks, entries and bytes of the visible data matching {@code matchers} in the range. */
    public IndexStats indexStats(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos)
            throws IOException {
        if (!filter.mayHide(tenant, fromNanos, throughNanos)) {
            return querier.indexStats(tenant, matchers, fromNanos, throughNanos);
        }
        return Querier.indexStats(visible(tenant, matchers, fromNanos, throughNanos, true));
    }

    /** Loki's volume (see {@link Querier#volume}) over the visible data. */
    public List<SeriesVolume> volume(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos,
            List<String> targetLabels, boolean aggregateBySeries, int limit) throws IOException {
        if (!filter.mayHide(tenant, fromNanos, throughNanos)) {
            return querier.volume(tenant, matchers, fromNanos, throughNanos, targetLabels, aggregateBySeries, limit);
        }
        return Querier.volume(visible(tenant, matchers, fromNanos, throughNanos, true), matchers, targetLabels,
                aggregateBySeries, limit);
    }

    /**
     * {chunks, entries, bytes} of each matching series with a visible entry in the range, read through
     * the filter; with {@code countAll} false only whether one is visible (entries then count one).
     */
    private Map<Labels, long[]> visible(String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos, boolean countAll) throws IOException {
        Map<Labels, long[]> totals = querier.perSeriesTotals(tenant, matchers, fromNanos, throughNanos);
        QueryContext ctx = querier.newContext(tenant, false);
        EntrySource source = filter.wrap(tenant, new QuerierEntrySource(querier, ctx, Map.of()));
        List<Matcher> selector = new ArrayList<>(matchers.size());
        for (LabelMatcher m : matchers) {
            selector.add(new Matcher(MatchType.valueOf(m.type().name()), m.name(), m.value()));
        }
        Map<Labels, long[]> out = new LinkedHashMap<>();
        for (SourceStream stream : source.select(selector, fromNanos, throughNanos, Direction.FORWARD)) {
            long entries = 0;
            while (stream.entries().hasNext()) {
                stream.entries().next();
                entries++;
                if (!countAll) {
                    break;
                }
            }
            if (entries == 0) {
                continue;
            }
            Labels labels = Labels.of(stream.labels());
            long[] all = totals.getOrDefault(labels, new long[3]);
            long bytes = all[1] <= 0 ? 0 : (long) ((double) all[2] * Math.min(entries, all[1]) / all[1]);
            out.put(labels, new long[] {all[0], entries, bytes});
        }
        return out;
    }
}
