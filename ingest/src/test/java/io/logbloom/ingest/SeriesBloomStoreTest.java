package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.BloomHash;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.FileSystemObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SeriesBloomStoreTest {
    private static final String FIRST = "t/objects/0000000000000001-w-0000000000000003.lbo";
    private static final String SECOND = "t/objects/0000000000000004-w-0000000000000006.lbo";

    @TempDir
    Path dir;

    private static ScalableBloomFilter filterOf(String prefix, int items) {
        ScalableBloomFilter filter = ScalableBloomFilter.create(
                BloomConfig.defaults().withInitialCapacity(items).withNonScaling(true));
        for (int i = 0; i < items; i++) {
            filter.add(prefix + i);
        }
        return filter;
    }

    private static SeriesBloom sample() {
        return SeriesBloom.empty(true, 4, 1, true).withObject(FIRST, filterOf("first", 500))
                .withObject(SECOND, filterOf("second", 300));
    }

    private static long hash(String token) {
        return BloomHash.hash(token);
    }

    @Test
    void seriesBloom_copiesItsFilters_unmodifiable_nullsRejected() {
        ScalableBloomFilter filter = filterOf("x", 10);
        java.util.Map<String, ScalableBloomFilter> given = new java.util.HashMap<>(java.util.Map.of(FIRST, filter));
        SeriesBloom one = new SeriesBloom(given, false, 4, 0, true);
        given.put(SECOND, filter);
        assertThat(one.coveredChunkKeys()).containsExactly(FIRST);
        assertThatThrownBy(() -> one.filters().put(SECOND, filter)).isInstanceOf(UnsupportedOperationException.class);
        // one object or several: the same map class, so readers of a fresh store meet what a warmed one had
        assertThat(one.filters().getClass()).isEqualTo(sample().filters().getClass())
                .isEqualTo(SeriesBloom.empty(true, 4, 1, true).filters().getClass());
        java.util.Map<String, ScalableBloomFilter> withNull = new java.util.HashMap<>();
        withNull.put(FIRST, null);
        assertThatThrownBy(() -> new SeriesBloom(withNull, false, 4, 0, true)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("a filter is null");
    }

    @Test
    void roundTrip_throughObjectStore() throws Exception {
        SeriesBloomStore store = new SeriesBloomStore(new FileSystemObjectStore(dir));
        assertThat(store.load("t", 255, 20454)).isEmpty();
        store.store("t", 255, 20454, sample());
        SeriesBloom loaded = store.load("t", 255, 20454).orElseThrow();
        assertThat(loaded.coveredChunkKeys()).containsExactlyInAnyOrder(FIRST, SECOND);
        assertThat(loaded.ngramEnabled()).isTrue();
        assertThat(loaded.ngramLength()).isEqualTo(4);
        assertThat(loaded.ngramSkip()).isEqualTo(1);
        assertThat(loaded.wordTokens()).isTrue();
        for (int i = 0; i < 500; i++) {
            assertThat(loaded.mightContain(FIRST, hash("first" + i))).isTrue();
        }
        for (int i = 0; i < 300; i++) {
            assertThat(loaded.mightContain(SECOND, hash("second" + i))).isTrue();
        }
        assertThat(loaded.mightContain("t/objects/not-covered.lbo", hash("anything")))
                .as("an object the bloom does not cover may contain anything").isTrue();
        assertThat(SeriesBloomStore.encode(loaded)).isEqualTo(SeriesBloomStore.encode(sample()));
        assertThat(SeriesBloomStore.key("t", 255, 20454)).isEqualTo("blooms/t/20454/00000000000000ff.bloom");
    }

    @Test
    void store_tellsItsListener_aCopyOfWhatItWrote() throws Exception {
        java.util.List<String> told = new java.util.ArrayList<>();
        java.util.List<SeriesBloom> copies = new java.util.ArrayList<>();
        SeriesBloomStore store = new SeriesBloomStore(new FileSystemObjectStore(dir), (tenant, fp, period, bloom) -> {
            told.add(tenant + "/" + fp + "/" + period);
            copies.add(bloom);
        });
        SeriesBloom written = sample();
        store.store("t", 255, 20454, written);

        assertThat(told).containsExactly("t/255/20454");
        SeriesBloom copy = copies.get(0);
        assertThat(copy).isNotSameAs(written);
        assertThat(copy.filters().get(FIRST)).isNotSameAs(written.filters().get(FIRST));
        SeriesBloom loaded = store.load("t", 255, 20454).orElseThrow();
        assertThat(copy.coveredChunkKeys()).isEqualTo(loaded.coveredChunkKeys());
        for (int i = 0; i < 500; i++) {
            assertThat(copy.mightContain(FIRST, hash("first" + i))).isTrue();
        }
        for (int i = 0; i < 300; i++) {
            assertThat(copy.mightContain(SECOND, hash("second" + i))).isTrue();
        }
        assertThat(copy.wordTokens()).isEqualTo(loaded.wordTokens());
    }

    @Test
    void eachObjectProbesOnlyItsOwnFilter() throws Exception {
        SeriesBloom loaded = SeriesBloomStore.decode(SeriesBloomStore.encode(sample()), "x");
        int inOther = 0;
        for (int i = 0; i < 500; i++) {
            if (loaded.mightContain(SECOND, hash("first" + i))) {
                inOther++;
            }
        }
        assertThat(inOther).as("first's tokens are false positives in second's filter only at its error rate")
                .isLessThan(25);
    }

    @Test
    void withoutObjects_dropsTheirFilters() {
        SeriesBloom bloom = sample().withoutObjects(Set.of(FIRST));
        assertThat(bloom.coveredChunkKeys()).containsExactly(SECOND);
        assertThat(bloom.sizeBytes()).isLessThan(sample().sizeBytes());
        assertThat(bloom.mightContain(FIRST, hash("never added"))).isTrue();
    }

    @Test
    void previousVersion_oneSharedFilter_stillRead_andRewrittenOnce() throws Exception {
        ScalableBloomFilter shared = filterOf("token", 500);
        byte[] v1 = versionOne(shared, List.of(FIRST, SECOND), 0b10, 4, 0);
        SeriesBloom loaded = SeriesBloomStore.decode(v1, "x");
        assertThat(loaded.coveredChunkKeys()).containsExactlyInAnyOrder(FIRST, SECOND);
        assertThat(loaded.wordTokens()).isTrue();
        assertThat(loaded.ngramEnabled()).isFalse();
        for (int i = 0; i < 500; i++) {
            assertThat(loaded.mightContain(FIRST, hash("token" + i))).isTrue();
            assertThat(loaded.mightContain(SECOND, hash("token" + i))).isTrue();
        }
        assertThat(loaded.distinctFilters()).hasSize(1);
        // re-encoded in the current version, the shared filter is written once, not once per key
        byte[] v2 = SeriesBloomStore.encode(loaded.withObject("t/objects/third.lbo", filterOf("third", 10)));
        assertThat(v2[4]).isEqualTo(SeriesBloomStore.VERSION);
        assertThat(v2.length).isLessThan(v1.length + shared.serialize().length / 2);
        SeriesBloom again = SeriesBloomStore.decode(v2, "x");
        assertThat(again.coveredChunkKeys()).containsExactlyInAnyOrder(FIRST, SECOND, "t/objects/third.lbo");
        assertThat(again.distinctFilters()).hasSize(2);
        assertThat(again.mightContain(SECOND, hash("token7"))).isTrue();
    }

    /** The version-1 layout, written as the previous release wrote it. */
    private static byte[] versionOne(ScalableBloomFilter filter, List<String> keys, int flags, int n, int skip)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(SeriesBloomStore.MAGIC);
        out.writeByte(1);
        out.writeByte(flags);
        out.writeByte(n);
        out.writeByte(skip);
        out.writeInt(keys.size());
        for (String key : keys) {
            byte[] b = key.getBytes(StandardCharsets.UTF_8);
            out.writeShort(b.length);
            out.write(b);
        }
        byte[] serialized = filter.serialize();
        out.writeInt(serialized.length);
        out.write(serialized);
        CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeInt((int) crc.getValue());
        return bytes.toByteArray();
    }

    @Test
    void flippedByte_checksumMismatch() {
        byte[] bytes = SeriesBloomStore.encode(sample());
        bytes[20] ^= 0x01;
        assertThatThrownBy(() -> SeriesBloomStore.decode(bytes, "x")).isInstanceOf(BloomFormatException.class)
                .hasMessage("series bloom x checksum mismatch");
    }

    @Test
    void truncated_rejected() {
        byte[] bytes = SeriesBloomStore.encode(sample());
        assertThatThrownBy(() -> SeriesBloomStore.decode(Arrays.copyOf(bytes, bytes.length - 10), "x"))
                .isInstanceOf(BloomFormatException.class);
        assertThatThrownBy(() -> SeriesBloomStore.decode(Arrays.copyOf(bytes, 8), "x"))
                .isInstanceOf(BloomFormatException.class).hasMessage("series bloom x truncated: 8 bytes");
    }

    @Test
    void unknownVersion_namedInError() {
        byte[] bytes = SeriesBloomStore.encode(sample());
        bytes[4] = 9;
        assertThatThrownBy(() -> SeriesBloomStore.decode(bytes, "x")).isInstanceOf(BloomFormatException.class)
                .hasMessage("series bloom x has unsupported version 9 (this reader knows 1 and 2)");
    }

    @Test
    void badMagic_rejected() {
        byte[] bytes = SeriesBloomStore.encode(sample());
        bytes[0] = 'X';
        assertThatThrownBy(() -> SeriesBloomStore.decode(bytes, "x")).isInstanceOf(BloomFormatException.class)
                .hasMessage("series bloom x has bad magic");
    }
}
