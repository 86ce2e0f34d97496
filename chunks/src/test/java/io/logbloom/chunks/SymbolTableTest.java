package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SymbolTableTest {
    @Test
    void intern_assignsFirstSeenIds_repeatsReturnTheSameId_throughGrowth() {
        SymbolTable table = new SymbolTable();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            values.add("trace-" + Integer.toHexString(i * 7919));
        }
        for (int i = 0; i < values.size(); i++) {
            assertThat(table.intern(values.get(i))).isEqualTo(i);
        }
        for (int i = values.size() - 1; i >= 0; i--) {
            assertThat(table.intern(new String(values.get(i).toCharArray()))).isEqualTo(i);
        }
        assertThat(table.size()).isEqualTo(5_000);
        assertThat(table.snapshot()).containsExactlyElementsOf(values);
    }

    @Test
    void intern_equalHashCodes_distinctSymbols() {
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        SymbolTable table = new SymbolTable();
        assertThat(table.intern("Aa")).isZero();
        assertThat(table.intern("BB")).isEqualTo(1);
        assertThat(table.intern("Aa")).isZero();
        assertThat(table.intern("BB")).isEqualTo(1);
        assertThat(table.intern("")).isEqualTo(2);
        assertThat(table.utf8Bytes()).isEqualTo(4);
    }
}
