package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every query example of Loki's LogQL documentation we collected parses, prints and re-parses equal. */
final class LogQLDocExamplesTest {

    static List<String> examples() throws IOException {
        try (InputStream in = LogQLDocExamplesTest.class.getResourceAsStream("loki-doc-examples.txt")) {
            List<String> out = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (l.equals("---")) {
                    out.add(cur.toString());
                    cur.setLength(0);
                } else if (!l.startsWith("# ") || cur.length() > 0) {
                    cur.append(l).append('\n');
                }
            }
            if (cur.length() > 0) {
                out.add(cur.toString());
            }
            return out;
        }
    }

    static Stream<String> exampleStream() throws IOException {
        return examples().stream();
    }

    @ParameterizedTest
    @MethodSource("exampleStream")
    void docExample_parsesAndRoundTrips(String query) {
        Expr e = LogQL.parse(query);
        assertThat(LogQL.parse(LogQL.format(e))).isEqualTo(e);
    }

    @Test
    void docExamples_count() throws IOException {
        assertThat(examples()).hasSize(82);
    }
}
