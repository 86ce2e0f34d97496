package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Label;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class LabelsParserTest {
    @Test
    void parse_simpleSelector_keepsOrderAndDuplicates() {
        assertThat(LabelsParser.parse("{job=\"api\", env=\"prod\", job=\"x\"}")).containsExactly(
                new Label("job", "api"), new Label("env", "prod"), new Label("job", "x"));
    }

    @Test
    void parse_emptySelector_empty() {
        assertThat(LabelsParser.parse(" {} ")).isEmpty();
    }

    @Test
    void parse_goEscapes_decoded() {
        assertThat(LabelsParser.parse("{a=\"q\\\"b\\\\s\\n\\t\\x41\\u00e9\\U0001F600\\101\"}"))
                .containsExactly(new Label("a", "q\"b\\s\n\tAé\uD83D\uDE00A"));
    }

    @Test
    void parse_rawAndSingleQuoted_accepted() {
        assertThat(LabelsParser.parse("{a=`x\\y`,b='it\\'s'}"))
                .containsExactly(new Label("a", "x\\y"), new Label("b", "it's"));
    }

    @Test
    void roundTrip_escapedByDecoderSelector() {
        String value = "line\nwith \"quotes\" and \\ backslash";
        String selector = PushDecoder.selector(new java.util.TreeMap<>(java.util.Map.of("app", value)));
        assertThat(LabelsParser.parse(selector)).containsExactly(new Label("app", value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "job=\"a\"|expected '{' at position 0",
        "{job=\"a\"|expected '}' at position 8",
        "{1job=\"a\"}|expected a label name at position 1",
        "{job!=\"a\"}|only '=' matchers are allowed in stream labels at position 4",
        "{job=~\"a\"}|only '=' matchers are allowed in stream labels at position 4",
        "{job=a}|expected a quoted label value at position 5",
        "{job=\"a}|unterminated string at position 5",
        "{job=\"\\q\"}|invalid escape sequence '\\q' at position 6",
        "{job=\"a\"} x|unexpected trailing characters at position 10",
    })
    void parse_malformed_errorNamesPosition(String input, String message) {
        assertThatThrownBy(() -> LabelsParser.parse(input))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void parse_result_isUsableForLabels() {
        List<Label> pairs = LabelsParser.parse("{b=\"2\", a=\"1\"}");
        assertThat(io.logbloom.chunks.Labels.of(pairs).toString()).isEqualTo("{a=\"1\", b=\"2\"}");
    }
}
