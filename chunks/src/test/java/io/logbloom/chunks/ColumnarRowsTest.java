package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ColumnarRowsTest {
    /**
     * Rows copied from a block's metadata columns as bytes hold what appending each row's labels gives, whatever
     * the encoding the writer chose per column (raw, dictionary, hex, constant) and with absent and empty values.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(ColumnarConfig.Effort.class)
    void appendFromMetadataColumns_sameRowsAsAppendingTheLabels(ColumnarConfig.Effort effort) throws Exception {
        java.util.Random random = new java.util.Random(effort.ordinal());
        String[] levels = {"info", "warn", "error"};
        ColumnarRows source = new ColumnarRows();
        for (int i = 0; i < 500; i++) {
            List<Label> metadata = new java.util.ArrayList<>();
            if (random.nextInt(10) > 0) {
                metadata.add(new Label("trace_id", String.format("%016x%016x", random.nextLong(), random.nextLong())));
            }
            metadata.add(new Label("level", levels[random.nextInt(3)]));
            metadata.add(new Label("service", "checkout"));
            if (random.nextBoolean()) {
                metadata.add(new Label("user", random.nextInt(4) == 0 ? "" : "üser-" + random.nextInt(1000) + "-日本"));
            }
            source.append(1_000 + i, "line " + i, metadata);
        }
        byte[] object = ColumnarObjectWriter.write(ColumnarConfig.defaults().withEffort(effort),
                java.util.Map.of(Labels.of("app", "a"), source));
        ColumnarBlock block = new ColumnarObjectReader(RangeSource.ofBytes("o", object)).readBlock(0);
        ColumnarMetadata columns = block.metadataColumns();
        ColumnarLines lines = block.lines();
        ColumnarRows fromLabels = new ColumnarRows();
        ColumnarRows fromColumns = new ColumnarRows();
        for (int row = 0; row < block.rows(); row++) {
            fromLabels.append(block.timestampNanos(row), lines.bytes(), lines.offset(row), lines.length(row),
                    block.metadata(row));
            fromColumns.append(block.timestampNanos(row), lines.bytes(), lines.offset(row), lines.length(row), columns,
                    row);
        }
        assertThat(fromColumns.size()).isEqualTo(500);
        for (int row = 0; row < fromColumns.size(); row++) {
            assertThat(fromColumns.entry(row)).isEqualTo(fromLabels.entry(row));
        }
        assertThat(fromColumns.rawBytes()).isEqualTo(fromLabels.rawBytes()).isEqualTo(source.rawBytes());
        assertThat(fromColumns.usedBytes()).isEqualTo(fromLabels.usedBytes());
    }

    @Test
    void append_keepsRowsMetadataOrderAndRawBytes() {
        ColumnarRows rows = new ColumnarRows();
        byte[] buffer = "xxhéllo".getBytes(StandardCharsets.UTF_8);
        rows.append(5, buffer, 2, buffer.length - 2, List.of(new Label("b", "2"), new Label("a", "")));
        rows.append(7, "", List.of());
        assertThat(rows.size()).isEqualTo(2);
        assertThat(rows.line(0)).isEqualTo("héllo");
        assertThat(rows.metadata(0)).containsExactly(new Label("b", "2"), new Label("a", ""));
        assertThat(rows.metadata(1)).isEmpty();
        assertThat(rows.entry(1)).isEqualTo(LogEntry.of(7, ""));
        assertThat(rows.rawBytes()).isEqualTo(6 + 1 + 1 + 1);
        assertThat(rows.isSortedByTime()).isTrue();
        rows.append(6, "late", List.of());
        assertThat(rows.isSortedByTime()).isFalse();
    }

    @Test
    void append_keysInAnyOrderAndInstance_readBackAsAppended_alsoAfterClear() {
        java.util.Random random = new java.util.Random(7);
        String[] pool = {"trace_id", "detected_level", "user", "span_id", "a", "b", "c"};
        ColumnarRows rows = new ColumnarRows();
        for (int round = 0; round < 100; round++) { // many clears: a key cache kept across one would show
            List<List<Label>> expected = new java.util.ArrayList<>();
            int count = 1 + random.nextInt(20);
            for (int r = 0; r < count; r++) {
                List<String> names = new java.util.ArrayList<>(List.of(pool));
                java.util.Collections.shuffle(names, random);
                List<Label> metadata = new java.util.ArrayList<>();
                for (String name : names.subList(0, random.nextInt(pool.length + 1))) {
                    // equal names as distinct instances now and then, the same instance otherwise
                    metadata.add(new Label(random.nextInt(4) == 0 ? new String(name) : name, "v" + random.nextInt(3)));
                }
                rows.append(r, "line", metadata);
                expected.add(metadata);
            }
            for (int r = 0; r < expected.size(); r++) {
                assertThat(rows.metadata(r)).as("row %d", r).containsExactlyElementsOf(expected.get(r));
            }
            rows.clear();
        }
    }

    @Test
    void append_metadataValuesInAnyScript_readBackExactly_andCountedInUtf8Bytes() {
        // ASCII is copied char by char; a value turning non-ASCII part way is encoded again from its start
        String[] values = {"4bf92f3577b34da6a3ce929d0e0e4736", "", "héllo", "abc\u00ff", "ascii then 日本語",
                "\uD83D\uDE00 emoji", "tail\u0080", "x", "\uD800 lone surrogate"};
        ColumnarRows rows = new ColumnarRows();
        long expectedRaw = 0;
        for (int r = 0; r < values.length; r++) {
            String value = values[r];
            String other = values[(r + 1) % values.length];
            rows.append(r, "l", List.of(new Label("trace_id", value), new Label("k", other)));
            expectedRaw += 1 + "trace_id".length() + value.getBytes(StandardCharsets.UTF_8).length + 1
                    + other.getBytes(StandardCharsets.UTF_8).length;
        }
        for (int r = 0; r < values.length; r++) {
            String decoded = new String(values[r].getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            String otherDecoded = new String(values[(r + 1) % values.length].getBytes(StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8);
            assertThat(rows.metadata(r)).as("row %d", r)
                    .containsExactly(new Label("trace_id", decoded), new Label("k", otherDecoded));
        }
        assertThat(rows.rawBytes()).isEqualTo(expectedRaw);
    }

    @Test
    void append_duplicateKey_rejectedAndRowNotAdded() {
        ColumnarRows rows = new ColumnarRows();
        assertThatThrownBy(() -> rows.append(1, "x", List.of(new Label("k", "1"), new Label("k", "2"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duplicate structured metadata key 'k'");
        assertThat(rows.size()).isZero();
        rows.append(1, "x", List.of(new Label("k", "3")));
        assertThat(rows.metadata(0)).containsExactly(new Label("k", "3"));
    }

    @Test
    void retainedBytes_growsWithRows_andClearKeepsCapacity() {
        ColumnarRows rows = new ColumnarRows();
        long empty = rows.retainedBytes();
        for (int i = 0; i < 10_000; i++) {
            rows.append(i, "line number " + i, List.of(new Label("trace_id", Integer.toHexString(i))));
        }
        long full = rows.retainedBytes();
        assertThat(full).isGreaterThan(empty + rows.rawBytes());
        assertThat(full).isLessThan(4 * (rows.rawBytes() + 20L * rows.size()));
        rows.clear();
        assertThat(rows.size()).isZero();
        assertThat(rows.rawBytes()).isZero();
        assertThat(rows.retainedBytes()).isEqualTo(full - 64);
        assertThatThrownBy(() -> rows.line(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void usedBytes_countsWhatTheRowsTake_notCapacity_andClearZeroesIt() {
        ColumnarRows rows = new ColumnarRows();
        assertThat(rows.usedBytes()).isZero();
        rows.append(1, "abc", List.of(new Label("k", "vv"), new Label("é", "ü")));
        rows.append(2, "de", List.of());
        // 16 per row (timestamp, line end, metadata end), line bytes, 8 per metadata pair, value bytes (UTF-8)
        assertThat(rows.usedBytes()).isEqualTo(2 * 16 + 5 + 2 * 8 + 2 + 2);
        for (int i = 0; i < 1000; i++) {
            rows.append(3 + i, "x", List.of());
        }
        assertThat(rows.usedBytes()).isEqualTo(1002 * 16 + 5 + 1000 + 2 * 8 + 2 + 2);
        long retained = rows.retainedBytes();
        assertThat(retained).isGreaterThan(rows.usedBytes());
        rows.clear();
        assertThat(rows.usedBytes()).isZero();
        assertThat(rows.retainedBytes()).isEqualTo(retained - 2 * 64);
    }
}
