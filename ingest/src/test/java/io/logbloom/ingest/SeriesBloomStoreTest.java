package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.FileSystemObjectStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SeriesBloomStoreTest {
    @TempDir
    Path dir;

    private static SeriesBloom sample() {
        ScalableBloomFilter filter = ScalableBloomFilter.create(BloomConfig.defaults());
        for (int i = 0; i < 500; i++) {
            filter.add("token" + i);
        }
        return new SeriesBloom(filter, Set.of("t/00000000000000ff/1-2-00000003", "t/00000000000000ff/4-5-00000006"),
                true, 4, 1, true);
    }

    @Test
    void roundTrip_throughObjectStore() throws Exception {
        SeriesBloomStore store = new SeriesBloomStore(new FileSystemObjectStore(dir));
        assertThat(store.load("t", 255, 20454)).isEmpty();
        store.store("t", 255, 20454, sample());
        SeriesBloom loaded = store.load("t", 255, 20454).orElseThrow();
        assertThat(loaded.coveredChunkKeys()).isEqualTo(sample().coveredChunkKeys());
        assertThat(loaded.ngramEnabled()).isTrue();
        assertThat(loaded.ngramLength()).isEqualTo(4);
        assertThat(loaded.ngramSkip()).isEqualTo(1);
        for (int i = 0; i < 500; i++) {
            assertThat(loaded.filter().mightContain("token" + i)).isTrue();
        }
        assertThat(SeriesBloomStore.key("t", 255, 20454)).isEqualTo("blooms/t/20454/00000000000000ff.bloom");
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
                .hasMessage("series bloom x has unsupported version 9");
    }

    @Test
    void badMagic_rejected() {
        byte[] bytes = SeriesBloomStore.encode(sample());
        bytes[0] = 'X';
        assertThatThrownBy(() -> SeriesBloomStore.decode(bytes, "x")).isInstanceOf(BloomFormatException.class)
                .hasMessage("series bloom x has bad magic");
    }
}
