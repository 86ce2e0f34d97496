package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

final class ZstdInflaterTest {
    private static byte[] text(Random random, int size) {
        byte[] raw = new byte[size];
        for (int i = 0; i < size; i++) {
            raw[i] = (byte) ('a' + random.nextInt(6));
        }
        return raw;
    }

    private static byte[] inflate(ZstdInflater inflater, byte[] frame, int size) {
        byte[] out = new byte[size];
        assertThat(inflater.inflate(out, 0, size, frame, 0, frame.length)).isEqualTo(size);
        return out;
    }

    @Test
    void pooled_startsWithItsContexts_inflatesLikeZstd_andKeepsThem() {
        Random random = new Random(1);
        ZstdInflater inflater = ZstdInflater.pooled(3);
        assertThat(inflater.idleContexts()).isEqualTo(3);
        for (int size : new int[] {1, 100, 5_000, 300_000}) {
            byte[] raw = text(random, size);
            assertThat(inflate(inflater, Zstd.compress(raw, 9), size)).isEqualTo(raw);
        }
        assertThat(inflater.idleContexts()).isEqualTo(3);
    }

    @Test
    void perCall_keepsNoContext() {
        byte[] raw = text(new Random(2), 1000);
        ZstdInflater inflater = ZstdInflater.perCall();
        assertThat(inflate(inflater, Zstd.compress(raw, 3), raw.length)).isEqualTo(raw);
        assertThat(inflater.idleContexts()).isZero();
    }

    @Test
    void inflateIntoAnOffset_writesOnlyThatRange() {
        byte[] raw = text(new Random(3), 500);
        byte[] frame = new byte[7 + (int) Zstd.compressBound(raw.length)];
        int n = (int) Zstd.compressByteArray(frame, 7, frame.length - 7, raw, 0, raw.length, 3);
        byte[] out = new byte[520];
        Arrays.fill(out, (byte) '#');
        assertThat(ZstdInflater.pooled(1).inflate(out, 10, 500, frame, 7, n)).isEqualTo(500);
        assertThat(Arrays.copyOfRange(out, 10, 510)).isEqualTo(raw);
        assertThat(out[9]).isEqualTo((byte) '#');
        assertThat(out[510]).isEqualTo((byte) '#');
    }

    @Test
    void invalidFrame_throwsAndTheFailedContextIsNotKept() {
        byte[] raw = text(new Random(4), 2000);
        byte[] frame = Zstd.compress(raw, 3);
        ZstdInflater inflater = ZstdInflater.pooled(2);
        byte[] damaged = frame.clone();
        damaged[damaged.length / 2] ^= 0x55;
        damaged[damaged.length / 2 + 1] ^= 0x33;
        byte[] garbage = "not a zstd frame at all".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> inflate(inflater, garbage, raw.length)).isInstanceOf(ZstdException.class);
        assertThat(inflater.idleContexts()).isEqualTo(1);
        // too small a destination fails the same way, and a good frame still inflates afterwards
        assertThatThrownBy(() -> inflater.inflate(new byte[10], 0, 10, frame, 0, frame.length))
                .isInstanceOf(ZstdException.class);
        assertThat(inflater.idleContexts()).isZero();
        assertThat(inflate(inflater, frame, raw.length)).isEqualTo(raw);
        assertThat(inflater.idleContexts()).isEqualTo(1);
    }

    @Test
    void pooled_refusesNoContexts() {
        assertThatThrownBy(() -> ZstdInflater.pooled(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxIdle must be at least 1, got 0");
    }

    @Test
    void concurrentCalls_allCorrect_andIdleContextsStayBounded() throws Exception {
        Random random = new Random(5);
        List<byte[]> raws = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] raw = text(random, 1000 + random.nextInt(50_000));
            raws.add(raw);
            frames.add(Zstd.compress(raw, 1 + i % 9));
        }
        ZstdInflater inflater = ZstdInflater.pooled(2);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int first = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        int k = (first + i) % raws.size();
                        if (!Arrays.equals(inflate(inflater, frames.get(k), raws.get(k).length), raws.get(k))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(inflater.idleContexts()).isEqualTo(2);
    }

    /** A block read with a shared inflater decodes its lazy columns on other threads to the same rows. */
    @Test
    void readerWithSharedInflater_lazyColumnsDecodedOnManyThreads_equalOneOffDecode() throws Exception {
        Random random = new Random(6);
        Map<Labels, List<LogEntry>> streams = ColumnarTestData.streams(random, 5, 400);
        byte[] bytes = ColumnarObjectWriter.write(new ColumnarConfig(64, 4096, 9), ColumnarTestData.rows(streams));
        ColumnarObjectReader oneOff = new ColumnarObjectReader(RangeSource.ofBytes("o", bytes));
        int blocks = oneOff.directory().blocks().size();
        ZstdInflater inflater = ZstdInflater.pooled(2);
        ColumnarObjectReader shared = new ColumnarObjectReader(RangeSource.ofBytes("o", bytes), oneOff.directory(),
                inflater);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int b = 0; b < blocks; b++) {
                List<LogEntry> expected = oneOff.readBlock(b).entries();
                ColumnarBlock lazy = shared.readBlockLazily(b);
                List<Future<List<LogEntry>>> decoded = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    decoded.add(pool.submit(lazy::entries));
                }
                for (Future<List<LogEntry>> rows : decoded) {
                    assertThat(rows.get()).containsExactlyElementsOf(expected);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(inflater.idleContexts()).isEqualTo(2);
    }
}
