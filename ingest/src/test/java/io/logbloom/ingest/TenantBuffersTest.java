package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import java.util.List;
import org.junit.jupiter.api.Test;

final class TenantBuffersTest {
    @Test
    void append_accountsRowsRawAndRetainedBytes_andSealEmptiesEverything() {
        TenantBuffers buffers = new TenantBuffers();
        buffers.append("t", Labels.of("a", "1"), new LogEntry(5, "héllo", List.of(new Label("k", "vv"))));
        buffers.append("t", Labels.of("a", "2"), LogEntry.of(6, "x"));
        buffers.append("u", Labels.of("a", "1"), LogEntry.of(7, "yz"));

        assertThat(buffers.rows()).isEqualTo(3);
        assertThat(buffers.rawBytes()).isEqualTo(6 + 1 + 2 + 1 + 2); // "héllo" is 6 UTF-8 bytes, k, vv
        assertThat(buffers.retainedBytes()).isGreaterThan(buffers.rawBytes());

        TenantBuffers.Sealed sealed = buffers.seal();

        assertThat(sealed.rows()).isEqualTo(3);
        assertThat(sealed.tenants()).containsOnlyKeys("t", "u");
        assertThat(sealed.tenants().get("t")).hasSize(2);
        assertThat(buffers.rows()).isZero();
        assertThat(buffers.retainedBytes()).isZero();
        assertThat(buffers.seal().isEmpty()).isTrue();
    }

    @Test
    void afterASeal_aStreamsNextBufferStartsAsLargeAsTheLastOne_andItsArraysAreAccounted() {
        TenantBuffers buffers = new TenantBuffers();
        Labels busy = Labels.of("a", "busy");
        for (int i = 0; i < 5_000; i++) {
            buffers.append("t", busy, new LogEntry(i, "line number " + i + " with some padding words",
                    List.of(new Label("trace_id", Integer.toHexString(i * 7919)))));
        }
        buffers.seal();

        buffers.append("t", busy, new LogEntry(9_000, "one more", List.of(new Label("trace_id", "ff"))));
        buffers.append("t", Labels.of("a", "new"), LogEntry.of(9_001, "a stream the last seal did not have"));
        long accounted = buffers.retainedBytes();
        TenantBuffers.Sealed second = buffers.seal();
        assertThat(accounted).isEqualTo(sum(second));
        long sized = second.tenants().get("t").get(busy).retainedBytes();
        // room for the last interval's 5000 rows (plus an eighth) from the first row on, and counted as held
        assertThat(sized).isGreaterThan(5_000L * (8 + 4 + 4 + 8 + 20));
        assertThat(second.tenants().get("t").get(Labels.of("a", "new")).retainedBytes()).isLessThan(4_096);
        assertThat(second.tenants().get("t").get(busy).size()).isEqualTo(1);
        assertThat(second.tenants().get("t").get(busy).line(0)).isEqualTo("one more");
        assertThat(second.tenants().get("t").get(busy).metadata(0)).containsExactly(new Label("trace_id", "ff"));
    }

    @Test
    void retainedBytes_isTheSumOfTheBuffersArrays_withSizedBuffersToo() {
        TenantBuffers buffers = new TenantBuffers();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 2_000 * (round + 1); i++) {
                buffers.append("t", Labels.of("s", Integer.toString(i % 7)), new LogEntry(i, "x".repeat(i % 50),
                        List.of(new Label("k", "v" + i))));
            }
            long accounted = buffers.retainedBytes();
            assertThat(accounted).isEqualTo(sum(buffers.seal()));
        }
    }

    private static long sum(TenantBuffers.Sealed sealed) {
        return sealed.tenants().values().stream().flatMap(m -> m.values().stream())
                .mapToLong(io.logbloom.chunks.ColumnarRows::retainedBytes).sum();
    }

    @Test
    void read_copiesMatchingRowsInRange() {
        TenantBuffers buffers = new TenantBuffers();
        for (int i = 0; i < 10; i++) {
            buffers.append("t", Labels.of("app", i % 2 == 0 ? "even" : "odd"), LogEntry.of(i, "l" + i));
        }
        assertThat(buffers.read("t", List.of(LabelMatcher.equal("app", "even")), 2, 7))
                .containsOnlyKeys(Labels.of("app", "even"))
                .extractingByKey(Labels.of("app", "even")).asList()
                .extracting(e -> ((LogEntry) e).line()).containsExactly("l2", "l4", "l6");
        assertThat(buffers.read("other", List.of(), 0, 100)).isEmpty();
    }
}
