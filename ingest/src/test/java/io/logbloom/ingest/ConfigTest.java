package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.logbloom.tokens.BloomTokenizerConfig;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ConfigTest {
    @Test
    void defaults_matchLoki() {
        IngestConfig c = IngestConfig.defaults(Path.of("wal"));
        LimitsConfig l = c.limits();
        assertThat(l.ingestionRateBytesPerSecond()).isEqualTo(4L << 20);
        assertThat(l.ingestionBurstBytes()).isEqualTo(6L << 20);
        assertThat(l.maxLineSizeBytes()).isEqualTo(256 * 1024);
        assertThat(l.maxLabelNamesPerSeries()).isEqualTo(15);
        assertThat(l.maxLabelNameLength()).isEqualTo(1024);
        assertThat(l.maxLabelValueLength()).isEqualTo(2048);
        assertThat(l.rejectOldSamplesMaxAge()).isEqualTo(Duration.ofDays(7));
        assertThat(l.creationGracePeriod()).isEqualTo(Duration.ofMinutes(10));
        assertThat(l.maxGlobalStreamsPerUser()).isEqualTo(5000);
        assertThat(l.unorderedWrites()).isTrue();
        assertThat(c.wal().fsync()).isEqualTo(WalConfig.FsyncPolicy.PER_REQUEST);
        assertThat(c.flush().chunkIdlePeriod()).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.flush().maxChunkAge()).isEqualTo(Duration.ofHours(2));
        assertThat(c.tokenizer()).isEqualTo(new BloomTokenizerConfig(true, false, 4, 0, true));
    }

    @Test
    void invalidValues_namedInMessages() {
        LimitsConfig d = LimitsConfig.defaults();
        assertThatThrownBy(() -> new LimitsConfig(0, 6, 1, 1, 1, 1, true, Duration.ofDays(1), Duration.ZERO, 0, 0, 0, true))
                .hasMessage("ingestion_rate_mb must be positive and finite: 0.0");
        assertThatThrownBy(() -> new LimitsConfig(4, 6, -1, 1, 1, 1, true, Duration.ofDays(1), Duration.ZERO, 0, 0, 0, true))
                .hasMessage("max_line_size must not be negative: -1");
        assertThatThrownBy(() -> new LimitsConfig(4, 6, 1, 1, 1, 1, true, Duration.ofDays(1), Duration.ZERO, 0, -2, 0, true))
                .hasMessage("max_new_series_per_hour must not be negative: -2");
        assertThatThrownBy(() -> new BloomTokenizerConfig(true, true, 0, 0, true)).hasMessage("ngram_length must be in [1, 32]: 0");
        assertThatThrownBy(() -> new FlushConfig(Duration.ZERO, Duration.ofHours(1), Duration.ofSeconds(1),
                Duration.ofMillis(1), Duration.ofMillis(2))).hasMessage("chunk_idle_period must be positive: PT0S");
        assertThatThrownBy(() -> new WalConfig(Path.of("w"), WalConfig.FsyncPolicy.INTERVAL, Duration.ofSeconds(1), 10))
                .hasMessage("wal segment size must be at least 65536 bytes: 10");
        assertThat(d).isEqualTo(LimitsConfig.defaults());
    }
}
