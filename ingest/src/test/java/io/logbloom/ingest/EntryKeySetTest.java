package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class EntryKeySetTest {
    private record Key(long stream, long ts, long hash) {}

    @Test
    void increasingTimestamps_foundAndRemovableThroughGrowth() {
        EntryKeySet set = new EntryKeySet();
        for (long ts = 1; ts <= 10_000; ts++) {
            assertThat(set.add(0, ts, ts * 31)).isTrue();
        }
        assertThat(set.size()).isEqualTo(10_000);
        assertThat(set.contains(0, 5_000, 5_000 * 31)).isTrue();
        assertThat(set.contains(0, 5_000, 7)).isFalse();
        assertThat(set.contains(1, 5_000, 5_000 * 31)).isFalse();
        assertThat(set.add(0, 9_999, 9_999 * 31)).isFalse();
        assertThat(set.add(0, 9_999, 7)).as("same timestamp, other line").isTrue();
        for (long ts = 1; ts <= 10_000; ts += 2) {
            assertThat(set.remove(0, ts, ts * 31)).isTrue();
        }
        assertThat(set.remove(0, 1, 31)).isFalse();
        assertThat(set.size()).isEqualTo(5_001);
        assertThat(set.contains(0, 2, 62)).isTrue();
        assertThat(set.contains(0, 3, 93)).isFalse();
        assertThat(set.contains(0, 9_999, 7)).isTrue();
    }

    @Test
    void mostlyIncreasingAddsWithRemovesInAnyOrder_agreeWithHashSet() {
        Random random = new Random(11);
        EntryKeySet set = new EntryKeySet();
        Set<Key> model = new HashSet<>();
        List<Key> added = new ArrayList<>();
        long newest = 0;
        for (int op = 0; op < 200_000; op++) {
            if (random.nextInt(10) < 6 || added.isEmpty()) {
                // mostly newer timestamps (the run), sometimes a retry or an older entry (the table)
                long ts = random.nextInt(8) == 0 ? Math.max(0, newest - random.nextInt(50)) : ++newest;
                Key k = new Key(random.nextInt(2), ts, random.nextInt(4));
                assertThat(set.add(k.stream(), k.ts(), k.hash())).isEqualTo(model.add(k));
                added.add(k);
            } else {
                // mostly the oldest (a flushed chunk), sometimes any
                int at = random.nextInt(4) == 0 ? random.nextInt(added.size()) : 0;
                Key k = added.remove(at);
                assertThat(set.remove(k.stream(), k.ts(), k.hash())).isEqualTo(model.remove(k));
            }
            if (op % 101 == 0) {
                Key probe = new Key(random.nextInt(2), Math.max(0, newest - random.nextInt(200)), random.nextInt(4));
                assertThat(set.contains(probe.stream(), probe.ts(), probe.hash())).isEqualTo(model.contains(probe));
            }
            assertThat(set.size()).isEqualTo(model.size());
        }
        for (Key k : model) {
            assertThat(set.contains(k.stream(), k.ts(), k.hash())).isTrue();
        }
        for (Key k : new ArrayList<>(model)) {
            assertThat(set.remove(k.stream(), k.ts(), k.hash())).isTrue();
        }
        assertThat(set.size()).isZero();
    }

    @Test
    void interleavedStreamsOverOneTimeRange_agreeWithHashSet_throughFifoRemoval() {
        // as a push of 100 streams whose entries cover the same seconds, remembered and evicted oldest first
        Random random = new Random(3);
        EntryKeySet set = new EntryKeySet();
        Set<Key> model = new HashSet<>();
        java.util.ArrayDeque<Key> fifo = new java.util.ArrayDeque<>();
        long[] newest = new long[100];
        for (int op = 0; op < 300_000; op++) {
            int stream = random.nextInt(newest.length);
            long ts = random.nextInt(20) == 0 ? Math.max(0, newest[stream] - random.nextInt(30)) : ++newest[stream];
            Key k = new Key(stream, ts, random.nextInt(3));
            boolean present = model.contains(k);
            assertThat(set.contains(k.stream(), k.ts(), k.hash())).isEqualTo(present);
            assertThat(set.add(k.stream(), k.ts(), k.hash())).isEqualTo(model.add(k));
            if (!present) {
                fifo.add(k);
            }
            while (fifo.size() > 5_000 || (random.nextInt(50) == 0 && !fifo.isEmpty())) {
                Key oldest = fifo.poll();
                assertThat(set.remove(oldest.stream(), oldest.ts(), oldest.hash())).isEqualTo(model.remove(oldest));
            }
            assertThat(set.size()).isEqualTo(model.size());
        }
        for (Key k : model) {
            assertThat(set.contains(k.stream(), k.ts(), k.hash())).isTrue();
        }
    }

    @Test
    void olderKeyInTable_survivesItsStreamsRunEmptying() {
        EntryKeySet set = new EntryKeySet();
        assertThat(set.add(7, 10, 1)).isTrue();
        assertThat(set.add(7, 5, 1)).as("older than the run: the table").isTrue();
        assertThat(set.remove(7, 10, 1)).isTrue();
        assertThat(set.contains(7, 5, 1)).isTrue();
        assertThat(set.add(7, 5, 1)).isFalse();
        assertThat(set.add(7, 6, 1)).isTrue();
        assertThat(set.remove(7, 5, 1)).isTrue();
        assertThat(set.remove(7, 6, 1)).isTrue();
        assertThat(set.size()).isZero();
        assertThat(set.contains(7, 5, 1)).isFalse();
        assertThat(set.add(7, 5, 1)).as("a new run after the stream was forgotten").isTrue();
        assertThat(set.contains(7, 5, 1)).isTrue();
    }

    @Test
    void randomAddsAndRemoves_agreeWithHashSet_throughGrowthAndShrink() {
        Random random = new Random(5);
        EntryKeySet set = new EntryKeySet();
        Set<Key> model = new HashSet<>();
        List<Key> added = new ArrayList<>();
        for (int op = 0; op < 200_000; op++) {
            boolean grow = (op / 20_000) % 2 == 0;
            if (random.nextInt(10) < (grow ? 7 : 3) || added.isEmpty()) {
                // few distinct values so probe chains collide and repeat
                Key k = new Key(random.nextInt(3), random.nextInt(5_000), random.nextInt(50));
                assertThat(set.add(k.stream(), k.ts(), k.hash())).isEqualTo(model.add(k));
                added.add(k);
            } else {
                Key k = added.get(random.nextInt(added.size()));
                assertThat(set.remove(k.stream(), k.ts(), k.hash())).isEqualTo(model.remove(k));
            }
            if (op % 997 == 0) {
                Key probe = new Key(random.nextInt(3), random.nextInt(5_000), random.nextInt(50));
                assertThat(set.contains(probe.stream(), probe.ts(), probe.hash())).isEqualTo(model.contains(probe));
            }
        }
        assertThat(set.size()).isEqualTo(model.size());
        for (Key k : model) {
            assertThat(set.contains(k.stream(), k.ts(), k.hash())).isTrue();
        }
        for (Key k : new ArrayList<>(model)) {
            assertThat(set.remove(k.stream(), k.ts(), k.hash())).isTrue();
        }
        assertThat(set.size()).isZero();
        assertThat(set.contains(0, 0, 0)).isFalse();
    }

    @Test
    void identitiesDifferingInOneComponent_areDistinct() {
        EntryKeySet set = new EntryKeySet();
        assertThat(set.add(1, 2, 3)).isTrue();
        assertThat(set.add(1, 2, 3)).isFalse();
        assertThat(set.contains(0, 2, 3)).isFalse();
        assertThat(set.contains(1, 0, 3)).isFalse();
        assertThat(set.contains(1, 2, 0)).isFalse();
        assertThat(set.remove(1, 2, 4)).isFalse();
        assertThat(set.size()).isEqualTo(1);
    }
}
