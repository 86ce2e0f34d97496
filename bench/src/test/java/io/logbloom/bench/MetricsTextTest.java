package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class MetricsTextTest {
    private static final String TEXT = """
            # HELP logbloom_ingest_chunks_flushed_total Series written.
            # TYPE logbloom_ingest_chunks_flushed_total counter
            logbloom_ingest_chunks_flushed_total{reason="full"} 100.0
            logbloom_ingest_chunks_flushed_total{reason="flush",tenant="a b"} 7.0 1700000000000
            logbloom_ingest_chunks_flushed_total_created{reason="full"} 1.7E9
            logbloom_ingest_lines_total 3000000.0
            """;

    @Test
    void sum_addsEveryLabelSetOfTheFamily_only() {
        assertThat(MetricsText.sum(TEXT, "logbloom_ingest_chunks_flushed_total")).isEqualTo(107.0);
        assertThat(MetricsText.sum(TEXT, "logbloom_ingest_lines_total")).isEqualTo(3_000_000.0);
        assertThat(MetricsText.sum(TEXT, "logbloom_ingest_lines")).isZero();
        assertThat(MetricsText.sum(TEXT, "absent_total")).isZero();
    }
}
