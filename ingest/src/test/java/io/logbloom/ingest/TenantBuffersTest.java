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
    void appendBatch_countsTheRowsItAdded_evenWhenItFailsPartway() {
        TenantBuffers buffers = new TenantBuffers();
        buffers.append("t", Labels.of("a", "1"), rows -> {
            rows.append(1, "ab", List.of(new Label("k", "v")));
            rows.append(2, "cde", List.of());
        });
        assertThat(buffers.rows()).isEqualTo(2);
        assertThat(buffers.rawBytes()).isEqualTo(2 + 1 + 1 + 3);
        long retained = buffers.retainedBytes();
        assertThat(retained).isPositive();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> buffers.append("t", Labels.of("a", "1"), rows -> {
            rows.append(3, "f", List.of());
            rows.append(4, "g", List.of(new Label("k", "1"), new Label("k", "2")));
        })).isInstanceOf(IllegalArgumentException.class);
        assertThat(buffers.rows()).isEqualTo(3);
        assertThat(buffers.rawBytes()).isEqualTo(2 + 1 + 1 + 3 + 1);
        assertThat(buffers.read("t", List.of(LabelMatcher.equal("a", "1")), 0, 10).get(Labels.of("a", "1")))
                .extracting(LogEntry::line).containsExactly("ab", "cde", "f");
        TenantBuffers.Sealed sealed = buffers.seal();
        assertThat(sealed.rows()).isEqualTo(3);
        assertThat(sealed.tenants().get("t").get(Labels.of("a", "1")).size()).isEqualTo(3);
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
