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
    void memoryBytes_countsUnflushedData_andFallsAfterFlush() throws Exception {
        try (Ingester ingester = fx.open(config(Duration.ofHours(1)), store)) {
            long empty = ingester.memoryBytes();
            assertThat(empty).isZero();
            ingester.push("t", batch("a", 0, 1000));
            long afterOne = ingester.memoryBytes();
            // 1000 lines of ~190 raw bytes: at least the raw text, and not absurdly more than the heap it takes
            assertThat(afterOne).isBetween(190_000L, 4_000_000L);
            ingester.push("t", batch("b", 0, 1000));
            assertThat(ingester.memoryBytes()).isGreaterThan(afterOne);

            ingester.flushAll();

            // what remains: the recently-flushed dedupe keys (for retried pushes) and the two series blooms
            assertThat(ingester.memoryBytes()).isBetween(2000 * StreamStore.KEY_BYTES, 2000 * StreamStore.KEY_BYTES + 64_000);
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
    void push_overBudget_refusedWith429Message_nothingStored_thenAcceptedAfterFlush() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(config(Duration.ofHours(1)), store)) {
            int next = 0;
            while (ingester.memoryBytes() <= BUDGET) {
                assertThat(ingester.push("t", batch("a", next, 500)).ok()).isTrue();
                next += 500;
            }
            int acknowledged = next;
            int attempt = next;
            assertThatThrownBy(() -> ingester.push("t", batch("a", attempt, 500)))
                    .isInstanceOf(MemoryBudgetExceededException.class)
                    .hasMessageContaining("Ingester memory limit exceeded (limit: " + BUDGET + " bytes, ingester.max_memory)")
                    .satisfies(e -> assertThat(((MemoryBudgetExceededException) e).retryAfterSeconds()).isPositive());
            assertThat(fx.scrape()).contains("logbloom_ingest_memory_limited_pushes_total 1.0");

            ingester.flushAll();

            assertThat(ingester.memoryBytes()).isLessThan(BUDGET);
            assertThat(ingester.push("t", batch("a", acknowledged, 10)).ok()).isTrue();
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(acknowledged + 10);
        }
    }

    @Test
    void overBudget_reliefFlushesLargestStreams_withoutForcedFlush() throws Exception {
        // a 200 ms check period: flushed chunks leave memory 200 ms after they are indexed
        try (Ingester ingester = fx.open(config(Duration.ofMillis(200)), store)) {
            ingester.push("t", batch("small", 0, 10));
            int next = 0;
            while (ingester.memoryBytes() <= BUDGET) {
                ingester.push("t", batch("big", next, 500));
                next += 500;
            }
            int acknowledged = next;
            assertThatThrownBy(() -> ingester.push("t", batch("big", acknowledged, 10)))
                    .isInstanceOf(MemoryBudgetExceededException.class);

            // closing the big stream's chunk compresses it (below the budget at once); the relief then
            // flushes it and releases it from memory after the grace period
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).size() > 1
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertThat(ingester.memoryBytes()).isLessThanOrEqualTo(BUDGET / 4 * 3);
            // the largest stream was flushed by the relief, the small one stays in memory
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(acknowledged);
            assertThat(ingester.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE))
                    .singleElement().satisfies(s -> assertThat(s.entries()).hasSize(10));
            assertThat(ingester.push("t", batch("big", acknowledged, 10)).ok()).isTrue();
        }
    }
}
