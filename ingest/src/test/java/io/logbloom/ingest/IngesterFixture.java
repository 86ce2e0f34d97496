package io.logbloom.ingest;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Shared setup for ingester tests: a fake clock at 2026-01-01T10:00Z and helpers to read back storage. */
final class IngesterFixture {
    static final Instant START = Instant.parse("2026-01-01T10:00:00Z");
    static final LabelMatcher ANY_APP = LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", ".+");

    final MutableClock clock = new MutableClock(START);
    final PrometheusRegistry registry = new PrometheusRegistry();

    static IngestConfig config(Path dir) {
        return IngestConfig.defaults(dir.resolve("wal")).withFlush(new FlushConfig(Duration.ofMinutes(30),
                Duration.ofHours(2), Duration.ofHours(1), Duration.ofMillis(1), Duration.ofMillis(5))
                .withParts(Duration.ofHours(1), FlushConfig.DEFAULT_MERGE_MIN_BYTES));
    }

    Ingester open(IngestConfig config, ObjectStore store) throws IOException {
        return new Ingester(config, store, clock, new PrometheusRegistry());
    }

    Ingester openWithMetrics(IngestConfig config, ObjectStore store) throws IOException {
        return new Ingester(config, store, clock, registry);
    }

    long ts(int secondsAfterStart) {
        return (START.getEpochSecond() + secondsAfterStart) * 1_000_000_000L;
    }

    /** Every entry of every flushed chunk of the tenant, read back from the object store via the index. */
    static List<LogEntry> stored(Ingester ingester, ObjectStore store, String tenant) throws IOException {
        List<LogEntry> out = new ArrayList<>();
        for (SeriesChunks series : ingester.index().chunks(tenant, List.of(ANY_APP), 0, Long.MAX_VALUE)) {
            for (ChunkRef ref : series.chunks()) {
                ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(store, ref.objectKey()));
                out.addAll(reader.entries(reader.directory().indexOf(series.labels()), Long.MIN_VALUE, Long.MAX_VALUE));
            }
        }
        out.sort(java.util.Comparator.comparingLong(LogEntry::timestampNanos));
        return out;
    }

    /** Every unflushed row of the tenant (memory and parts), sorted by time. */
    static List<LogEntry> unflushedRows(Ingester ingester, String tenant) {
        List<LogEntry> out = new ArrayList<>();
        try (Ingester.Unflushed unflushed = ingester.unflushed(tenant, List.of(ANY_APP), 0, Long.MAX_VALUE)) {
            for (StreamSnapshot s : unflushed.streams()) {
                out.addAll(s.allEntries());
            }
        }
        out.sort(java.util.Comparator.comparingLong(LogEntry::timestampNanos));
        return out;
    }

    static List<ChunkRef> refs(Ingester ingester, String tenant) throws IOException {
        List<ChunkRef> out = new ArrayList<>();
        for (SeriesChunks series : ingester.index().chunks(tenant, List.of(ANY_APP), 0, Long.MAX_VALUE)) {
            out.addAll(series.chunks());
        }
        return out;
    }

    String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PrometheusTextFormatWriter(false).write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Waits until {@code condition} holds, for 30 s at most (then fails naming {@code what}). */
    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }
}
