package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LineFieldsTest {
    @Test
    void json_flattenedWithPaths_arraysSkipped_namesSanitized() {
        Map<String, LineFields.Field> f = LineFields.json(
                "{\"level\":\"info\",\"user\":{\"id\":\"u1\",\"geo\":{\"cc\":\"DE\"}},\"tags\":[1,2],\"http.status\":200,\"n\":null}");
        assertThat(f.keySet()).containsExactly("level", "user_id", "user_geo_cc", "http_status", "n");
        assertThat(f.get("user_geo_cc").jsonPath()).containsExactly("user", "geo", "cc");
        assertThat(f.get("http_status").value()).isEqualTo("200");
        assertThat(f.get("n").value()).isEmpty();
        assertThat(LineFields.json("{\"broken\":")).isEmpty();
    }

    @Test
    void logfmt_quotedEscapedBareAndFirstWins() {
        Map<String, LineFields.Field> f = LineFields.logfmt("a=1 msg=\"x \\\"y\\\" z\" flag a=2 k.v=3");
        assertThat(f.keySet()).containsExactly("a", "msg", "flag", "k_v");
        assertThat(f.get("a").value()).isEqualTo("1");
        assertThat(f.get("msg").value()).isEqualTo("x \"y\" z");
        assertThat(f.get("flag").value()).isEmpty();
        assertThat(f.get("k_v").jsonPath()).isEqualTo(List.of());
    }

    @Test
    void isJson_lokiBraceTest() {
        assertThat(LineFields.isJson("  {\"a\":1}  ")).isTrue();
        assertThat(LineFields.isJson("{")).isFalse();
        assertThat(LineFields.isJson("a={}")).isFalse();
    }
}
