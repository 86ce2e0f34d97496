package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every validation rule and limit: which entries are kept, the Loki-like message, and the metric reason. */
final class IngesterLimitsTest {
    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private ObjectStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new FileSystemObjectStore(dir.resolve("store"));
    }

    private static LimitsConfig limits(int maxLine, int maxNames, int maxNameLength, int maxValueLength) {
        LimitsConfig d = LimitsConfig.defaults();
        return new LimitsConfig(d.ingestionRateMb(), d.ingestionBurstSizeMb(), maxLine, maxNames, maxNameLength,
                maxValueLength, true, Duration.ofDays(7), Duration.ofMinutes(10), 5000, 0, 0, true);
    }

    static Stream<Arguments> rejectedStreams() {
        long now = IngesterFixture.START.getEpochSecond() * 1_000_000_000L;
        return Stream.of(
                Arguments.of("{app=\"a\", b=\"1\", c=\"2\", d=\"3\"}", LogEntry.of(now, "x"), "max_label_names_per_series",
                        "entry for stream '{app=\"a\", b=\"1\", c=\"2\", d=\"3\"}' has 4 label names; limit 3"),
                Arguments.of("{app=\"a\", abcdefghijk=\"1\"}", LogEntry.of(now, "x"), "label_name_too_long",
                        "stream '{abcdefghijk=\"1\", app=\"a\"}' has label name too long: 'abcdefghijk'"),
                Arguments.of("{app=\"abcdefghijk\"}", LogEntry.of(now, "x"), "label_value_too_long",
                        "stream '{app=\"abcdefghijk\"}' has label value too long: 'abcdefghijk'"),
                Arguments.of("{app=\"a\", app=\"b\"}", LogEntry.of(now, "x"), "duplicate_label_names",
                        "stream '{app=\"a\", app=\"b\"}' has duplicate label name: 'app'"),
                Arguments.of("{app=a}", LogEntry.of(now, "x"), "invalid_labels",
                        "Error parsing labels '{app=a}' with error: expected a quoted label value at position 5 in '{app=a}'"),
                Arguments.of("{}", LogEntry.of(now, "x"), "missing_labels",
                        "error at least one label pair is required per stream"),
                Arguments.of("{app=\"a\"}", LogEntry.of(now, "x".repeat(21)), "line_too_long",
                        "Max entry size '20' bytes exceeded for stream '{app=\"a\"}' while adding an entry with length '21' bytes"),
                Arguments.of("{app=\"a\"}", LogEntry.of(now - Duration.ofDays(8).toNanos(), "x"), "greater_than_max_sample_age",
                        "entry for stream '{app=\"a\"}' has timestamp too old: 2025-12-24T10:00:00Z, oldest acceptable "
                                + "timestamp is: 2025-12-25T10:00:00Z"),
                Arguments.of("{app=\"a\"}", LogEntry.of(now + Duration.ofMinutes(11).toNanos(), "x"), "too_far_in_future",
                        "entry for stream '{app=\"a\"}' has timestamp too new: 2026-01-01T10:11:00Z"));
    }

    @ParameterizedTest
    @MethodSource("rejectedStreams")
    void invalidEntry_rejectedWithLokiMessage_goodStreamKept(String labels, LogEntry entry, String reason, String message)
            throws Exception {
        IngestConfig config = IngesterFixture.config(dir).withLimits(limits(20, 3, 10, 10));
        try (Ingester ingester = fx.openWithMetrics(config, store)) {
            PushResult result = ingester.push("t", List.of(new PushStream(labels, List.of(entry)),
                    new PushStream("{app=\"good\"}", List.of(LogEntry.of(fx.ts(0), "fine")))));
            assertThat(result.acceptedEntries()).isEqualTo(1);
            assertThat(result.rejectedEntries()).isEqualTo(1);
            assertThat(result.rateLimited()).isFalse();
            assertThat(result.errors()).containsExactly(message);
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams())
                    .flatExtracting(StreamSnapshot::entries).extracting(LogEntry::line).containsExactly("fine");
            assertThat(fx.scrape()).contains("logbloom_ingest_rejected_lines_total{reason=\"" + reason + "\"} 1.0");
        }
    }

    @Test
    void rejectOldSamplesDisabled_oldEntryAccepted() throws Exception {
        LimitsConfig d = LimitsConfig.defaults();
        LimitsConfig noOld = new LimitsConfig(4, 6, d.maxLineSizeBytes(), 15, 1024, 2048, false, Duration.ofDays(7),
                Duration.ofMinutes(10), 5000, 0, 0, true);
        try (Ingester ingester = fx.open(IngesterFixture.config(dir).withLimits(noOld), store)) {
            assertThat(ingester.push("t", List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(1, "1970")))))
                    .ok()).isTrue();
        }
    }

    @Test
    void rateLimit_wholePushRefused_thenAllowedAfterRefill() throws Exception {
        // 1 KiB/s, burst 2 KiB
        LimitsConfig small = new LimitsConfig(1.0 / 1024, 2.0 / 1024, 0, 15, 1024, 2048, true, Duration.ofDays(7),
                Duration.ofMinutes(10), 5000, 0, 0, true);
        try (Ingester ingester = fx.openWithMetrics(IngesterFixture.config(dir).withLimits(small), store)) {
            List<PushStream> push = List.of(new PushStream("{app=\"a\"}", List.of(
                    LogEntry.of(fx.ts(0), "x".repeat(1000)), LogEntry.of(fx.ts(1), "y".repeat(1000)))));
            assertThat(ingester.push("t", push).ok()).isTrue();
            List<PushStream> next = List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(fx.ts(2), "z".repeat(1000)))));
            PushResult limited = ingester.push("t", next);
            assertThat(limited.rateLimited()).isTrue();
            assertThat(limited.acceptedEntries()).isZero();
            assertThat(limited.errors()).containsExactly("Ingestion rate limit exceeded for user t (limit: 1024 bytes/sec) "
                    + "while attempting to ingest '1' lines totaling '1000' bytes, reduce log volume or contact your Loki "
                    + "administrator to see if the limit can be increased");
            assertThat(ingester.push("other-tenant", next).ok()).as("buckets are per tenant").isTrue();
            fx.clock.advance(Duration.ofSeconds(1));
            assertThat(ingester.push("t", next).ok()).isTrue();
            assertThat(fx.scrape()).contains("logbloom_ingest_rejected_lines_total{reason=\"rate_limited\"} 1.0");
        }
    }

    @Test
    void maxStreamsPerUser_newStreamRejected_existingKeepsWriting() throws Exception {
        LimitsConfig two = new LimitsConfig(4, 6, 0, 15, 1024, 2048, true, Duration.ofDays(7), Duration.ofMinutes(10),
                2, 0, 0, true);
        try (Ingester ingester = fx.open(IngesterFixture.config(dir).withLimits(two), store)) {
            ingester.push("t", List.of(stream("a", 0), stream("b", 0)));
            PushResult third = ingester.push("t", List.of(stream("c", 1), stream("a", 1)));
            assertThat(third.acceptedEntries()).isEqualTo(1);
            assertThat(third.errors()).containsExactly("Maximum active stream limit exceeded when trying to create stream "
                    + "{app=\"c\"}, reduce the number of active streams (reduce labels or reduce label values), or contact "
                    + "your Loki administrator to see if the limit can be increased, user: 't'");
            ingester.flushAll();
            assertThat(ingester.push("t", List.of(stream("c", 2))).ok()).as("flushed streams are no longer active").isTrue();
        }
    }

    @Test
    void seriesLimiter_newSeriesPerHourAndDay_overSimulatedDay() throws Exception {
        LimitsConfig limited = new LimitsConfig(4, 6, 0, 15, 1024, 2048, true, Duration.ofDays(7), Duration.ofMinutes(10),
                0, 3, 5, true);
        try (Ingester ingester = fx.openWithMetrics(IngesterFixture.config(dir).withLimits(limited), store)) {
            List<String> accepted = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            int series = 0;
            for (int hour = 0; hour < 3; hour++) {
                for (int i = 0; i < 4; i++) {
                    String name = "s" + series++;
                    PushResult r = ingester.push("t", List.of(new PushStream("{app=\"" + name + "\"}",
                            List.of(LogEntry.of(fx.clock.nanos(), "x")))));
                    if (r.ok()) {
                        accepted.add(name);
                    } else {
                        errors.addAll(r.errors());
                    }
                }
                ingester.flushAll();
                fx.clock.advance(Duration.ofHours(1));
            }
            // hour 1: 3 of 4 (hourly cap); hour 2: 2 more (daily cap 5); hour 3: none. As in VictoriaMetrics the
            // hourly limiter is asked first, so s6, s8, s9, s10 pass it and are refused by the daily one.
            assertThat(accepted).containsExactly("s0", "s1", "s2", "s4", "s5");
            assertThat(errors).contains(
                    "Maximum new series per hour limit (3) exceeded when trying to create stream {app=\"s3\"}, user: 't'",
                    "Maximum new series per day limit (5) exceeded when trying to create stream {app=\"s6\"}, user: 't'");
            assertThat(ingester.push("t", List.of(new PushStream("{app=\"s0\"}",
                    List.of(LogEntry.of(fx.clock.nanos(), "y"))))).ok()).as("a series seen today keeps writing").isTrue();
            fx.clock.advance(Duration.ofHours(14)); // next UTC day
            assertThat(ingester.push("t", List.of(new PushStream("{app=\"s99\"}",
                    List.of(LogEntry.of(fx.clock.nanos(), "z"))))).ok()).isTrue();
            assertThat(fx.scrape()).contains("logbloom_ingest_rejected_lines_total{reason=\"series_limit_hourly\"} 3.0",
                    "logbloom_ingest_rejected_lines_total{reason=\"series_limit_daily\"} 4.0");
        }
    }

    @Test
    void unorderedWrites_acceptWithinHalfMaxChunkAge_rejectOlder() throws Exception {
        try (Ingester ingester = fx.open(IngesterFixture.config(dir), store)) {
            ingester.push("t", List.of(stream("a", 0)));
            PushResult r = ingester.push("t", List.of(new PushStream("{app=\"a\"}", List.of(
                    LogEntry.of(fx.ts(-3599), "within window"), LogEntry.of(fx.ts(-3601), "too old")))));
            assertThat(r.acceptedEntries()).isEqualTo(1);
            assertThat(r.errors()).containsExactly("entry with timestamp 2026-01-01T08:59:59Z ignored, reason: 'entry too "
                    + "far behind, entry timestamp is: 2026-01-01T08:59:59Z, oldest acceptable timestamp is: "
                    + "2026-01-01T09:00:00Z' for stream: {app=\"a\"}");
        }
    }

    @Test
    void orderedWrites_rejectOlderThanNewest() throws Exception {
        LimitsConfig ordered = new LimitsConfig(4, 6, 0, 15, 1024, 2048, true, Duration.ofDays(7), Duration.ofMinutes(10),
                0, 0, 0, false);
        try (Ingester ingester = fx.open(IngesterFixture.config(dir).withLimits(ordered), store)) {
            ingester.push("t", List.of(stream("a", 10)));
            PushResult r = ingester.push("t", List.of(stream("a", 9), stream("a", 10)));
            assertThat(r.acceptedEntries()).as("the retried entry at 10s is a duplicate: acknowledged, stored once")
                    .isEqualTo(1);
            assertThat(r.rejectedEntries()).isEqualTo(1);
            assertThat(r.errors()).containsExactly("entry with timestamp 2026-01-01T10:00:09Z ignored, reason: 'entry out "
                    + "of order' for stream: {app=\"a\"}");
        }
    }

    @Test
    void outOfOrderBeyondCutBlock_goesToNewChunk_nothingLost() throws Exception {
        IngestConfig config = IngesterFixture.config(dir)
                .withChunk(new io.logbloom.chunks.ChunkConfig(64, 1 << 20, io.logbloom.chunks.ChunkEncoding.SNAPPY));
        try (Ingester ingester = fx.open(config, store)) {
            for (int i = 0; i < 20; i++) {
                ingester.push("t", List.of(new PushStream("{app=\"a\"}",
                        List.of(LogEntry.of(fx.ts(100 + i), "in order entry number " + i)))));
            }
            assertThat(ingester.push("t", List.of(new PushStream("{app=\"a\"}",
                    List.of(LogEntry.of(fx.ts(50), "late entry"))))).ok()).isTrue();
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams().get(0).entries()).hasSize(21)
                    .first().extracting(LogEntry::line).isEqualTo("late entry");
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(21);
        }
    }

    private PushStream stream(String app, int second) {
        return new PushStream("{app=\"" + app + "\"}", List.of(LogEntry.of(fx.ts(second), "line at " + second)));
    }
}
