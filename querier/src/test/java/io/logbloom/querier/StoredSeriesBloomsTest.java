package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.ingest.SeriesBloom;
import io.logbloom.ingest.SeriesBloomStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StoredSeriesBloomsTest {
    private static final String OBJECT = "t/objects/a.lbo";

    @TempDir
    Path dir;

    /** The batched probe of a needle keeps exactly the entries the one-by-one probe keeps, in order. */
    @Test
    void retainMightContain_keepsWhatMightContainKeeps_andEverythingForAnUncoveredObject() throws Exception {
        SplittableRandom random = new SplittableRandom(3);
        ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults());
        long[] added = new long[500];
        for (int i = 0; i < added.length; i++) {
            added[i] = random.nextLong();
            filter.add(added[i]);
        }
        SeriesBloomStore store = new SeriesBloomStore(new FileSystemObjectStore(dir));
        store.store("t", 42L, 7L, SeriesBloom.empty(false, 4, 0, true).withObject(OBJECT, filter));
        SeriesBloomView view = new StoredSeriesBlooms(store).load("t", 42L, 7L).orElseThrow();

        long[] hashes = new long[2_000];
        int[] ids = new int[hashes.length];
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = i % 4 == 0 ? added[i / 4] : random.nextLong();
            ids[i] = i;
            if (view.mightContain(OBJECT, hashes[i])) {
                expected.add(i);
            }
        }
        assertThat(expected.size()).isBetween(500, 600); // the added ones and a few false positives
        long[] uncovered = hashes.clone();
        int n = view.retainMightContain(OBJECT, hashes, ids, hashes.length);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            kept.add(ids[i]);
        }
        assertThat(kept).isEqualTo(expected);

        int[] all = new int[uncovered.length];
        assertThat(view.retainMightContain("t/objects/other.lbo", uncovered, all, uncovered.length))
                .isEqualTo(uncovered.length);
    }
}
