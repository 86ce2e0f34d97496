package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The log query merge (streams filtered ahead of the heap, with markers) against brute force: all surviving
 * lines sorted by (time, stream order), first {@code limit}; and a satisfied limit reads a bounded number of
 * entries past it.
 */
final class LogMergeReferenceTest {

    private record Line(long ts, int stream, String line) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void merge_equalsSortedFilteredLines(long seed) throws IOException {
        Random r = new Random(seed);
        int streams = 1 + r.nextInt(6);
        List<List<Line>> data = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            List<Line> lines = new ArrayList<>();
            int n = r.nextInt(400);
            for (int i = 0; i < n; i++) {
                // coarse timestamps: many ties inside and across streams
                lines.add(new Line(r.nextInt(300), s, (r.nextInt(50) == 0 ? "rare " : "common ") + i));
            }
            lines.sort(Comparator.comparingLong(Line::ts));
            data.add(lines);
        }
        for (Direction dir : Direction.values()) {
            for (String filter : List.of("rare", "common", "o")) {
                for (int limit : List.of(1, 7, 100, 10_000)) {
                    MemorySource src = new MemorySource();
                    for (List<Line> lines : data) {
                        for (Line l : lines) {
                            src.add(Map.of("app", "x", "s", "s" + l.stream), l.ts, l.line);
                        }
                    }
                    LogQueryResult res = new Engine().evalLogs((LogExpr) LogQL.parse("{app=\"x\"} |= \"" + filter + "\""),
                            src, 10, 290, limit, dir);
                    Comparator<Line> order = Comparator.comparingLong(Line::ts);
                    if (dir == Direction.BACKWARD) {
                        order = order.reversed();
                    }
                    // MemorySource orders streams by insertion; equal times keep stream order, then line order
                    List<Line> expected = data.stream().flatMap(List::stream)
                            .filter(l -> l.ts >= 10 && l.ts < 290 && l.line.contains(filter))
                            .sorted(order.thenComparingInt(Line::stream)).limit(limit).toList();
                    List<String> actual = new ArrayList<>();
                    res.streams().forEach(s -> s.entries().forEach(e -> actual.add(s.labels().get("s") + "@" + e.timestampNanos() + ":" + e.line())));
                    assertThat(actual).as(dir + " " + filter + " " + limit)
                            .containsExactlyInAnyOrderElementsOf(expected.stream().map(l -> "s" + l.stream + "@" + l.ts + ":" + l.line).toList());
                    if (expected.size() == limit) {
                        long lastTs = expected.get(expected.size() - 1).ts;
                        long bound = data.stream().flatMap(List::stream)
                                .filter(l -> dir == Direction.FORWARD ? l.ts <= lastTs : l.ts >= lastTs).count();
                        assertThat((long) src.entriesRead).isLessThanOrEqualTo(bound + (long) streams * 64);
                    }
                }
            }
        }
    }
}
