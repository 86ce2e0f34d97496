package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Structured metadata conversion: immutable maps, the first value of a repeated name wins. */
final class QuerierEntrySourceTest {

    @Test
    void metadata_firstValueWins_forEverySize() {
        assertThat(QuerierEntrySource.metadata(List.of())).isEmpty();
        assertThat(QuerierEntrySource.metadata(List.of(new Label("trace_id", "t1")))).isEqualTo(Map.of("trace_id", "t1"));
        assertThat(QuerierEntrySource.metadata(List.of(new Label("a", "1"), new Label("a", "2")))).isEqualTo(Map.of("a", "1"));
        assertThat(QuerierEntrySource.metadata(List.of(new Label("a", "1"), new Label("b", "2"))))
                .isEqualTo(Map.of("a", "1", "b", "2"));
        assertThat(QuerierEntrySource.metadata(List.of(new Label("a", "1"), new Label("b", "2"), new Label("a", "3"))))
                .isEqualTo(Map.of("a", "1", "b", "2"));
    }
}
