package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class LogSelectionTest {
    @Test
    void matchesStream_appliesEveryMatcher_missingLabelReadsEmpty() {
        LogSelection s = LogSelection.parse("{app=\"api\", env!=\"prod\"}");
        assertThat(s.matchesStream(Map.of("app", "api"))).isTrue();
        assertThat(s.matchesStream(Map.of("app", "api", "env", "prod"))).isFalse();
        assertThat(s.matchesStream(Map.of("app", "web"))).isFalse();
        assertThat(s.hasPipeline()).isFalse();
    }

    @Test
    void passesPipeline_lineFilterAndLabelFilter() {
        LogSelection s = LogSelection.parse("{app=\"api\"} |= \"secret\" | logfmt | user=\"bob\"");
        Map<String, String> labels = Map.of("app", "api");
        assertThat(s.hasPipeline()).isTrue();
        assertThat(s.passesPipeline(1, "user=bob msg=secret", labels, Map.of())).isTrue();
        assertThat(s.passesPipeline(1, "user=alice msg=secret", labels, Map.of())).isFalse();
        assertThat(s.passesPipeline(1, "user=bob msg=public", labels, Map.of())).isFalse();
    }

    @Test
    void parse_metricQuery_rejected() {
        assertThatThrownBy(() -> LogSelection.parse("count_over_time({app=\"api\"}[1m])"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metric query");
    }

    @Test
    void parse_syntaxError_rejectedWithParserMessage() {
        assertThatThrownBy(() -> LogSelection.parse("{app=")).isInstanceOf(IllegalArgumentException.class);
    }
}
