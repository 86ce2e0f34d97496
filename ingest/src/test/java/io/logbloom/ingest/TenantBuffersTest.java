package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ColumnarRows;
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

    @Test
    void usedBytes_followsTheRowsTaken_andSealResetsIt() {
        TenantBuffers buffers = new TenantBuffers();
        buffers.append("t", Labels.of("a", "1"), new LogEntry(5, "abc", List.of(new Label("k", "vv"))));
        buffers.append("t", Labels.of("a", "2"), LogEntry.of(6, "x"));
        assertThat(buffers.usedBytes()).isEqualTo((16 + 3 + 8 + 2) + (16 + 1));
        assertThat(buffers.retainedBytes()).isGreaterThan(buffers.usedBytes());
        buffers.seal();
        assertThat(buffers.usedBytes()).isZero();
    }

    @Test
    void recycledBuffer_isTakenAgainBySameStreamAfterTheNextSeal_emptied_andCountedWhereItIs() {
        TenantBuffers buffers = new TenantBuffers(1 << 20);
        Labels a = Labels.of("a", "1");
        for (int i = 0; i < 1000; i++) {
            buffers.append("t", a, LogEntry.of(i, "line " + i));
        }
        TenantBuffers.Sealed first = buffers.seal();
        ColumnarRows sealedRows = first.tenants().get("t").get(a);
        long capacity = sealedRows.retainedBytes();

        buffers.recycle("t", first.tenants().get("t"));

        assertThat(sealedRows.size()).isZero();
        assertThat(buffers.spareBytes()).isEqualTo(sealedRows.retainedBytes()).isPositive();
        assertThat(buffers.retainedBytes()).isZero();
        buffers.append("u", a, LogEntry.of(1, "other tenant")); // not the spare: it is t's
        buffers.append("t", Labels.of("a", "2"), LogEntry.of(1, "other stream"));
        assertThat(buffers.spareBytes()).isEqualTo(sealedRows.retainedBytes());

        buffers.append("t", a, LogEntry.of(2000, "after"));

        assertThat(buffers.spareBytes()).isZero();
        assertThat(buffers.retainedBytes()).isGreaterThanOrEqualTo(capacity - 64); // clear() forgets key names
        TenantBuffers.Sealed second = buffers.seal();
        assertThat(second.tenants().get("t").get(a)).isSameAs(sealedRows);
        assertThat(second.tenants().get("t").get(a).size()).isEqualTo(1);
        assertThat(second.tenants().get("t").get(a).entry(0)).isEqualTo(LogEntry.of(2000, "after"));
        assertThat(second.tenants().get("u").get(a)).isNotSameAs(sealedRows);
    }

    @Test
    void spare_survivesOneSeal_butIsDroppedAtTheSecondWhenNoPushTookIt() {
        TenantBuffers buffers = new TenantBuffers(1 << 20);
        Labels a = Labels.of("a", "1");
        buffers.append("t", a, LogEntry.of(1, "x"));
        TenantBuffers.Sealed sealed = buffers.seal();
        buffers.recycle("t", sealed.tenants().get("t"));
        long spare = buffers.spareBytes();

        buffers.seal(); // the spare ages: a stream that pushed before the recycle takes it after this seal

        assertThat(buffers.spareBytes()).isEqualTo(spare);
        buffers.seal();
        assertThat(buffers.spareBytes()).isZero();
        buffers.append("t", a, LogEntry.of(2, "y"));
        assertThat(buffers.seal().tenants().get("t").get(a)).isNotSameAs(sealed.tenants().get("t").get(a));
    }

    @Test
    void spares_stayWithinTheirBound_andDropSparesReleasesThem() {
        TenantBuffers none = new TenantBuffers();
        none.append("t", Labels.of("a", "1"), LogEntry.of(1, "x"));
        none.recycle("t", none.seal().tenants().get("t"));
        assertThat(none.spareBytes()).isZero();

        TenantBuffers buffers = new TenantBuffers(5_000);
        for (int s = 0; s < 10; s++) {
            buffers.append("t", Labels.of("s", Integer.toString(s)), LogEntry.of(1, "x"));
        }
        buffers.recycle("t", buffers.seal().tenants().get("t"));
        long one = new ColumnarRows().retainedBytes();
        assertThat(buffers.spareBytes()).isPositive().isLessThanOrEqualTo(5_000).isGreaterThan(5_000 - one);

        buffers.dropSpares();

        assertThat(buffers.spareBytes()).isZero();
        buffers.append("t", Labels.of("s", "0"), LogEntry.of(2, "y"));
        assertThat(buffers.spareBytes()).isZero();
        assertThat(buffers.retainedBytes()).isEqualTo(buffers.seal().tenants().get("t").get(Labels.of("s", "0"))
                .retainedBytes());
    }

    @Test
    void sealPressure_countsFreshArraysAsTheyGrow_butNotTheCapacityASpareBrought() {
        TenantBuffers buffers = new TenantBuffers(1 << 20);
        Labels a = Labels.of("a", "1");
        buffers.append("t", a, LogEntry.of(1, "x"));
        // a fresh buffer: its arrays are new heap, counted whole
        assertThat(buffers.sealPressureBytes()).isEqualTo(buffers.retainedBytes()).isGreaterThan(buffers.usedBytes());
        for (int i = 0; i < 2000; i++) {
            buffers.append("t", a, LogEntry.of(i, "line " + i));
        }
        TenantBuffers.Sealed sealed = buffers.seal();
        buffers.recycle("t", sealed.tenants().get("t"));
        buffers.seal();

        buffers.append("t", a, LogEntry.of(1, "x")); // takes the spare: its capacity was allocated before

        assertThat(buffers.retainedBytes()).isGreaterThan(10_000);
        assertThat(buffers.sealPressureBytes()).isEqualTo(buffers.usedBytes()).isLessThan(100);
        for (int i = 0; i < 4000; i++) { // past the spare's capacity: what it grows counts
            buffers.append("t", a, LogEntry.of(i, "a longer line than before, number " + i));
        }
        assertThat(buffers.sealPressureBytes()).isGreaterThan(buffers.usedBytes());
        buffers.seal();
        assertThat(buffers.sealPressureBytes()).isZero();
    }
}
