package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SeriesReader against brute force on random overlapping, partly unsorted segments with duplicates: the output
 * is every entry in merge order with identical (time, line) pairs dropped, and a consumer that stops early
 * loads only the segments that can reach the entries it took.
 */
final class SeriesReaderTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void merge_equalsSortedDeduplicatedEntries(long seed) {
        Random r = new Random(seed);
        List<List<LogEntry>> segments = new ArrayList<>();
        int n = 1 + r.nextInt(6);
        for (int s = 0; s < n; s++) {
            long base = r.nextInt(200);
            List<LogEntry> entries = new ArrayList<>();
            int size = r.nextInt(80);
            for (int i = 0; i < size; i++) {
                long ts = base + r.nextInt(100);
                List<Label> md = r.nextInt(5) == 0 ? List.of(new Label("trace_id", "t" + r.nextInt(3))) : List.of();
                entries.add(new LogEntry(ts, "line " + r.nextInt(30), md));
            }
            entries.sort(SeriesReader.FORWARD);
            if (r.nextBoolean()) {
                Collections.shuffle(entries, r);
            }
            segments.add(entries);
        }
        for (boolean forward : new boolean[] {true, false}) {
            int[] loads = new int[1];
            List<SeriesReader.Segment> segs = new ArrayList<>();
            for (List<LogEntry> entries : segments) {
                long min = entries.stream().mapToLong(LogEntry::timestampNanos).min().orElse(0);
                long max = entries.stream().mapToLong(LogEntry::timestampNanos).max().orElse(0);
                segs.add(new SeriesReader.Segment(min, max, awaited -> CompletableFuture.completedFuture(new byte[0]), b -> {
                    loads[0]++;
                    return List.copyOf(entries);
                }));
            }
            QueryContext ctx = new QueryContext("t", true, Clock.systemUTC(), Duration.ofMinutes(1));
            List<LogEntry> actual = new ArrayList<>();
            new SeriesReader(segs, forward, 2, ctx).forEachRemaining(actual::add);

            List<LogEntry> all = new ArrayList<>();
            segments.forEach(all::addAll);
            all.sort(forward ? SeriesReader.FORWARD : SeriesReader.BACKWARD);
            List<LogEntry> expected = new ArrayList<>();
            for (LogEntry e : all) {
                LogEntry last = expected.isEmpty() ? null : expected.get(expected.size() - 1);
                if (last == null || last.timestampNanos() != e.timestampNanos() || !last.line().equals(e.line())) {
                    expected.add(e);
                }
            }
            assertThat(actual).containsExactlyElementsOf(expected);
            assertThat(loads[0]).isEqualTo(segments.size());

            if (!expected.isEmpty()) {
                loads[0] = 0;
                SeriesReader early = new SeriesReader(segs, forward, 0, ctx);
                LogEntry first = early.next();
                assertThat(first).isEqualTo(expected.get(0));
                long reachable = segs.stream().filter(s -> forward ? s.minNanos() <= first.timestampNanos()
                        : s.maxNanos() >= first.timestampNanos()).count();
                assertThat((long) loads[0]).isLessThanOrEqualTo(reachable + 1);
            }
            ctx.close();
        }
    }

    @Test
    void load_startsTheSegmentItReadsAwaited_thenPrefetchesTheNextOnesUnawaited() {
        List<String> starts = new ArrayList<>();
        List<SeriesReader.Segment> segs = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            int id = s;
            LogEntry entry = new LogEntry(s * 10L, "line " + s, List.of());
            segs.add(new SeriesReader.Segment(s * 10L, s * 10L, awaited -> {
                starts.add(id + (awaited ? " awaited" : " prefetch"));
                return CompletableFuture.completedFuture(new byte[0]);
            }, b -> List.of(entry)));
        }
        QueryContext ctx = new QueryContext("t", true, Clock.systemUTC(), Duration.ofMinutes(1));
        List<LogEntry> read = new ArrayList<>();

        new SeriesReader(segs, true, 1, ctx).forEachRemaining(read::add);

        assertThat(read).hasSize(4);
        // the awaited read first (on a shared pool it must not queue behind the prefetches); a segment prefetched
        // before is not started again
        assertThat(starts).containsExactly("0 awaited", "1 prefetch", "2 prefetch", "3 prefetch");
    }
}
