package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.logql.Direction;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class QueryTimeFilterTest {
    private static final long DAY = 86_400_000_000_000L;
    private static final long NOW_MILLIS = 10L * 86_400_000L;
    private final InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(NOW_MILLIS));
    private final DeleteRequestStore deletes = new DeleteRequestStore(new InMemoryObjectStore(), clock,
            new SplittableRandom(1));

    /** Two streams with one entry per day, days 0..9; records the range each select asked for. */
    private static final class FakeSource implements EntrySource {
        final List<long[]> asked = new ArrayList<>();

        @Override
        public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction) {
            asked.add(new long[] {fromNanos, throughNanos});
            List<SourceStream> out = new ArrayList<>();
            for (String app : List.of("web", "audit")) {
                List<StreamEntry> entries = new ArrayList<>();
                for (int d = 0; d < 10; d++) {
                    long ts = d * DAY + 1;
                    if (ts >= fromNanos && ts < throughNanos) {
                        entries.add(new StreamEntry(ts, "day " + d + " user=" + (d % 2 == 0 ? "bob" : "eve")));
                    }
                }
                out.add(new SourceStream(Map.of("app", app), entries.iterator()));
            }
            return out;
        }
    }

    private static Map<String, List<String>> lines(List<SourceStream> streams) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (SourceStream s : streams) {
            List<String> l = new ArrayList<>();
            s.entries().forEachRemaining(e -> l.add(e.line()));
            out.put(s.labels().get("app"), l);
        }
        return out;
    }

    private QueryTimeFilter filter(RetentionLimits limits, boolean retentionEnabled) {
        return new QueryTimeFilter(new RetentionPolicy(TenantLimits.uniform(limits)), retentionEnabled, deletes, clock);
    }

    @Test
    void wrap_nothingToHide_returnsTheSourceItself() throws IOException {
        FakeSource source = new FakeSource();
        assertThat(filter(RetentionLimits.defaults(), true).wrap("t", source)).isSameAs(source);
        RetentionLimits week = new RetentionLimits(Duration.ofDays(7), List.of(), DeletionMode.FILTER_AND_DELETE);
        assertThat(filter(week, false).wrap("t", source)).isSameAs(source); // retention disabled: nothing expires
    }

    @Test
    void retention_hidesEntriesBeforeEachStreamsCutoff_andNarrowsTheRead() throws IOException {
        RetentionLimits limits = new RetentionLimits(Duration.ofDays(3),
                List.of(new StreamRetention("{app=\"audit\"}", Duration.ofDays(5), 1)), DeletionMode.FILTER_AND_DELETE);
        FakeSource source = new FakeSource();
        Map<String, List<String>> got = lines(filter(limits, true).wrap("t", source).select(List.of(), 0, 11 * DAY,
                Direction.FORWARD));
        assertThat(got.get("web")).containsExactly("day 7 user=eve", "day 8 user=bob", "day 9 user=eve");
        assertThat(got.get("audit")).hasSize(5).first().isEqualTo("day 5 user=eve");
        assertThat(source.asked.get(0)[0]).isEqualTo(5 * DAY); // nothing older than the longest retention is read
    }

    @Test
    void deleteRequest_hidesMatchingLinesInItsRange_only() throws IOException {
        deletes.add("t", "{app=\"web\"} |= \"user=bob\"", 2 * 86_400_000L, 6 * 86_400_000L);
        Map<String, List<String>> got = lines(filter(RetentionLimits.defaults(), false).wrap("t", new FakeSource())
                .select(List.of(), 0, 11 * DAY, Direction.FORWARD));
        assertThat(got.get("web")).doesNotContain("day 2 user=bob", "day 4 user=bob", "day 6 user=bob")
                .contains("day 0 user=bob", "day 8 user=bob", "day 3 user=eve").hasSize(7);
        assertThat(got.get("audit")).hasSize(10);
        // another tenant's requests do not apply
        assertThat(lines(filter(RetentionLimits.defaults(), false).wrap("u", new FakeSource())
                .select(List.of(), 0, 11 * DAY, Direction.FORWARD)).get("web")).hasSize(10);
    }

    @Test
    void deleteRequest_deletionDisabled_notApplied() throws IOException {
        deletes.add("t", "{app=\"web\"}", 0, NOW_MILLIS);
        RetentionLimits disabled = new RetentionLimits(Duration.ZERO, List.of(), DeletionMode.DISABLED);
        FakeSource source = new FakeSource();
        assertThat(filter(disabled, true).wrap("t", source)).isSameAs(source);
    }

    @Test
    void deleteRequest_processed_noLongerFilters() throws IOException {
        DeleteRequest r = deletes.add("t", "{app=\"web\"}", 0, NOW_MILLIS);
        deletes.put(r.withStatus(DeleteRequest.STATUS_PROCESSED)); // the compactor removed its lines from storage
        FakeSource source = new FakeSource();
        assertThat(filter(RetentionLimits.defaults(), false).wrap("t", source)).isSameAs(source);
    }

    @Test
    void mayHide_onlyWhenACutoffOrAPendingRequestFallsInTheRange() throws IOException {
        RetentionLimits limits = new RetentionLimits(Duration.ofDays(7),
                List.of(new StreamRetention("{app=\"debug\"}", Duration.ofDays(3), 1)), DeletionMode.FILTER_AND_DELETE);
        QueryTimeFilter filter = filter(limits, true);
        assertThat(filter.mayHide("t", 8 * DAY, 11 * DAY)).as("after the latest cutoff (day 7)").isFalse();
        assertThat(filter.mayHide("t", 6 * DAY, 11 * DAY)).as("debug's 3-day cutoff at day 7").isTrue();
        assertThat(filter(limits, false).mayHide("t", 0, 11 * DAY)).as("retention disabled").isFalse();
        assertThat(filter(RetentionLimits.defaults(), true).mayHide("t", 0, 11 * DAY)).isFalse();

        deletes.add("t", "{app=\"web\"}", 9 * 86_400_000L, 9 * 86_400_000L + 1000);
        assertThat(filter.mayHide("t", 8 * DAY, 10 * DAY)).as("a pending request overlaps").isTrue();
        assertThat(filter.mayHide("t", 9 * DAY + 2_000_000_000L, 11 * DAY)).as("after the request").isFalse();
        assertThat(filter.mayHide("other", 0, 11 * DAY)).as("no request, but the same retention").isTrue();
    }

    @Test
    void latestCutoff_isTheShortestRetention() {
        RetentionPolicy policy = new RetentionPolicy(TenantLimits.uniform(new RetentionLimits(Duration.ofDays(7),
                List.of(new StreamRetention("{app=\"debug\"}", Duration.ofDays(2), 1)), DeletionMode.FILTER_AND_DELETE)));
        assertThat(policy.latestCutoffNanos("t", 10 * DAY)).isEqualTo(8 * DAY);
        assertThat(new RetentionPolicy(TenantLimits.uniform(RetentionLimits.defaults())).latestCutoffNanos("t", DAY))
                .isEqualTo(RetentionPolicy.KEEP_ALL);
        RetentionPolicy rulesOnly = new RetentionPolicy(TenantLimits.uniform(new RetentionLimits(Duration.ZERO,
                List.of(new StreamRetention("{app=\"debug\"}", Duration.ofDays(1), 1)), DeletionMode.FILTER_AND_DELETE)));
        assertThat(rulesOnly.latestCutoffNanos("t", 10 * DAY)).isEqualTo(9 * DAY);
    }
}
