package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class BloomCacheKeyTest {
    @Test
    void equalFields_equalKeys_andEachFieldTells() {
        BloomCache.Key key = new BloomCache.Key("fake", 0x1234_5678_9abc_def0L, 20784);
        BloomCache.Key same = new BloomCache.Key(new String("fake"), 0x1234_5678_9abc_def0L, 20784);
        assertThat(same).isEqualTo(key).hasSameHashCodeAs(key);
        assertThat(key).isNotEqualTo(new BloomCache.Key("other", key.fingerprint(), key.period()))
                .isNotEqualTo(new BloomCache.Key("fake", key.fingerprint() ^ 1, key.period()))
                .isNotEqualTo(new BloomCache.Key("fake", key.fingerprint(), key.period() + 1))
                .isNotEqualTo("fake")
                .isNotEqualTo(null);
    }

    @Test
    void hashesSpreadOverFingerprintsAndPeriods() {
        Set<Integer> hashes = new HashSet<>();
        for (long fingerprint = 0; fingerprint < 100; fingerprint++) {
            for (long period = 20780; period < 20790; period++) {
                hashes.add(new BloomCache.Key("fake", fingerprint * 0x9E3779B97F4A7C15L, period).hashCode());
            }
        }
        assertThat(hashes).hasSizeGreaterThan(990);
    }
}
