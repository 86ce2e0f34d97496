package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** LineLabels answers lookups before materializing exactly as after. */
final class LineLabelsTest {

    @Test
    void get_beforeAndAfterMaterializing_agree() {
        Map<String, String> stream = Map.of("app", "a", "level", "info", "empty", "");
        Map<String, String> metadata = Map.of("level", "debug", "trace_id", "t1", "app_extracted", "x");
        List<String> names = List.of("app", "level", "empty", "trace_id", "level_extracted", "app_extracted",
                "missing", "missing_extracted", LineLabels.ERROR);
        for (String name : names) {
            LineLabels lazy = new LineLabels();
            lazy.reset(stream, metadata);
            String lazyValue = lazy.get(name);
            boolean lazyHas = lazy.has(name);
            LineLabels eager = new LineLabels();
            eager.reset(stream, metadata);
            eager.view();
            assertThat(lazyValue).as(name).isEqualTo(eager.get(name));
            assertThat(lazyHas).as(name).isEqualTo(eager.has(name));
        }
        LineLabels l = new LineLabels();
        l.reset(stream, metadata);
        assertThat(l.get("level")).isEqualTo("info");
        assertThat(l.get("level_extracted")).isEqualTo("debug");
        assertThat(l.hasError()).isFalse();
        l.setError("E", null);
        assertThat(l.hasError()).isTrue();
        l.reset(stream, Map.of());
        assertThat(l.hasError()).isFalse();
        assertThat(l.all()).isEqualTo(stream);
    }
}
