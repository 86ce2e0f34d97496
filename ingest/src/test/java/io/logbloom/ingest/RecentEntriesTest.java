package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class RecentEntriesTest {
    @Test
    void remembersWithinRetention_forgetsAfter() {
        RecentEntries recent = new RecentEntries();
        recent.add("t", 1, 100, 7, 0);
        assertThat(recent.contains("t", 1, 100, 7, RecentEntries.RETENTION_NANOS - 1)).isTrue();
        assertThat(recent.contains("t", 2, 100, 7, 0)).as("other series").isFalse();
        assertThat(recent.contains("u", 1, 100, 7, 0)).as("other tenant").isFalse();
        assertThat(recent.contains("t", 1, 100, 7, RecentEntries.RETENTION_NANOS)).isFalse();
        assertThat(recent.size()).isZero();
    }

    @Test
    void boundedInCount_oldestOut() {
        RecentEntries recent = new RecentEntries(3);
        for (int i = 0; i < 5; i++) {
            recent.add("t", 1, i, i, 0);
        }
        assertThat(recent.size()).isEqualTo(3);
        assertThat(recent.contains("t", 1, 0, 0, 0)).isFalse();
        assertThat(recent.contains("t", 1, 4, 4, 0)).isTrue();
    }

    @Test
    void readdedEntry_keptOnce_ringGrowsPastInitialSize() {
        RecentEntries recent = new RecentEntries(5_000);
        for (int i = 0; i < 3_000; i++) {
            recent.add("t", 1, i, i, i);
            recent.add("t", 1, i, i, i);
        }
        assertThat(recent.size()).isEqualTo(3_000);
        assertThat(recent.contains("t", 1, 0, 0, 0)).isTrue();
        assertThat(recent.contains("t", 1, 2_999, 2_999, RecentEntries.RETENTION_NANOS + 2_000)).isTrue();
        assertThat(recent.size()).as("entries flushed before now - retention expired").isEqualTo(999);
    }
}
