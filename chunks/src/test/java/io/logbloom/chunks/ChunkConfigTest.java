package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class ChunkConfigTest {
    @Test
    void defaults_matchLoki() {
        ChunkConfig config = ChunkConfig.defaults();
        assertThat(config.blockSizeBytes()).isEqualTo(262_144);
        assertThat(config.targetSizeBytes()).isEqualTo(1_572_864);
        assertThat(config.encoding()).as("zstd: smaller than Loki's snappy default").isEqualTo(ChunkEncoding.ZSTD);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 64 * 1024 * 1024 + 1})
    void badBlockSize_rejectedWithValue(int size) {
        assertThatThrownBy(() -> new ChunkConfig(size, 1000, ChunkEncoding.GZIP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk block size " + size);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -5, 1024 * 1024 * 1024 + 1})
    void badTargetSize_rejectedWithValue(int size) {
        assertThatThrownBy(() -> new ChunkConfig(1000, size, ChunkEncoding.GZIP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk target size " + size);
    }

    @Test
    void encoding_parse_andIds() {
        assertThat(ChunkEncoding.parse("Snappy")).isEqualTo(ChunkEncoding.SNAPPY);
        assertThat(ChunkEncoding.parse("zstd")).isEqualTo(ChunkEncoding.ZSTD);
        assertThatThrownBy(() -> ChunkEncoding.parse("lz4")).hasMessageContaining("'lz4'");
        for (ChunkEncoding encoding : ChunkEncoding.values()) {
            assertThat(ChunkEncoding.fromId(encoding.id())).isEqualTo(encoding);
        }
        assertThatThrownBy(() -> ChunkEncoding.fromId(9)).hasMessageContaining("9");
        assertThatThrownBy(() -> new ChunkConfig(10, 10, null)).isInstanceOf(NullPointerException.class);
    }
}
