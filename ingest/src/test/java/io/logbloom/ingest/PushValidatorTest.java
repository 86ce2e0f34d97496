package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PushValidatorTest {
    private static final long NOW = 1_767_261_600_000_000_000L; // 2026-01-01T10:00:00Z

    private final PushValidator validator = new PushValidator(new LimitsConfig(4, 6, 5, 2, 3, 3, true,
            Duration.ofHours(1), Duration.ofMinutes(10), 0, 0, 0, true));

    @Test
    void entry_timestampCheckedBeforeLineSize_asLoki() {
        Rejection r = validator.validateEntry("{a=\"b\"}", LogEntry.of(NOW - Duration.ofHours(2).toNanos(), "too long line"), NOW);
        assertThat(r.reason()).isEqualTo(RejectReason.GREATER_THAN_MAX_SAMPLE_AGE);
    }

    @Test
    void entry_lineSizeCountsUtf8Bytes() {
        assertThat(validator.validateEntry("{a=\"b\"}", LogEntry.of(NOW, "✓✓"), NOW).message())
                .isEqualTo("Max entry size '5' bytes exceeded for stream '{a=\"b\"}' while adding an entry with length '6' bytes");
        assertThat(validator.validateEntry("{a=\"b\"}", LogEntry.of(NOW, "✓ab"), NOW)).isNull();
    }

    @Test
    void labels_countCheckedFirst_thenSortedPerLabel() {
        assertThat(validator.validateLabels("s", List.of(new Label("a", "1"), new Label("b", "2"), new Label("c", "3")))
                .reason()).isEqualTo(RejectReason.MAX_LABEL_NAMES_PER_SERIES);
        assertThat(validator.validateLabels("s", List.of(new Label("zzzz", "1"), new Label("a", "long"))).message())
                .isEqualTo("stream 's' has label value too long: 'long'");
        assertThat(validator.validateLabels("s", List.of(new Label("a", "1"), new Label("b", "2")))).isNull();
    }

    @Test
    void labels_serviceNameNotCounted_asLoki() {
        PushValidator twoNames = new PushValidator(new LimitsConfig(4, 6, 5, 2, 20, 20, true, Duration.ofHours(1),
                Duration.ofMinutes(10), 0, 0, 0, true));
        assertThat(twoNames.validateLabels("s", List.of(new Label("a", "1"), new Label("b", "2"),
                new Label("service_name", "x")))).isNull();
        assertThat(twoNames.validateLabels("s", List.of(new Label("a", "1"), new Label("b", "2"), new Label("c", "3"),
                new Label("service_name", "x"))).message()).isEqualTo("entry for stream 's' has 3 label names; limit 2");
    }

    @Test
    void repeatedMetadataName_foundAtAnyDistance_pairwiseAndThroughASet() {
        for (int n : new int[] {2, 3, 16, 17, 40}) {
            for (int at = 1; at < n; at++) {
                List<Label> metadata = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++) {
                    metadata.add(new Label(i == at ? "k0" : "k" + i, "v"));
                }
                assertThat(PushValidator.repeatedMetadataName(metadata)).as("n=%d at=%d", n, at).isEqualTo("k0");
                metadata.set(at, new Label("other", "v"));
                assertThat(PushValidator.repeatedMetadataName(metadata)).as("n=%d", n).isNull();
            }
        }
        assertThat(PushValidator.repeatedMetadataName(List.of())).isNull();
        assertThat(validator.validateEntry("{a=\"b\"}", new LogEntry(NOW, "x", List.of(new Label("k", "1"),
                new Label("k", "1"))), NOW).reason()).isEqualTo(RejectReason.INVALID_LABELS);
    }
}
