package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory budget: what it counts, the 429 refusal, and relief by flushing the largest streams. */
final class IngesterBudgetTest {
    private static final long BUDGET = 2L << 20;

    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private ObjectStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new FileSystemObjectStore(dir.resolve("store"));
    }

    private IngestConfig config(Duration flushCheckPeriod) {
        return IngesterFixture.config(dir)
                .withFlush(new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2), flushCheckPeriod,
                        Duration.ofMillis(1), Duration.ofMillis(5)))
                .withLimits(unlimitedRate())
                .withBudget(new BudgetConfig(BUDGET, Duration.ofMinutes(5)));
    }

    private static LimitsConfig unlimitedRate() {
        LimitsConfig d = LimitsConfig.defaults();
        return new LimitsConfig(1000, 1000, d.maxLineSizeBytes(), d.maxLabelNamesPerSeries(), d.maxLabelNameLength(),
                d.maxLabelValueLength(), d.rejectOldSamples(), d.rejectOldSamplesMaxAge(), d.creationGracePeriod(),
                d.maxGlobalStreamsPerUser(), 0, 0, true);
    }

    /** {@code count} distinct lines of about 200 bytes with a trace id, starting at second {@code first}. */
    private List<PushStream> batch(String app, int first, int count) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int n = first + i;
            entries.add(new LogEntry(fx.ts(0) + n, "level=info msg=\"request served\" path=/api/v1/items/" + n
                    + " status=200 duration_ms=" + (n % 997) + " bytes=" + (n * 31 % 100_000) + " user=user-" + (n % 313)
                    + " padding=" + "x".repeat(80), List.of(new Label("trace_id", Long.toHexString(n * 0x9E3779B97F4A7C15L)))));
        }
        return List.of(new PushStream("{app=\"" + app + "\"}", entries));
    }

    @Test
    void memoryBytes_countsBufferedRows_andFallsWhenSealed() throws Exception {
        try (Ingester ingester = fx.open(config(Duration.ofHours(1)), store)) {
            long empty = ingester.memoryBytes();
            assertThat(empty).isZero();
            ingester.push("t", batch("a", 0, 1000));
            long afterOne = ingester.memoryBytes();
            // 1000 lines of ~190 raw bytes: at least the raw text, and not absurdly more than the heap it takes
            assertThat(afterOne).isBetween(190_000L, 1_000_000L);
            ingester.push("t", batch("b", 0, 1000));
            assertThat(ingester.memoryBytes()).isGreaterThan(afterOne);

            ingester.seal();

            // what remains: the remembered identities (for retried pushes), the stream states, the emptied
            // buffers kept as spares for the next seals and the encoding buffers kept for the next pushes
            long spares = ingester.bufferSpareBytes();
            assertThat(spares).isPositive().isLessThan(afterOne * 2);
            long encoding = ingester.encodeBufferBytes();
            assertThat(encoding).isPositive().isLessThanOrEqualTo(EncodeBuffers.MAX_KEPT * (long) EncodeBuffers.MAX_KEPT_BYTES);
            assertThat(ingester.memoryBytes() - spares - encoding).isBetween(2000 * StreamWriter.KEY_BYTES,
                    2000 * StreamWriter.KEY_BYTES + 2 * StreamWriter.STREAM_BYTES);
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).hasSize(2000);
        }
    }

    @Test
    void memoryBytes_exposedAsGauge() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(config(Duration.ofHours(1)), store)) {
            ingester.push("t", batch("a", 0, 100));
            assertThat(fx.scrape()).contains("logbloom_ingest_memory_bytes " + (double) ingester.memoryBytes());
        }
    }

    @Test
    void pushFlood_sealsEarly_staysWithinBudget_andEveryLineIsStored() throws Exception {
        try (Ingester ingester = fx.open(config(Duration.ofHours(1)), store)) {
            long peak = 0;
            for (int next = 0; next < 40_000; ) {
                try {
                    assertThat(ingester.push("t", batch("a", next, 500)).ok()).isTrue();
                    next += 500;
                } catch (MemoryBudgetExceededException sealingBehind) {
                    Thread.sleep(10); // a client honouring Retry-After, sooner
                }
                peak = Math.max(peak, ingester.memoryBytes());
            }
            // 40 000 lines are ~8 MB raw, four times the budget: early seals moved them to disk, and a
            // push is refused rather than taken once memory is over the budget (so at most one push above it)
            assertThat(peak).isLessThanOrEqualTo(BUDGET + 600_000);
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(40_000);
        }
    }

    @Test
    void push_overBudget_whileSealsFail_refusedWith429Message_nothingStored_thenAcceptedWhenDiskIsBack()
            throws Exception {
        Path parts = dir.resolve("wal").resolve("parts");
        try (Ingester ingester = fx.openWithMetrics(config(Duration.ofHours(1)), store)) {
            // the parts directory becomes a file: every seal fails and its rows stay in heap
            java.nio.file.Files.delete(parts);
            java.nio.file.Files.writeString(parts, "not a directory");
            int next = 0;
            while (ingester.memoryBytes() <= BUDGET) {
                assertThat(ingester.push("t", batch("a", next, 500)).ok()).isTrue();
                next += 500;
                Thread.sleep(5);
            }
            int acknowledged = next;
            int attempt = next;
            assertThatThrownBy(() -> ingester.push("t", batch("a", attempt, 500)))
                    .isInstanceOf(MemoryBudgetExceededException.class)
                    .hasMessageContaining("Ingester memory limit exceeded (limit: " + BUDGET + " bytes, ingester.max_memory)")
                    .satisfies(e -> assertThat(((MemoryBudgetExceededException) e).retryAfterSeconds()).isPositive());
            assertThat(fx.scrape()).contains("logbloom_ingest_memory_limited_pushes_total 1.0");
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).hasSize(acknowledged);

            java.nio.file.Files.delete(parts);
            java.nio.file.Files.createDirectories(parts);
            ingester.flushAll();

            assertThat(ingester.memoryBytes()).isLessThan(BUDGET);
            assertThat(ingester.push("t", batch("a", acknowledged, 10)).ok()).isTrue();
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(acknowledged + 10);
        }
    }

    @Test
    void spares_areDroppedBeforeAPushIsRefused_andCountedMeanwhile() throws Exception {
        IngestConfig noTimedSeals = config(Duration.ofHours(1)).withFlush(new FlushConfig(Duration.ofMinutes(30),
                Duration.ofHours(2), Duration.ofHours(1), Duration.ofMillis(1), Duration.ofMillis(5),
                Duration.ofHours(1), FlushConfig.DEFAULT_MERGE_MIN_BYTES));
        Path parts = dir.resolve("wal").resolve("parts");
        try (Ingester ingester = fx.open(noTimedSeals, store)) {
            ingester.push("t", batch("a", 0, 1000));
            ingester.seal();
            long spares = ingester.bufferSpareBytes();
            assertThat(spares).isPositive().isLessThanOrEqualTo(BUDGET / 4);
            // tenant u's seals fail (its part directory is a file), so nothing but dropping t's spares relieves memory
            java.nio.file.Files.writeString(parts.resolve("u"), "not a directory");
            boolean overWithSpares = false;
            int next = 0;
            while (true) {
                try {
                    ingester.push("u", batch("b", next, 100));
                    next += 100;
                } catch (MemoryBudgetExceededException refused) {
                    assertThat(ingester.bufferSpareBytes()).isZero();
                    break;
                }
                if (ingester.memoryBytes() > BUDGET && ingester.bufferSpareBytes() > 0) {
                    overWithSpares = true;
                    assertThat(ingester.memoryBytes() - ingester.bufferSpareBytes()).isLessThanOrEqualTo(BUDGET);
                }
            }
            assertThat(overWithSpares).as("memory went over the budget while spares were held").isTrue();
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).hasSize(1000);
            assertThat(IngesterFixture.unflushedRows(ingester, "u")).hasSize(next);
        }
    }
}
