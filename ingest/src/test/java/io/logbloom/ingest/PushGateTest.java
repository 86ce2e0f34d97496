package io.logbloom.ingest;

import static io.logbloom.ingest.IngesterFixture.ANY_APP;
import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The distributor's admission ({@link PushGate}) and the ingester's side of it ({@link Ingester#pushAdmitted}). */
final class PushGateTest {
    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();

    /** 1 KiB/s and a 1 KiB burst, 10-byte lines, at most one stream per tenant. */
    private static LimitsConfig tight() {
        return new LimitsConfig(1.0 / 1024, 1.0 / 1024, 10, 15, 1024, 2048, true, Duration.ofDays(7),
                Duration.ofMinutes(10), 1, 0, 0, false);
    }

    @Test
    void admit_validEntriesPass_invalidOnesRejectedWithReason() {
        Map<String, Long> rejected = new HashMap<>();
        PushGate gate = new PushGate(tight(), Duration.ofHours(2), fx.clock, (r, n) -> rejected.merge(r, n, Long::sum));
        PushGate.Admitted a = gate.admit("t", List.of(
                new PushStream("{app=\"a\", env=\"x\"}", List.of(LogEntry.of(fx.ts(0), "ok"),
                        LogEntry.of(fx.ts(1), "far too long a line"))),
                new PushStream("{app=b}", List.of(LogEntry.of(fx.ts(0), "x")))), fx.ts(0));
        assertThat(a.streams()).containsExactly(new PushGate.Stream(Labels.of("app", "a", "env", "x"),
                List.of(LogEntry.of(fx.ts(0), "ok"))));
        assertThat(a.result().acceptedEntries()).isEqualTo(1);
        assertThat(a.result().rejectedEntries()).isEqualTo(2);
        assertThat(a.result().errorMessage()).contains("Max entry size '10' bytes exceeded").contains("Error parsing labels");
        assertThat(rejected).containsEntry("line_too_long", 1L).containsEntry("invalid_labels", 1L);
    }

    @Test
    void admit_overRate_nothingAdmitted() {
        PushGate gate = new PushGate(tight(), Duration.ofHours(2), fx.clock, (r, n) -> { });
        List<LogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add(LogEntry.of(fx.ts(i), "line " + i));
        }
        PushGate.Admitted a = gate.admit("t", List.of(new PushStream("{app=\"a\"}", entries)), fx.ts(0));
        assertThat(a.result().rateLimited()).isTrue();
        assertThat(a.streams()).isEmpty();
        assertThat(a.result().errorMessage()).contains("Ingestion rate limit exceeded for user t");
    }

    @Test
    void pushAdmitted_noRateLimit_retriedRecordStoredOnce() throws Exception {
        // 300 pushes of 15 bytes are far over 1 KiB/s: the rate is the distributor's, not the owner's
        List<PushStream> one = List.of(new PushStream("{app=\"a\"}",
                List.of(LogEntry.of(fx.ts(1), "early"), LogEntry.of(fx.ts(5), "late"))));
        try (Ingester consuming = fx.open(IngesterFixture.config(dir.resolve("b")).withLimits(tight()),
                new FileSystemObjectStore(dir.resolve("store-b")))) {
            // a record read again (redelivery after a crash) is stored once and reported accepted
            for (int i = 0; i < 300; i++) {
                PushResult r = consuming.pushAdmitted("t", one);
                assertThat(r.ok()).as(r.errorMessage()).isTrue();
                assertThat(r.acceptedEntries()).isEqualTo(2);
            }
            assertThat(IngesterFixture.unflushedRows(consuming, "t")).extracting(LogEntry::line)
                    .containsExactly("early", "late");
        }
    }

    @Test
    void pushAdmitted_partitionOwnerAppliesStreamAndOrderLimits_refusedWhollyDroppedAndCounted() throws Exception {
        try (Ingester consuming = fx.openWithMetrics(IngesterFixture.config(dir.resolve("c")).withLimits(tight()),
                new FileSystemObjectStore(dir.resolve("store-c")))) {
            assertThat(consuming.pushAdmitted("t", List.of(new PushStream("{app=\"a\"}",
                    List.of(LogEntry.of(fx.ts(5), "first"))))).ok()).isTrue();
            // a second stream is over the tenant's one-stream limit: all its entries refused, none stored
            PushResult second = consuming.pushAdmitted("t", List.of(new PushStream("{app=\"b\"}",
                    List.of(LogEntry.of(fx.ts(6), "b1"), LogEntry.of(fx.ts(7), "b2")))));
            assertThat(second.acceptedEntries()).isZero();
            assertThat(second.rejectedEntries()).isEqualTo(2);
            assertThat(second.errorMessage()).contains("Maximum active stream limit exceeded");
            // ordered writes: the older entry is refused alone, the newer one of the same record stored
            PushResult mixed = consuming.pushAdmitted("t", List.of(new PushStream("{app=\"a\"}",
                    List.of(LogEntry.of(fx.ts(1), "older"), LogEntry.of(fx.ts(9), "newer")))));
            assertThat(mixed.acceptedEntries()).isEqualTo(1);
            assertThat(mixed.rejectedEntries()).isEqualTo(1);
            assertThat(mixed.errorMessage()).contains("entry out of order");
            assertThat(IngesterFixture.unflushedRows(consuming, "t")).extracting(LogEntry::line)
                    .containsExactly("first", "newer");
            assertThat(consuming.unflushed("t", List.of(ANY_APP), 0, Long.MAX_VALUE).streams()).hasSize(1);
            assertThat(fx.scrape()).contains("logbloom_ingest_rejected_lines_total{reason=\"stream_limit\"} 2.0")
                    .contains("logbloom_ingest_rejected_lines_total{reason=\"out_of_order\"} 1.0");
        }
    }
}
