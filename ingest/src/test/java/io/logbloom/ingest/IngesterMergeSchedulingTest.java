package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.chunks.FlakyObjectStore;
import io.logbloom.chunks.LogEntry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When merges run and what they take: a check merges the parts mergeable when it looked and deletes each round's parts
 * at once, asks for the next check when it merged something, a seal that brings parts to {@code merge_min_bytes} outside
 * a push burst asks for one at once, and so does a push refused for the backlog, which is told to come back in a
 * second while merges succeed and a check period later while they fail. The merge loop's own period is an hour here:
 * every merge a test sees was asked for.
 */
final class IngesterMergeSchedulingTest {
    /** Rounds take up to twice this: one part of {@link #pushAndSeal} each. */
    private static final long MERGE_MIN_BYTES = 2048;
    /** The least {@code max_unmerged_bytes} takes. */
    private static final long MAX_UNMERGED_BYTES = 1L << 20;
    private static final int BACKLOG_ROWS = 5_000;

    @TempDir
    Path dir;

    private final IngesterFixture fx = new IngesterFixture();
    private FlakyObjectStore store;

    @BeforeEach
    void setUp() throws IOException {
        store = new FlakyObjectStore(new FileSystemObjectStore(dir.resolve("store")));
    }

    /** The merge loop every {@code checkPeriod}, the seal loop every {@code sealInterval}, parts merged at 2 KB. */
    private IngestConfig config(Duration checkPeriod, Duration sealInterval) {
        return IngesterFixture.config(dir).withFlush(new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2),
                checkPeriod, Duration.ofMillis(1), Duration.ofMillis(5)).withParts(sealInterval, MERGE_MIN_BYTES));
    }

    /** As {@link #config} with no seal loop, and {@code max_unmerged_bytes} at its least: two backlog parts exceed it. */
    private IngestConfig backlogConfig(Duration checkPeriod) {
        return config(checkPeriod, Duration.ofHours(1)).withBudget(new BudgetConfig(
                BudgetConfig.defaults().maxMemoryBytes(), Duration.ofHours(1), MAX_UNMERGED_BYTES));
    }

    @Test
    void sealBringingPartsToMergeMinBytes_mergedWithoutWaitingForTheLoop() throws Exception {
        try (Ingester ingester = fx.open(config(Duration.ofHours(1), Duration.ofMillis(10)), store)) {
            push(ingester, new int[] {0});

            IngesterFixture.await("the seal loop's part is merged", () -> ingester.unmergedBytes() == 0);
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(40);
        }
    }

    @Test
    void sealsDuringABurst_askForNoMerge_theFirstSealAfterItDoes() throws Exception {
        // early seals past 2 MiB of buffers (max_memory 16 MiB); the burst's 2.6 MB of parts are past an eighth of
        // max_unmerged_bytes, where the loop's own checks would merge them anyway; the fake clock, which decides when
        // a burst has passed, moves only when the test moves it
        IngestConfig config = config(Duration.ofHours(1), Duration.ofSeconds(1))
                .withBudget(new BudgetConfig(16L << 20, Duration.ofHours(1), 16L << 20));
        int[] pushed = {0};
        try (Ingester ingester = fx.open(config, store)) {
            for (int batch = 0; batch < 24; batch++) { // as a shipper's batches: the one past 2 MiB sees the burst
                push(ingester, pushed, 1_000);
            }
            IngesterFixture.await("the burst is sealed", () -> ingester.unmergedPartBytes() > 2L << 20);
            Thread.sleep(1_500); // a tick of the seal loop

            assertThat(IngesterFixture.refs(ingester, "t")).as("no merge asked for while the burst goes on").isEmpty();

            fx.clock.advance(Duration.ofSeconds(10)); // past two seal intervals: the burst has passed
            IngesterFixture.await("the first seal after the burst asks for the merge",
                    () -> ingester.unmergedBytes() == 0);
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(24_000);
        }
    }

    @Test
    void pushRefusedForTheBacklog_retryInASecond_andTheRefusalAsksForTheMerge() throws Exception {
        IngestConfig config = backlogConfig(Duration.ofHours(1));
        int[] pushed = {0};
        try (Ingester ingester = fx.open(config, store)) {
            pushBacklogAndSeal(ingester, pushed);
            pushBacklogAndSeal(ingester, pushed);
            assertThat(ingester.unmergedBytes()).as("over max_unmerged_bytes, no merge asked for yet")
                    .isGreaterThan(MAX_UNMERGED_BYTES);

            assertThatThrownBy(() -> push(ingester, pushed)).isInstanceOfSatisfying(
                    UnmergedBacklogExceededException.class, e -> assertThat(e.retryAfterSeconds()).isEqualTo(1));

            IngesterFixture.await("the refusal's merge check drains the backlog", () -> ingester.unmergedBytes() == 0);
            push(ingester, pushed);
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(2 * BACKLOG_ROWS);
        }
    }

    @Test
    void pushRefusedForTheBacklog_whileMergesFail_retryAfterACheckPeriod() throws Exception {
        IngestConfig config = backlogConfig(Duration.ofSeconds(7));
        int[] pushed = {0};
        try (Ingester ingester = fx.open(config, store)) {
            store.down = true;
            pushBacklogAndSeal(ingester, pushed);
            assertThatThrownBy(ingester::flushAll).hasMessageContaining("flush failed");
            pushBacklogAndSeal(ingester, pushed);

            assertThatThrownBy(() -> push(ingester, pushed)).isInstanceOfSatisfying(
                    UnmergedBacklogExceededException.class, e -> assertThat(e.retryAfterSeconds()).isEqualTo(7));

            store.down = false;
            ingester.flushAll();
            push(ingester, pushed);
            ingester.flushAll();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(2 * BACKLOG_ROWS + 40);
        }
    }

    @Test
    void flushWhilePartsKeepComing_mergesThePartsReadyAtItsStart_deletesEachRoundsPartsBeforeTheNext() throws Exception {
        AtomicReference<Ingester> opened = new AtomicReference<>();
        List<Integer> partFilesAtEachRound = new ArrayList<>();
        int[] pushed = {0};
        try (Ingester ingester = openWithRoundHook(opened, i -> {
            partFilesAtEachRound.add(partFiles("t"));
            if (partFilesAtEachRound.size() > 20) {
                throw new AssertionError("the flush keeps merging the parts sealed while it runs");
            }
            pushAndSeal(i, pushed);
        })) {
            for (int part = 0; part < 4; part++) {
                pushAndSeal(ingester, pushed);
            }
            opened.set(ingester);

            ingester.flushAll();

            assertThat(partFilesAtEachRound).as("part files on disk as each round starts: the earlier rounds' are gone")
                    .containsExactly(4, 4, 4, 4);
            assertThat(ingester.unmergedPartBytes()).as("the four parts sealed during the flush wait").isPositive();
            assertThat(partFiles("t")).isEqualTo(4);
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(4 * 40);
            assertThat(IngesterFixture.unflushedRows(ingester, "t")).hasSize(4 * 40);
        }
    }

    @Test
    void mergeCheck_partsSealedWhileItMerged_mergedByTheNextCheckRightAway() throws Exception {
        AtomicReference<Ingester> opened = new AtomicReference<>();
        AtomicInteger rounds = new AtomicInteger();
        int[] pushed = {0};
        try (Ingester ingester = openWithRoundHook(opened, i -> {
            if (rounds.incrementAndGet() <= 2) {
                pushAndSeal(i, pushed);
            }
        })) {
            pushAndSeal(ingester, pushed);
            pushAndSeal(ingester, pushed);
            opened.set(ingester);

            ingester.checkMergesNow();

            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while ((rounds.get() < 4 || ingester.unmergedPartBytes() > 0) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(rounds.get()).as("merge rounds: two parts, then the two sealed meanwhile").isEqualTo(4);
            assertThat(ingester.unmergedPartBytes()).isZero();
            assertThat(IngesterFixture.stored(ingester, store, "t")).hasSize(4 * 40);
        }
    }

    /** What a test does as a merge round starts (its intent written), with the ingester merging. */
    private interface RoundAction {
        void run(Ingester ingester) throws IOException;
    }

    /**
     * An ingester whose merge rounds take one part of {@link #pushAndSeal} each (rounds take up to twice
     * {@code merge_min_bytes}, 2 KB), whose merge loop never runs by itself (a check period of an hour: only the checks
     * a test or a check asks for), running {@code atRound} as each round starts once {@code opened} holds it.
     */
    private Ingester openWithRoundHook(AtomicReference<Ingester> opened, RoundAction atRound)
            throws IOException {
        IngestConfig config = config(Duration.ofHours(1), Duration.ofHours(1));
        CrashHook hook = point -> {
            Ingester ingester = opened.get();
            if (point == CrashPoint.MERGE_INTENT_WRITTEN && ingester != null) {
                try {
                    atRound.run(ingester);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        return new Ingester(config, store, fx.clock, new PrometheusRegistry(), hook);
    }

    /** Pushes 40 rows of about 110 bytes (a part of about 5 KB once sealed). */
    private static void push(Ingester ingester, int[] pushed) throws IOException {
        push(ingester, pushed, 40);
    }

    /** Pushes {@code rows} rows of about 110 bytes. */
    private static void push(Ingester ingester, int[] pushed, int rows) throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < rows; i++, pushed[0]++) {
            entries.add(LogEntry.of(IngesterFixture.START.getEpochSecond() * 1_000_000_000L + pushed[0],
                    "row " + pushed[0] + " " + "x".repeat(100)));
        }
        ingester.push("t", List.of(new PushStream("{app=\"r\"}", entries)));
    }

    /** Pushes and seals a part of about 600 KB: two take the backlog over {@link #MAX_UNMERGED_BYTES}. */
    private static void pushBacklogAndSeal(Ingester ingester, int[] pushed) throws IOException {
        push(ingester, pushed, BACKLOG_ROWS);
        ingester.seal();
    }

    private static void pushAndSeal(Ingester ingester, int[] pushed) throws IOException {
        push(ingester, pushed);
        ingester.seal();
    }

    private int partFiles(String tenant) {
        try (var files = Files.list(dir.resolve("wal").resolve("parts").resolve(tenant))) {
            return (int) files.filter(f -> f.toString().endsWith(LocalParts.SUFFIX)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
