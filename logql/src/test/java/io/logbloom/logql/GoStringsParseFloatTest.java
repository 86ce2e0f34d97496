package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link GoStrings#parseFloat} against the cases of Go's {@code strconv.ParseFloat(s, 64)}. */
final class GoStringsParseFloatTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "500|500",
        "+1.5|1.5",
        "-0.25|-0.25",
        "1.|1",
        ".5|0.5",
        "1e3|1000",
        "1E+3|1000",
        "2.5e-3|0.0025",
        "1_000|1000",
        "1_000.5|1000.5",
        "1e1_0|1e10",
        "0x1p4|16",
        "0X1.8P1|3",
        "-0x.8p1|-1",
        "0x_1p0|1",
        "1e-400|0",
        "007|7",
    })
    void parsesWhatGoParses(String in, double expected) {
        assertThat(GoStrings.parseFloat(in)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"inf", "Inf", "+INF", "infinity", "+Infinity"})
    void infinities_anyCase_optionalSign(String in) {
        assertThat(GoStrings.parseFloat(in)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(GoStrings.parseFloat("-" + in.replace("+", ""))).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nan", "NaN", "NAN"})
    void nan_anyCase_noSign(String in) {
        assertThat(GoStrings.parseFloat(in)).isNaN();
        assertThatThrownBy(() -> GoStrings.parseFloat("+" + in)).hasMessageContaining("invalid syntax");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "500d", "1f", "1.5D", " 1", "1 ", "1e", "1e+", "1.2.3", ".", "+", "0x", "0x1",
        "0x1.8", "_1", "1_", "1__0", "1_.5", "infin", "Infinityy", "1,5", "0x1p", "--1", "Infinity5"})
    void refusesWhatGoRefuses_withGosWording(String in) {
        assertThatThrownBy(() -> GoStrings.parseFloat(in)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strconv.ParseFloat: parsing " + GoStrings.quote(in) + ": invalid syntax")
                .satisfies(e -> assertThat(e.getStackTrace()).isEmpty()); // one per line of a filter: kept cheap
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e400", "-1e309", "0x1p1024", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"})
    void overflow_outOfRange(String in) {
        assertThatThrownBy(() -> GoStrings.parseFloat(in)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strconv.ParseFloat: parsing " + GoStrings.quote(in) + ": value out of range");
    }
}
