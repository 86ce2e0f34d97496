package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.FlakyObjectStore;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fatal path: failures the ingester cannot persist through turn pushes into 503s, never into acknowledgements. */
final class IngesterFatalTest {
    private static final Duration RETRY_BUDGET = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private FlakyObjectStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new FlakyObjectStore(new FileSystemObjectStore(dir.resolve("store")));
    }

    private IngestConfig config() {
        return IngesterFixture.config(dir).withBudget(new BudgetConfig(BudgetConfig.DEFAULT_MAX_MEMORY_BYTES, RETRY_BUDGET));
    }

    private List<PushStream> lines(int first, int count, int padding) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            entries.add(LogEntry.of(fx.ts(1) + i, "line " + i + " " + "p".repeat(padding)));
        }
        return List.of(new PushStream("{app=\"a\"}", entries));
    }

    @Test
    void objectStoreFailingPastRetryBudget_refusesPushes_thenRecoversWhenStoreIsBack() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(config(), store)) {
            assertThat(ingester.push("t", lines(0, 10, 10)).ok()).isTrue();
            store.down = true;
            assertThatThrownBy(ingester::flushAll).isInstanceOf(IOException.class);
            // within the budget: failing flushes alone do not stop ingestion
            assertThat(ingester.failure()).isEmpty();
            assertThat(ingester.push("t", lines(10, 10, 10)).ok()).isTrue();

            fx.clock.advance(RETRY_BUDGET.plusSeconds(1));
            assertThatThrownBy(ingester::flushAll).isInstanceOf(IOException.class);

            assertThat(ingester.failure()).hasValueSatisfying(m -> assertThat(m)
                    .contains("object_store").contains("ingester.flush_retry_budget").doesNotContain("key"));
            assertThatThrownBy(() -> ingester.push("t", lines(20, 10, 10)))
                    .isInstanceOf(IngesterFailedException.class).hasMessageContaining("object_store");
            assertThat(fx.scrape()).contains("logbloom_ingest_fatal{reason=\"object_store\"} 1.0")
                    .contains("logbloom_ingest_fatal{reason=\"wal\"} 0.0");

            store.down = false;
            ingester.flushAll();

            assertThat(ingester.failure()).isEmpty();
            assertThat(fx.scrape()).contains("logbloom_ingest_fatal{reason=\"object_store\"} 0.0");
            assertThat(ingester.push("t", lines(20, 10, 10)).ok()).isTrue();
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(30);
        }
    }

    @Test
    void walWriteFailure_failsThePushWith503_andEveryLaterPush_acknowledgedDataSurvivesRestart() throws Exception {
        Path walDir = dir.resolve("wal");
        Path moved = dir.resolve("wal-moved");
        IngestConfig config = config().withWal(new WalConfig(walDir, WalConfig.FsyncPolicy.PER_REQUEST,
                Duration.ofSeconds(1), WalConfig.MIN_SEGMENT_SIZE_BYTES));
        Ingester first = fx.openWithMetrics(config, store);
        try {
            assertThat(first.push("t", lines(0, 10, 10)).ok()).isTrue();
            // the WAL directory disappears (as a volume unmounted or a disk gone read-only would make it):
            // the next segment cannot be created once the current one is full
            Files.move(walDir, moved);
            Files.writeString(walDir, "not a directory");
            assertThatThrownBy(() -> first.push("t", lines(10, 100, 1000)))
                    .isInstanceOf(IngesterFailedException.class).hasMessageContaining("wal")
                    .hasMessageContaining("until restarted");
            assertThatThrownBy(() -> first.push("t", lines(200, 1, 1))).isInstanceOf(IngesterFailedException.class);
            assertThat(fx.scrape()).contains("logbloom_ingest_fatal{reason=\"wal\"} 1.0");
        } finally {
            first.halt();
        }
        Files.delete(walDir);
        Files.move(moved, walDir);
        try (Ingester second = fx.open(config, store)) {
            assertThat(second.failure()).isEmpty();
            List<String> replayed = new ArrayList<>();
            second.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()
                    .forEach(s -> s.entries().forEach(e -> replayed.add(e.line())));
            // the acknowledged push is back; the refused ones were never acknowledged
            assertThat(replayed).hasSize(10).allMatch(l -> l.startsWith("line "));
        }
    }
}
