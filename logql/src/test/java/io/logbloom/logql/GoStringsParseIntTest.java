package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link GoStrings#parseInt} against the cases of Go's {@code strconv.ParseInt(s, 10, 64)}. */
final class GoStringsParseIntTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0|0", "42|42", "+42|42", "-42|-42", "007|7",
        "9223372036854775807|9223372036854775807", "-9223372036854775808|-9223372036854775808"})
    void parsesWhatGoParses(String in, long expected) {
        assertThat(GoStrings.parseInt(in)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0|0", "42|42", "0x1F|31", "0X1f|31", "0o17|15", "017|15", "0b101|5",
        "1_000|1000", "-0x10|-16", "+0b1|1", "0x_1|1", "0x7fffffffffffffff|9223372036854775807"})
    void baseZero_readsPrefixesAndUnderscoresAsGo(String in, long expected) {
        assertThat(GoStrings.parseInt(in, 0)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0x|strconv.ParseInt: parsing \"0x\": invalid syntax",
        "08|strconv.ParseInt: parsing \"08\": invalid syntax",
        "1__0|strconv.ParseInt: parsing \"1__0\": invalid syntax",
        "_1|strconv.ParseInt: parsing \"_1\": invalid syntax",
        "1_|strconv.ParseInt: parsing \"1_\": invalid syntax",
        "1.5|strconv.ParseInt: parsing \"1.5\": invalid syntax",
        "0x8000000000000000|strconv.ParseInt: parsing \"0x8000000000000000\": value out of range"})
    void baseZero_errorsAsGo(String in, String message) {
        assertThatThrownBy(() -> GoStrings.parseInt(in, 0)).isInstanceOf(GoStrings.ConversionException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|strconv.ParseInt: parsing \"\": invalid syntax",
        "-|strconv.ParseInt: parsing \"-\": invalid syntax",
        "1_000|strconv.ParseInt: parsing \"1_000\": invalid syntax",
        "' 1'|strconv.ParseInt: parsing \" 1\": invalid syntax",
        "0x10|strconv.ParseInt: parsing \"0x10\": invalid syntax",
        "1.0|strconv.ParseInt: parsing \"1.0\": invalid syntax",
        "\u0661\u0662|strconv.ParseInt: parsing \"\u0661\u0662\": invalid syntax",
        "9223372036854775808|strconv.ParseInt: parsing \"9223372036854775808\": value out of range",
        "-9223372036854775809|strconv.ParseInt: parsing \"-9223372036854775809\": value out of range",
        "18446744073709551615|strconv.ParseInt: parsing \"18446744073709551615\": value out of range",
        "18446744073709551616|strconv.ParseInt: parsing \"18446744073709551616\": value out of range",
        "99999999999999999999x|strconv.ParseInt: parsing \"99999999999999999999x\": value out of range"})
    void errorsAsGo(String in, String message) {
        assertThatThrownBy(() -> GoStrings.parseInt(in)).isInstanceOf(GoStrings.ConversionException.class)
                .hasMessage(message);
    }
}
