package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link GoStrings#formatFloat} against Go's {@code strconv.FormatFloat(v, 'g', -1, 64)} (fmt's {@code %v}). */
final class GoStringsFormatFloatTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1000000|1e+06", "999999|999999", "1234567|1.234567e+06", "0.0001|0.0001", "0.00001|1e-05",
        "608863452348.1149|6.088634523481149e+11", "2.5|2.5", "100000|100000", "123456.5|123456.5", "-0.25|-0.25",
        "1e21|1e+21", "1e100|1e+100", "4.9e-324|5e-324", "0.30000000000000004|0.30000000000000004", "-0.0|-0",
        "0|0", "1.5e-5|1.5e-05", "20000000|2e+07", "NaN|NaN", "Infinity|+Inf", "-Infinity|-Inf", "120|120"})
    void printsAsGo(double value, String expected) {
        assertThat(GoStrings.formatFloat(value)).isEqualTo(expected);
    }
}
