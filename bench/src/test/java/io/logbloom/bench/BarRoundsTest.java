package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BarRoundsTest {
    @Test
    void order_asGivenInEvenRounds_reversedInOddOnes() {
        List<String> labels = List.of("a", "b", "c");
        assertThat(BarRounds.order(labels, 0)).containsExactly("a", "b", "c");
        assertThat(BarRounds.order(labels, 1)).containsExactly("c", "b", "a");
        assertThat(BarRounds.order(labels, 2)).containsExactly("a", "b", "c");
        assertThat(labels).containsExactly("a", "b", "c");
    }

    @Test
    void order_eachServerFirstAsOftenAsLast_overAnEvenNumberOfRounds() {
        int aFirst = 0;
        for (int round = 0; round < 4; round++) {
            aFirst += BarRounds.order(List.of("a", "b"), round).get(0).equals("a") ? 1 : 0;
        }
        assertThat(aFirst).isEqualTo(2);
    }

    @Test
    void order_negativeRound_refused() {
        assertThatThrownBy(() -> BarRounds.order(List.of("a"), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void medians_perMetric_inFirstSeenOrder_missingAndNaNValuesLeftOut() {
        Map<String, Double> r1 = new LinkedHashMap<>();
        r1.put("push_MB_per_s", 60.0);
        r1.put("needle_p50_ms", 9.0);
        Map<String, Double> r2 = new LinkedHashMap<>();
        r2.put("push_MB_per_s", 50.0);
        r2.put("needle_p50_ms", Double.NaN);
        r2.put("count_all_ms", 4.0);
        Map<String, Double> r3 = new LinkedHashMap<>();
        r3.put("push_MB_per_s", 70.0);
        r3.put("needle_p50_ms", 3.0);

        Map<String, Double> medians = BarRounds.medians(List.of(r1, r2, r3));

        assertThat(medians.keySet()).containsExactly("push_MB_per_s", "needle_p50_ms", "count_all_ms");
        assertThat(medians.get("push_MB_per_s")).isEqualTo(60.0);
        assertThat(medians.get("needle_p50_ms")).isEqualTo(6.0);
        assertThat(medians.get("count_all_ms")).isEqualTo(4.0);
    }

    @Test
    void medians_ofOneRound_areItsValues() {
        assertThat(BarRounds.medians(List.of(Map.of("stored_MB", 94.6)))).containsEntry("stored_MB", 94.6);
    }

    @Test
    void disagreements_nameEachAnswerThatDiffers_withEveryServerAndRound() {
        Map<String, List<Map<String, Double>>> byServer = new LinkedHashMap<>();
        byServer.put("a", List.of(Map.of("count_value", 26738.0, "push_MB_per_s", 60.0),
                Map.of("count_value", 26738.0, "push_MB_per_s", 70.0)));
        byServer.put("b", List.of(Map.of("count_value", 26676.0, "push_MB_per_s", 65.0),
                Map.of("count_value", 26738.0, "push_MB_per_s", 66.0)));
        byServer.put("sink", List.of(Map.of("push_MB_per_s", 90.0)));

        assertThat(BarRounds.disagreements(byServer, List.of("count_value")))
                .containsExactly("count_value: a#1=26738, a#2=26738, b#1=26676, b#2=26738");
    }

    @Test
    void disagreements_noneWhenEveryMeasurementAgrees_orLacksTheMetric() {
        Map<String, List<Map<String, Double>>> byServer = new LinkedHashMap<>();
        byServer.put("a", List.of(Map.of("count_value", 5.0), Map.of("count_value", 5.0)));
        byServer.put("b", List.of(Map.of("count_value", 5.0), Map.of()));

        assertThat(BarRounds.disagreements(byServer, List.of("count_value", "absent_value"))).isEmpty();
    }
}
