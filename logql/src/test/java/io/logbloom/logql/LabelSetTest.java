package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.logql.SampleExpr.Grouping;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** LabelSet behaves as a sorted immutable Map; LabelGrouping equals applying its groupings one by one. */
final class LabelSetTest {

    @Test
    void of_equalsAndHashesLikeOtherMaps() {
        Map<String, String> plain = new HashMap<>(Map.of("b", "2", "a", "1", "c", ""));
        LabelSet s = LabelSet.of(plain);
        assertThat(s).isEqualTo(plain).isEqualTo(new TreeMap<>(plain));
        assertThat(new TreeMap<>(plain)).isEqualTo(s);
        assertThat(s.hashCode()).isEqualTo(plain.hashCode());
        assertThat(s.keySet()).containsExactly("a", "b", "c");
        assertThat(s.get("b")).isEqualTo("2");
        assertThat(s.get("z")).isNull();
        assertThat(s.containsKey("c")).isTrue();
        assertThat(LabelSet.of(s)).isSameAs(s);
        assertThat(LabelSet.of(Map.of())).isEqualTo(Map.of()).hasSize(0);
        assertThat(s).isNotEqualTo(LabelSet.of(Map.of("a", "1", "b", "2")));
    }

    @Test
    void of_isImmutable() {
        LabelSet s = LabelSet.of(Map.of("a", "1"));
        assertThatThrownBy(() -> s.put("b", "2")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    /** The textbook definition, grouping by grouping. */
    private static Map<String, String> reference(Map<String, String> labels, List<Grouping> chain) {
        TreeMap<String, String> cur = new TreeMap<>(labels);
        for (Grouping g : chain) {
            TreeMap<String, String> next = new TreeMap<>();
            if (g == null) {
                cur = next;
                continue;
            }
            if (g.without()) {
                next.putAll(cur);
                g.labels().forEach(next::remove);
            } else {
                for (String l : g.labels()) {
                    String v = cur.get(l);
                    if (v != null) { // an empty value the series has is kept, as Loki
                        next.put(l, v);
                    }
                }
            }
            cur = next;
        }
        return cur;
    }

    @Test
    void grouping_chainsMatchStepByStepDefinition() {
        Map<String, String> labels = Map.of("app", "x", "level", "info", "pod", "p1", "empty", "", "trace_id", "t9");
        List<Grouping> singles = List.of(new Grouping(false, List.of("level", "empty", "nope")),
                new Grouping(true, List.of("trace_id", "pod")), new Grouping(false, List.of()),
                new Grouping(true, List.of()), new Grouping(false, List.of("pod", "app", "pod")));
        for (Grouping a : singles) {
            assertThat(LabelGrouping.of(List.of(a)).key(labels)).isEqualTo(reference(labels, List.of(a)));
            for (Grouping b : singles) {
                List<Grouping> chain = List.of(a, b);
                assertThat(LabelGrouping.of(chain).key(labels)).as(chain.toString()).isEqualTo(reference(labels, chain));
            }
        }
        assertThat(LabelGrouping.of(Arrays.asList(new Grouping(true, List.of("pod")), null)).key(labels)).isEmpty();
    }
}
