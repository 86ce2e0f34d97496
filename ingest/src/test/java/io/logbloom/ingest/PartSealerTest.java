package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class PartSealerTest {
    private static final Labels APP_A = Labels.of("app", "a");
    private static final Labels APP_B = Labels.of("app", "b", "env", "prod");

    @TempDir
    Path dir;

    /** The LSM write path's pieces over one directory, as an ingester wires them. */
    private final class Node implements AutoCloseable {
        final ReentrantLock admission = new ReentrantLock();
        final TenantBuffers buffers = new TenantBuffers();
        final LocalParts parts;
        final Wal wal;
        final PartSealer sealer;
        final PartReplay replay;

        Node() throws IOException {
            parts = new LocalParts(dir.resolve("parts"), ColumnarConfig.defaults());
            replay = new PartReplay(parts, buffers);
            wal = Wal.openWithSegments(WalConfig.defaults(dir.resolve("wal")), replay);
            sealer = new PartSealer(buffers, parts, wal, admission);
        }

        /** What a push does once admitted: WAL record and buffer rows under the admission lock, then fsync. */
        void push(String tenant, Labels labels, List<LogEntry> entries) throws IOException {
            admission.lock();
            try {
                wal.append(new WalRecord.Entries(tenant, List.of(new WalRecord.StreamEntries(labels.toString(), entries))));
                for (LogEntry e : entries) {
                    buffers.append(tenant, labels, e);
                }
            } finally {
                admission.unlock();
            }
            wal.sync();
        }

        /** Every row of {@code tenant} visible to a query: parts plus buffered and pending rows. */
        List<String> visible(String tenant) throws IOException {
            PartSealer.Unflushed u = sealer.snapshot(tenant, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
            List<String> rows = new ArrayList<>();
            u.rows().forEach((labels, entries) -> entries.forEach(e -> rows.add(key(labels, e))));
            for (LocalParts.Part part : u.parts()) {
                try (LocalParts.Reader r = parts.open(part)) {
                    List<ColumnarStreamInfo> streams = part.directory().streams();
                    for (int s = 0; s < streams.size(); s++) {
                        for (LogEntry e : r.reader().entries(s, Long.MIN_VALUE, Long.MAX_VALUE)) {
                            rows.add(key(streams.get(s).labels(), e));
                        }
                    }
                }
            }
            rows.sort(null);
            return rows;
        }

        @Override
        public void close() throws IOException {
            wal.close();
        }
    }

    private static String key(Labels labels, LogEntry e) {
        return labels + "|" + e.timestampNanos() + "|" + e.line() + "|" + e.metadata();
    }

    private static List<LogEntry> entries(int from, int count, String prefix) {
        List<LogEntry> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            out.add(new LogEntry(1_000L + i, prefix + " line " + i + " ünïcödé 😀",
                    i % 3 == 0 ? List.of() : List.of(new Label("trace_id", Integer.toHexString(0x10000 + i)))));
        }
        return out;
    }

    private static List<String> keys(Labels labels, List<LogEntry> entries) {
        return entries.stream().map(e -> key(labels, e)).sorted().toList();
    }

    @Test
    void seal_writesOnePartPerTenant_andReleasesTheWalSegments() throws IOException {
        try (Node node = new Node()) {
            node.push("t1", APP_A, entries(0, 100, "a"));
            node.push("t2", APP_B, entries(0, 50, "b"));
            node.push("t1", APP_B, entries(200, 10, "c"));
            List<String> before = node.visible("t1");

            PartSealer.Outcome outcome = node.sealer.seal();

            assertThat(outcome.rowsSealed()).isEqualTo(160);
            assertThat(outcome.partsWritten()).isEqualTo(2);
            assertThat(outcome.pendingSeals()).isZero();
            assertThat(node.wal.oldestSegment()).isEqualTo(node.wal.currentSegment());
            assertThat(node.sealer.releasedThroughSegment()).isEqualTo(node.wal.currentSegment() - 1);
            assertThat(node.buffers.rows()).isZero();
            assertThat(node.parts.parts("t1")).hasSize(1);
            assertThat(node.parts.parts("t1").get(0).directory().streams()).hasSize(2);
            assertThat(node.visible("t1")).isEqualTo(before).hasSize(110);
            assertThat(node.visible("t2")).isEqualTo(keys(APP_B, entries(0, 50, "b")));
        }
    }

    @Test
    void seal_withNothingBuffered_writesNothingAndKeepsTheSegment() throws IOException {
        try (Node node = new Node()) {
            long segment = node.wal.currentSegment();
            assertThat(node.sealer.seal()).isEqualTo(new PartSealer.Outcome(0, 0, 0, 0));
            assertThat(node.wal.currentSegment()).isEqualTo(segment);
        }
    }

    @Test
    void failedPartWrite_staysPendingAndReadable_thenTheNextSealWritesIt() throws IOException {
        try (Node node = new Node()) {
            node.push("t1", APP_A, entries(0, 20, "a"));
            node.push("t2", APP_A, entries(0, 30, "b"));
            Files.createDirectories(dir.resolve("parts"));
            Path blocker = Files.writeString(dir.resolve("parts").resolve("t2"), "not a directory");

            assertThatThrownBy(node.sealer::seal).isInstanceOf(IOException.class);

            assertThat(node.sealer.pendingSeals()).isEqualTo(1);
            assertThat(node.wal.oldestSegment()).isLessThan(node.wal.currentSegment());
            assertThat(node.visible("t1")).isEqualTo(keys(APP_A, entries(0, 20, "a")));
            assertThat(node.visible("t2")).isEqualTo(keys(APP_A, entries(0, 30, "b")));

            node.push("t2", APP_A, entries(30, 5, "b"));
            Files.delete(blocker);
            PartSealer.Outcome outcome = node.sealer.seal();

            assertThat(outcome.pendingSeals()).isZero();
            assertThat(outcome.partsWritten()).isEqualTo(2); // t2's pending part, then t2's new rows
            assertThat(node.wal.oldestSegment()).isEqualTo(node.wal.currentSegment());
            assertThat(node.visible("t1")).isEqualTo(keys(APP_A, entries(0, 20, "a")));
            assertThat(node.visible("t2")).isEqualTo(keys(APP_A, entries(0, 35, "b")));
        }
    }

    @Test
    void crashAfterSomeTenantsParts_replayRestoresEveryRowExactlyOnce() throws IOException {
        List<String> t1;
        List<String> t2;
        try (Node node = new Node()) {
            node.push("t1", APP_A, entries(0, 40, "a"));
            node.push("t2", APP_B, entries(0, 25, "b"));
            node.sealer.seal(); // both written, WAL released
            node.push("t1", APP_A, entries(40, 40, "a"));
            node.push("t2", APP_B, entries(25, 25, "b"));
            // block t2's part directory (a file where the directory should be); tenants are written in order
            Path t2Dir = dir.resolve("parts").resolve("t2");
            Path aside = dir.resolve("t2-aside");
            Files.move(t2Dir, aside);
            Files.writeString(t2Dir, "not a directory");
            assertThatThrownBy(node.sealer::seal).isInstanceOf(IOException.class);
            Files.delete(t2Dir);
            Files.move(aside, t2Dir);
            t1 = keys(APP_A, entries(0, 80, "a"));
            t2 = keys(APP_B, entries(0, 50, "b"));
        } // the process dies here: t1's second part is on disk, t2's second seal only in the WAL

        try (Node restarted = new Node()) {
            assertThat(restarted.replay.rowsRestored()).isEqualTo(25);
            assertThat(restarted.replay.rowsSkipped()).isEqualTo(40);
            assertThat(restarted.visible("t1")).isEqualTo(t1);
            assertThat(restarted.visible("t2")).isEqualTo(t2);
            restarted.sealer.seal();
            assertThat(restarted.buffers.rows()).isZero();
            assertThat(restarted.visible("t1")).isEqualTo(t1);
            assertThat(restarted.visible("t2")).isEqualTo(t2);
        }
        try (Node again = new Node()) {
            assertThat(again.replay.rowsRestored()).isZero();
            assertThat(again.visible("t1")).isEqualTo(t1);
            assertThat(again.visible("t2")).isEqualTo(t2);
        }
    }

    @Test
    void concurrentPushesSealsAndReads_everyRowVisibleExactlyOnce() throws Exception {
        try (Node node = new Node()) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread sealer = new Thread(() -> {
                try {
                    while (!done.get()) {
                        node.sealer.seal();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            Thread reader = new Thread(() -> {
                try {
                    int previous = 0;
                    while (!done.get()) {
                        List<String> rows = node.visible("t");
                        assertThat(rows).doesNotHaveDuplicates();
                        assertThat(rows.size()).isGreaterThanOrEqualTo(previous);
                        previous = rows.size();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            sealer.start();
            reader.start();
            SplittableRandom random = new SplittableRandom(7);
            List<String> expected = new ArrayList<>();
            int next = 0;
            for (int push = 0; push < 300 && failure.get() == null; push++) {
                int n = 1 + random.nextInt(20);
                Labels labels = random.nextBoolean() ? APP_A : APP_B;
                List<LogEntry> batch = entries(next, n, "p");
                next += n;
                node.push("t", labels, batch);
                expected.addAll(keys(labels, batch));
            }
            done.set(true);
            sealer.join();
            reader.join();
            assertThat(failure.get()).isNull();
            expected.sort(null);
            assertThat(node.visible("t")).isEqualTo(expected);
        }
    }

    @Test
    void snapshot_filtersBySelectorAndTime() throws IOException {
        try (Node node = new Node()) {
            node.push("t", APP_A, entries(0, 10, "a"));
            node.push("t", APP_B, entries(0, 10, "b"));
            node.sealer.seal();
            node.push("t", APP_B, entries(10, 10, "b"));
            PartSealer.Unflushed u = node.sealer.snapshot("t", List.of(LabelMatcher.equal("env", "prod")), 1_012, 1_015);
            assertThat(u.rows()).containsOnlyKeys(APP_B);
            assertThat(u.rows().get(APP_B)).extracting(LogEntry::timestampNanos).containsExactly(1_012L, 1_013L, 1_014L);
            assertThat(u.parts()).hasSize(1);
            assertThat(node.sealer.snapshot("other", List.of(), 0, Long.MAX_VALUE))
                    .isEqualTo(new PartSealer.Unflushed(Map.of(), List.of()));
        }
    }
}
