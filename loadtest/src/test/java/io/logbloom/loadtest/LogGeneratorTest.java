package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class LogGeneratorTest {
    private static final InstantSource FIXED = InstantSource.fixed(Instant.parse("2026-01-02T03:04:05Z"));

    private static List<PushBatch> batches(long seed, int count) {
        LogGenerator.Lane lane = new LogGenerator(new GeneratorConfig(seed, "r1", 20, 200, true)).lane(0, 2, FIXED);
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> lane.next()).toList();
    }

    @Test
    void next_sameSeed_sameBatches() {
        assertThat(batches(7, 5)).isEqualTo(batches(7, 5));
    }

    @Test
    void next_otherSeed_otherLines() {
        assertThat(batches(8, 1).get(0).streams()).isNotEqualTo(batches(7, 1).get(0).streams());
    }

    @Test
    void streamLabels_haveRunJobAndCardinality() {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(1, "run-a", 50, 10, false));
        assertThat(generator.streamLabels()).hasSize(50);
        assertThat(new HashSet<>(generator.streamLabels())).hasSize(50);
        for (Map<String, String> labels : generator.streamLabels()) {
            assertThat(labels).containsOnlyKeys("run", "job", "namespace", "service", "pod", "level")
                    .containsEntry("run", "run-a").containsEntry("job", "loadtest");
            assertThat(labels.get("level")).isIn("debug", "info", "warn", "error");
        }
    }

    @Test
    void entries_carryUniqueTraceIdsAndOptionalUserIds() {
        Set<String> traceIds = new HashSet<>();
        int lines = 0;
        for (PushBatch batch : batches(3, 10)) {
            for (LogStream stream : batch.streams()) {
                for (LogEntry entry : stream.entries()) {
                    assertThat(entry.structuredMetadata()).containsOnlyKeys("trace_id", "user_id", "session_id");
                    assertThat(entry.traceId()).matches("[0-9a-f]{32}");
                    assertThat(entry.line().length()).isBetween(40, 2_100);
                    traceIds.add(entry.traceId());
                    lines++;
                }
            }
        }
        assertThat(lines).isEqualTo(2_000);
        assertThat(traceIds).hasSize(lines);
        LogGenerator plain = new LogGenerator(new GeneratorConfig(3, "r1", 5, 10, false));
        assertThat(plain.lane(0, 1, FIXED).next().streams().get(0).entries().get(0).structuredMetadata())
                .containsOnlyKeys("trace_id");
    }

    @Test
    void lines_mixFormatsWithHttpFields() {
        List<String> lines = batches(5, 10).stream().flatMap(b -> b.streams().stream())
                .flatMap(s -> s.entries().stream()).map(LogEntry::line).toList();
        assertThat(lines).anyMatch(l -> l.startsWith("level=") && l.contains(" duration_ms=") && l.contains(" status="));
        assertThat(lines).anyMatch(l -> l.startsWith("{\"level\":") && l.endsWith("}") && l.contains("\"method\":"));
        assertThat(lines).anyMatch(l -> l.matches("^(DEBUG|INFO|WARN|ERROR) \\[worker-\\d+].*"));
        assertThat(lines.stream().filter(l -> l.startsWith("{")))
                .allSatisfy(l -> assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(l).path("status").isInt()).isTrue());
    }

    @Test
    void lineLength_followsTheConfiguredMedian() {
        for (int median : new int[] {160, 400, 1_000}) {
            List<Integer> lengths = new java.util.ArrayList<>(new LogGenerator(new GeneratorConfig(6, "r", 4, 4_000, false, median))
                    .lane(0, 1, FIXED).next().streams().stream().flatMap(s -> s.entries().stream())
                    .map(e -> e.line().length()).sorted().toList());
            assertThat(lengths.get(lengths.size() / 2)).as("median for %d", median).isBetween((int) (median * 0.85), (int) (median * 1.2));
            assertThat(lengths.get(lengths.size() - 1)).isLessThanOrEqualTo(median * 4 + 40);
        }
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 1, 1, false, 10)).hasMessageContaining("got 10");
    }

    @Test
    void timestamps_increasePerStreamAcrossBatches_evenWithAStoppedClock() {
        Map<Map<String, String>, Long> last = new HashMap<>();
        for (PushBatch batch : batches(9, 20)) {
            for (LogStream stream : batch.streams()) {
                for (LogEntry entry : stream.entries()) {
                    Long previous = last.put(stream.labels(), entry.timestampNanos());
                    if (previous != null) {
                        assertThat(entry.timestampNanos()).isGreaterThan(previous);
                    }
                }
            }
        }
    }

    @Test
    void lanes_ownDisjointStreams() {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(2, "r1", 10, 500, false));
        Set<Map<String, String>> lane0 = new HashSet<>();
        generator.lane(0, 3, FIXED).next().streams().forEach(s -> lane0.add(s.labels()));
        Set<Map<String, String>> lane1 = new HashSet<>();
        generator.lane(1, 3, FIXED).next().streams().forEach(s -> lane1.add(s.labels()));
        assertThat(lane0).hasSize(4).doesNotContainAnyElementsOf(lane1);
        assertThat(lane1).hasSize(3);
    }

    @Test
    void needle_isOneLineOfTheBatch() {
        PushBatch batch = batches(4, 1).get(0);
        Needle needle = batch.needle();
        assertThat(batch.streams()).anySatisfy(stream -> {
            assertThat(stream.labels()).isEqualTo(needle.labels());
            assertThat(stream.entries()).anyMatch(e -> e.traceId().equals(needle.traceId())
                    && e.line().equals(needle.line()) && e.timestampNanos() == needle.timestampNanos());
        });
        assertThat(needle.query()).startsWith("{").contains("run=\"r1\"").endsWith("| trace_id=\"" + needle.traceId() + "\"");
    }

    @Test
    void config_badValues_rejectedNamingTheValue() {
        assertThatThrownBy(() -> new GeneratorConfig(1, "bad id!", 1, 1, false)).hasMessageContaining("'bad id!'");
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 0, 1, false)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 1, 100_001, false)).hasMessageContaining("100001");
        LogGenerator generator = new LogGenerator(new GeneratorConfig(1, "r", 2, 1, false));
        assertThatThrownBy(() -> generator.lane(0, 3, FIXED)).hasMessageContaining("got 3");
    }
}
