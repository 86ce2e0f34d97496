package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ColumnarObjectWriter#begin}: a stream written row by row in time order must give the same object,
 * byte for byte, and show its sink the same blocks and rows as {@link ColumnarObjectWriter#add} given the
 * same rows in any order (which it sorts stably).
 */
final class ColumnarStreamAppenderTest {
    private static final Labels A = Labels.of("app", "a");
    private static final Labels B = Labels.of("app", "b");
    private static final Labels C = Labels.of("app", "c", "env", "prod");

    /** Every block a sink saw: its index, then each row as "ts|line|metadata". */
    private static final class RecordingSink implements ColumnarObjectWriter.BlockSink {
        final List<String> seen = new ArrayList<>();

        @Override
        public void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to, LineWords words) {
            seen.add("block " + blockIndex + " rows " + (to - from));
            for (int i = from; i < to; i++) {
                seen.add(rows.entry(order[i]).toString());
            }
        }
    }

    /** Random rows in random time order with many equal timestamps, random metadata keys, some rows large. */
    private static ColumnarRows randomRows(Random random, int n) {
        ColumnarRows rows = new ColumnarRows();
        String[] keys = {"trace_id", "user", "pod", "a"};
        for (int i = 0; i < n; i++) {
            List<Label> metadata = new ArrayList<>();
            for (String key : keys) {
                if (random.nextInt(3) == 0) {
                    metadata.add(new Label(key, random.nextInt(4) == 0 ? "" : Integer.toHexString(random.nextInt())));
                }
            }
            int length = random.nextInt(20) == 0 ? 3000 + random.nextInt(3000) : random.nextInt(80);
            StringBuilder line = new StringBuilder("row " + i + " ");
            while (line.length() < length) {
                line.append(random.nextBoolean() ? "word " : "ünï ");
            }
            rows.append(1_000L + random.nextInt(Math.max(1, n / 4)), line.toString(), metadata);
        }
        return rows;
    }

    /** Indexes of {@code rows} sorted stably by time: the order {@code add} writes them in. */
    private static Integer[] stableTimeOrder(ColumnarRows rows) {
        Integer[] order = new Integer[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(rows.timestampNanos(x), rows.timestampNanos(y)));
        return order;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void streamedRows_giveTheSameBytesAndBlocksAsAdd(long seed) throws IOException {
        Random random = new Random(seed);
        ColumnarConfig config = new ColumnarConfig(1 + random.nextInt(200), 1 + random.nextInt(20_000), 3);
        List<Labels> labels = List.of(A, B, C).stream().sorted(ColumnarDirectory.STREAM_ORDER).toList();
        List<ColumnarRows> streams = new ArrayList<>();
        for (int s = 0; s < labels.size(); s++) {
            streams.add(randomRows(random, 1 + random.nextInt(s == 0 ? 3 : 2000)));
        }

        ByteArrayOutputStream added = new ByteArrayOutputStream();
        RecordingSink addedSink = new RecordingSink();
        ColumnarDirectory addedDirectory;
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(added, config)) {
            for (int s = 0; s < labels.size(); s++) {
                writer.add(labels.get(s), streams.get(s), addedSink);
            }
            addedDirectory = writer.finish();
        }
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        RecordingSink streamedSink = new RecordingSink();
        ColumnarDirectory streamedDirectory;
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(streamed, config)) {
            for (int s = 0; s < labels.size(); s++) {
                ColumnarRows rows = streams.get(s);
                ColumnarObjectWriter.StreamAppender appender = writer.begin(labels.get(s), streamedSink);
                for (int row : stableTimeOrder(rows)) {
                    appender.append(rows.timestampNanos(row), rows.lineBytes(), rows.lineOffset(row),
                            rows.lineLength(row), rows.metadata(row));
                }
                appender.end();
            }
            streamedDirectory = writer.finish();
        }

        assertThat(streamedDirectory.blocks().size()).as("blocks").isGreaterThan(labels.size() - 1);
        assertThat(streamedDirectory.streams()).isEqualTo(addedDirectory.streams());
        assertThat(streamedDirectory.blocks()).isEqualTo(addedDirectory.blocks());
        assertThat(streamedSink.seen).isEqualTo(addedSink.seen);
        assertThat(streamed.toByteArray()).isEqualTo(added.toByteArray());
    }

    @Test
    void append_beforeThePreviousRow_isRefused() throws IOException {
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(new ByteArrayOutputStream(),
                ColumnarConfig.defaults())) {
            ColumnarObjectWriter.StreamAppender appender = writer.begin(A, null);
            appender.append(10, new byte[] {'x'}, 0, 1, List.of());
            assertThatThrownBy(() -> appender.append(9, new byte[] {'y'}, 0, 1, List.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time order");
        }
    }

    @Test
    void streamWithoutRows_orUnended_isRefused() throws IOException {
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(new ByteArrayOutputStream(),
                ColumnarConfig.defaults())) {
            ColumnarObjectWriter.StreamAppender empty = writer.begin(A, null);
            assertThatThrownBy(empty::end).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no rows");
        }
        try (ColumnarObjectWriter writer = new ColumnarObjectWriter(new ByteArrayOutputStream(),
                ColumnarConfig.defaults())) {
            writer.begin(A, null).append(1, new byte[] {'x'}, 0, 1, List.of());
            assertThatThrownBy(() -> writer.begin(B, null)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still being appended");
            assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still being appended");
        }
    }
}
