package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class JsonObjectScanTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"a\":1}|",
        "{\"a\":{\"b\":[1,2]},\"c\":\"x\"} trailing text|",
        "  {}|",
        "worker heartbeat ok|Value looks like object, but can't find closing '}' symbol",
        "{\"level\":\"warn\",\"msg\":\"truncated|Value is string, but can't find closing '\"' symbol",
        "{\"a\":1|Value is array, but can't find closing ']' symbol",
        "{\"a\":[1,2|Value is array, but can't find closing ']' symbol",
        "{\"a\":{\"b\":1|Value looks like object, but can't find closing '}' symbol",
        "{\"a\":{\"b\" 1}}|Malformed JSON error",
        "{\"a\":nope}|Unknown value type",
        "{a:1}|Value looks like object, but can't find closing '}' symbol",
        "{\"a\" 1}|Malformed JSON error",
    })
    void error_wordsLikeLokisScanner(String line, String expected) {
        assertThat(JsonObjectScan.error(line)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"a\":1}|true",
        "' \t{'|true",
        "'{'|true",
        "level=info msg=x|false",
        "[1,2]|false",
        "'  '|false",
        "''|false",
        "'\"{\"'|false",
    })
    void opensObject_onlyWhenTheFirstCharacterAfterWhitespaceIsABrace(String line, boolean expected) {
        assertThat(JsonObjectScan.opensObject(line)).isEqualTo(expected);
        // Jackson skips only these four whitespace characters too: a byte-order mark or a no-break space first fails
        assertThat(JsonObjectScan.opensObject("\uFEFF{}")).isFalse();
        assertThat(JsonObjectScan.opensObject("\u00A0{}")).isFalse();
        if (!expected) {
            // the shortcut past the parser must word what the parser's failure did
            assertThat(JsonObjectScan.error(line)).isEqualTo(JsonObjectScan.MALFORMED_OBJECT);
        }
    }
}
