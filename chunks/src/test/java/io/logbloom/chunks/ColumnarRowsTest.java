package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ColumnarRowsTest {
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
}
