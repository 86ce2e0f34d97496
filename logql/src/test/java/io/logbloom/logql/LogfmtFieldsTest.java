package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fields offered for a logfmt line are the labels {@code | logfmt} sets on it. */
final class LogfmtFieldsTest {
    @Test
    void plainText_hasNoFields_andPairsAreNamedAsTheStageNamesThem() {
        assertThat(LogfmtFields.of("INFO [worker-8] upstream health check passed in 56ms, 1028 bytes")).isEmpty();
        assertThat(LogfmtFields.of("a= 1x=5 k.v=3 flag a=2 msg=\"q \\\"x\\\"\" b=\"\""))
                .containsExactly(Map.entry("_1x", "5"), Map.entry("k_v", "3"), Map.entry("a", "2"),
                        Map.entry("msg", "q \"x\""));
    }

    @Test
    void randomLines_sameLabelsAsTheLogfmtStage() {
        String[] pieces = {"a", "b", "=", "\"", "\\", " ", "\t", "é", "1", "_", "-", ".", "level", "=x", "=5", "\"\""};
        Pipeline stage = Pipeline.compile(List.of(new Stage.Logfmt(false, false, List.of())));
        Random r = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder line = new StringBuilder();
            for (int p = r.nextInt(14); p > 0; p--) {
                line.append(pieces[r.nextInt(pieces.length)]);
            }
            String text = line.toString();
            assertThat(stage.process(0, text, Map.of(), Map.of())).isEqualTo(text);
            assertThat(LogfmtFields.of(text)).as("line [%s]", text)
                    .isEqualTo(stage.labels().of(LineLabels.Origin.PARSED));
        }
    }
}
