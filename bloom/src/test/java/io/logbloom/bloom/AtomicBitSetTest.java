package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class AtomicBitSetTest {

    @Test
    void set_returnsWhetherTheBitChanged() {
        AtomicBitSet bits = new AtomicBitSet(2);
        assertThat(bits.set(70)).isTrue();
        assertThat(bits.set(70)).isFalse();
        assertThat(bits.get(70)).isTrue();
        assertThat(bits.get(6)).isFalse();
        assertThat(bits.word(1)).isEqualTo(1L << 6);
        assertThat(bits.cardinality()).isEqualTo(1);
    }

    @Test
    void concurrentSetsOfNeighbouringBits_areNeverLost() throws Exception {
        int threads = 4;
        int words = 64;
        AtomicBitSet bits = new AtomicBitSet(words);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                // Thread t sets bits t, t+4, t+8, ...: every word is contended by all threads.
                futures.add(pool.submit(() -> {
                    start.await();
                    int changed = 0;
                    for (long bit = thread; bit < words * 64L; bit += threads) {
                        if (bits.set(bit)) {
                            changed++;
                        }
                    }
                    return changed;
                }));
            }
            start.countDown();
            int changed = 0;
            for (Future<Integer> future : futures) {
                changed += future.get(30, TimeUnit.SECONDS);
            }
            assertThat(changed).isEqualTo(words * 64);
        } finally {
            pool.shutdownNow();
        }
        assertThat(bits.cardinality()).isEqualTo(words * 64L);
    }
}
