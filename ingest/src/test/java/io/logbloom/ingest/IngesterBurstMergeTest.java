package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge due by size waits while a push burst fills the buffers past their early-seal size, merges once the burst has
 * passed, and merges anyway once the parts hold an eighth of {@code max_unmerged_bytes}; no row is lost or doubled.
 */
final class IngesterBurstMergeTest {
    private static final Duration SEAL_INTERVAL = Duration.ofMinutes(1);
    private static final String DEFERRED = "logbloom_ingest_merges_deferred_total";

    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private final Random random = new Random(7);
    private ObjectStore store;
    private int pushed;

    @BeforeEach
    void setUp() throws IOException {
        store = new FileSystemObjectStore(dir.resolve("store"));
    }

    /**
     * max_memory 16 MiB, so buffers seal early past 2 MiB; parts merge at 4 KiB; the merge loop ticks every 5 ms of
     * real time and reads the fake clock, which only the test moves (a burst lasts two seal intervals of it).
     */
    private IngestConfig config(long maxUnmergedBytes) {
        return IngesterFixture.config(dir)
                .withFlush(new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofMillis(5),
                        Duration.ofMillis(1), Duration.ofMillis(5)).withParts(SEAL_INTERVAL, 4096))
                .withBudget(new BudgetConfig(16L << 20, Duration.ofMinutes(5), maxUnmergedBytes));
    }

    /** A push of 20,000 lines of 120 random hex digits: about 2.6 MB, past the early-seal size. */
    private void pushBurst(Ingester ingester) throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            byte[] noise = new byte[60];
            random.nextBytes(noise);
            entries.add(LogEntry.of(fx.ts(0) + pushed, "row " + pushed + " " + HexFormat.of().formatHex(noise)));
            pushed++;
        }
        ingester.push("t", List.of(new PushStream("{app=\"burst\"}", entries)));
    }

    private double deferred() {
        try {
            for (String line : fx.scrape().split("\n")) {
                if (line.startsWith(DEFERRED + " ")) {
                    return Double.parseDouble(line.substring(DEFERRED.length() + 1));
                }
            }
            return 0;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private boolean merged(Ingester ingester) {
        try {
            return !IngesterFixture.refs(ingester, "t").isEmpty();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void assertEveryRowOnce(Ingester ingester) throws IOException {
        List<String> lines = new ArrayList<>();
        IngesterFixture.stored(ingester, store, "t").forEach(e -> lines.add(e.line()));
        IngesterFixture.unflushedRows(ingester, "t").forEach(e -> lines.add(e.line()));
        assertThat(lines).hasSize(pushed).doesNotHaveDuplicates();
    }

    @Test
    void sizeDueMerge_waitsDuringTheBurst_thenMergesOnceItHasPassed() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(config(1L << 30), store)) {
            pushBurst(ingester);
            IngesterFixture.await("a merge was deferred", () -> deferred() > 0);
            double before = deferred();
            IngesterFixture.await("more ticks deferred it", () -> deferred() >= before + 3);
            assertThat(merged(ingester)).as("nothing merged while the burst goes on").isFalse();
            assertEveryRowOnce(ingester);

            fx.clock.advance(SEAL_INTERVAL.multipliedBy(3));
            IngesterFixture.await("the parts were merged after the burst", () -> merged(ingester));
            IngesterFixture.await("every part merged", () -> IngesterFixture.unflushedRows(ingester, "t").isEmpty());
            assertEveryRowOnce(ingester);
        }
    }

    @Test
    void sizeDueMerge_mergesDuringTheBurst_whenThePartsHoldAnEighthOfMaxUnmerged() throws Exception {
        // max_unmerged_bytes 1 MiB: the burst's part (over 1 MB) is past 128 KiB, so it merges while the clock, and so
        // the burst, stands still (with the large limit of the test above the same part waits)
        try (Ingester ingester = fx.openWithMetrics(config(1L << 20), store)) {
            pushBurst(ingester);
            IngesterFixture.await("the parts were merged during the burst", () -> merged(ingester));
            assertThat(deferred()).isZero();
            assertEveryRowOnce(ingester);
        }
    }

    @Test
    void flushAll_duringTheBurst_mergesEverything() throws Exception {
        try (Ingester ingester = fx.openWithMetrics(config(1L << 30), store)) {
            pushBurst(ingester);
            IngesterFixture.await("a merge was deferred", () -> deferred() > 0);
            ingester.flushAll();
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).isEmpty();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(pushed);
        }
    }
}
