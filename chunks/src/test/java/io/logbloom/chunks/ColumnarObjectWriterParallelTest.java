package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer that encodes blocks on other threads ({@link ColumnarObjectWriter#ColumnarObjectWriter(java.io.OutputStream,
 * ColumnarConfig, java.util.concurrent.Executor, int)}) writes the same object, byte for byte, as one that encodes
 * each block as it is cut, and shows its sinks the same blocks, rows and words in the same order, on the caller's
 * thread, with each stream's end after its last block; closing it waits for blocks still being encoded.
 */
final class ColumnarObjectWriterParallelTest {
    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stopPool() throws InterruptedException {
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    private static final LineWords.Rule WORDS = new LineWords.Rule(wordBytes(), false);

    private static boolean[] wordBytes() {
        boolean[] word = new boolean[256];
        for (int b = 0; b < 256; b++) {
            word[b] = b >= 0x80 || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_';
        }
        return word;
    }

    /** Everything a writer's sinks saw, in order, with the thread each call came on. */
    private static final class Recording {
        final List<String> seen = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();

        ColumnarObjectWriter.BlockSink sink(String stream) {
            return new ColumnarObjectWriter.BlockSink() {
                @Override
                public void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to, LineWords words) {
                    threads.add(Thread.currentThread());
                    seen.add(stream + " block " + blockIndex + " rows " + (to - from));
                    for (int i = from; i < to; i++) {
                        seen.add(rows.entry(order[i]).toString());
                    }
                    if (words != null) {
                        List<String> kept = new ArrayList<>();
                        words.forEach((utf8, offset, length) ->
                                kept.add(new String(utf8, offset, length, StandardCharsets.UTF_8)));
                        seen.add("words " + kept);
                    }
                }

                @Override
                public LineWords.Rule wordRule() {
                    return WORDS;
                }

                @Override
                public void streamWritten() {
                    threads.add(Thread.currentThread());
                    seen.add(stream + " written");
                }
            };
        }
    }

    /** Random rows in time order, some with equal timestamps, random metadata keys, some lines long. */
    private static ColumnarRows randomRows(Random random, int n) {
        ColumnarRows rows = new ColumnarRows();
        String[] keys = {"trace_id", "user", "pod"};
        long time = 1_000;
        for (int i = 0; i < n; i++) {
            List<Label> metadata = new ArrayList<>();
            for (String key : keys) {
                if (random.nextInt(3) == 0) {
                    metadata.add(new Label(key, Integer.toHexString(random.nextInt())));
                }
            }
            int length = random.nextInt(30) == 0 ? 2000 + random.nextInt(2000) : random.nextInt(120);
            StringBuilder line = new StringBuilder("status=" + (200 + random.nextInt(4) * 100) + " n=" + i + " ");
            while (line.length() < length) {
                line.append(random.nextInt(5) == 0 ? "ünï " : "word" + random.nextInt(50) + " ");
            }
            time += random.nextInt(3);
            rows.append(time, line.toString(), metadata);
        }
        return rows;
    }

    /**
     * Writes {@code streams} (half through {@link ColumnarObjectWriter#add}, half row by row) with {@code parallelism}
     * on the pool (1 with no executor: each block encoded as it is cut); returns the object's bytes.
     */
    private static byte[] write(ColumnarConfig config, List<Labels> labels, List<ColumnarRows> streams,
            int parallelism, boolean withExecutor, Recording recording) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(out, config, withExecutor ? pool : null,
                parallelism)) {
            for (int s = 0; s < labels.size(); s++) {
                ColumnarRows rows = streams.get(s);
                ColumnarObjectWriter.BlockSink sink = recording.sink("stream " + s);
                if (s % 2 == 0) {
                    writer.add(labels.get(s), rows, sink);
                    continue;
                }
                ColumnarObjectWriter.StreamAppender appender = writer.begin(labels.get(s), sink);
                for (int row = 0; row < rows.size(); row++) {
                    appender.append(rows.timestampNanos(row), rows.lineBytes(), rows.lineOffset(row),
                            rows.lineLength(row), rows.metadata(row));
                }
                appender.end();
            }
            writer.finish();
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void blocksEncodedInParallel_giveTheSameObjectAndSinkCalls(long seed) throws IOException {
        Random random = new Random(seed);
        ColumnarConfig config = new ColumnarConfig(1 + random.nextInt(300), 200 + random.nextInt(30_000), 3);
        List<Labels> labels = new ArrayList<>();
        List<ColumnarRows> streams = new ArrayList<>();
        for (int s = 0; s < 7; s++) {
            labels.add(Labels.of("app", "a" + s));
        }
        labels.sort(ColumnarDirectory.STREAM_ORDER);
        for (int s = 0; s < labels.size(); s++) {
            streams.add(randomRows(random, 1 + random.nextInt(s == 3 ? 2 : 1500)));
        }

        Recording serialSeen = new Recording();
        byte[] serial = write(config, labels, streams, 1, false, serialSeen);
        assertThat(serialSeen.seen.stream().filter(s -> s.contains(" block ")).count()).as("blocks")
                .isGreaterThan(2L * labels.size());
        assertThat(serialSeen.seen).anyMatch(s -> s.startsWith("words "));
        for (int parallelism : new int[] {1, 2, 3, 6}) {
            Recording parallelSeen = new Recording();
            byte[] parallel = write(config, labels, streams, parallelism, true, parallelSeen);
            assertThat(parallel).as("object with parallelism %d", parallelism).isEqualTo(serial);
            assertThat(parallelSeen.seen).as("sink calls with parallelism %d", parallelism)
                    .isEqualTo(serialSeen.seen);
            assertThat(parallelSeen.threads).as("threads the sinks were called on")
                    .containsOnly(Thread.currentThread());
        }
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("serial", serial));
        assertThat(reader.directory().streams()).hasSize(labels.size());
        for (int b = 0; b < reader.directory().blocks().size(); b++) {
            reader.readBlock(b); // every column's checksum holds
        }
    }

    /** An executor that runs nothing until {@link #runAll()}. */
    private static final class HeldExecutor implements java.util.concurrent.Executor {
        final ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();

        @Override
        public void execute(Runnable task) {
            held.add(task);
        }

        void runAll() {
            for (Runnable task; (task = held.poll()) != null; ) {
                task.run();
            }
        }
    }

    @Test
    void close_waitsForBlocksStillBeingEncoded() throws Exception {
        HeldExecutor held = new HeldExecutor();
        ColumnarRows rows = randomRows(new Random(7), 400);
        ColumnarObjectWriter writer = new ColumnarObjectWriter(new ByteArrayOutputStream(),
                new ColumnarConfig(50, 1 << 20, 3), held, 4);
        ColumnarObjectWriter.StreamAppender appender = writer.begin(Labels.of("app", "a"), null);
        for (int row = 0; row < 180; row++) { // three blocks cut and held, the fourth being filled
            appender.append(rows.timestampNanos(row), rows.lineBytes(), rows.lineOffset(row), rows.lineLength(row),
                    rows.metadata(row));
        }
        assertThat(held.held).hasSize(3);
        Throwable[] failure = new Throwable[1];
        Thread closing = new Thread(() -> {
            try {
                writer.close();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        closing.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (closing.getState() != Thread.State.WAITING && closing.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(closing.isAlive()).as("close returned while blocks were still held").isTrue();
        held.runAll();
        closing.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closing.isAlive()).isFalse();
        assertThat(failure[0]).isNull();
    }

    @Test
    void parallelismOutsideItsBounds_isRefused() {
        for (int parallelism : Arrays.asList(0, ColumnarObjectWriter.MAX_PARALLELISM + 1)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ColumnarObjectWriter(
                    new ByteArrayOutputStream(), ColumnarConfig.defaults(), pool, parallelism))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parallelism " + parallelism);
        }
    }
}
