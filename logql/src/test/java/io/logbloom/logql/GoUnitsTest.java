package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's time.ParseDuration and go-humanize's ParseBytes: what they accept, what they give, their error texts. */
final class GoUnitsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1s|1000000000", "1h30m|5400000000000", "1.5h|5400000000000", "-1.5h|-5400000000000", "+5s|5000000000",
        "0|0", "-0|0", "+0|0", "0s|0", ".5s|500000000", "5.s|5000000000", "250ms|250000000", "100us|100000",
        "7\u00b5s|7000", "7\u03bcs|7000", "10ns|10", "1h1m1.000000001s|3661000000001", "2m3h|10920000000000",
        "1.00000000000000000000000001s|1000000000", "9223372036854775807ns|9223372036854775807",
        "-9223372036854775808ns|-9223372036854775808", "2562047h|9223369200000000000"})
    void durations(String text, long nanos) {
        assertThat(GoUnits.parseDuration(text)).isEqualTo(nanos);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|time: invalid duration \"\"",
        "-|time: invalid duration \"-\"",
        "1d|time: unknown unit \"d\" in duration \"1d\"",
        "1w|time: unknown unit \"w\" in duration \"1w\"",
        "10|time: missing unit in duration \"10\"",
        "1h5|time: missing unit in duration \"1h5\"",
        "' 5s'|time: invalid duration \" 5s\"",
        "'5s '|time: unknown unit \"s \" in duration \"5s \"",
        "abc|time: invalid duration \"abc\"",
        ".s|time: invalid duration \".s\"",
        "5\u00b5x|time: unknown unit \"\\xc2\\xb5x\" in duration \"5\\xc2\\xb5x\"",
        "9223372036854775808ns|time: invalid duration \"9223372036854775808ns\"",
        "2562048h|time: invalid duration \"2562048h\"",
        "99999999999999999999s|time: invalid duration \"99999999999999999999s\"",
        "'5\"s'|time: unknown unit \"\\\"s\" in duration \"5\\\"s\""})
    void durationErrorsAsGo(String text, String message) {
        assertThatThrownBy(() -> GoUnits.parseDuration(text)).isInstanceOf(GoStrings.ConversionException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"1s|1.0", "1.5m|90.0", "-250ms|-0.25", "1h0.5ns|3600.0", "1ns|1.0E-9"})
    void durationSecondsAsGoSeconds(String text, double seconds) {
        assertThat(GoUnits.durationSeconds(text)).isEqualTo(seconds);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "42|42", "42B|42", "42 b|42", "1KB|1000", "1kb|1000", "1k|1000", "1KiB|1024", "1ki|1024", "20MB|20000000",
        "5MiB|5242880", "1.5GB|1500000000", "1.5 KiB|1536", "2TiB|2199023255552", "1,024 kB|1024000",
        "0.5b|0", ".5k|500", "5.|5", "1PB|1.0E15", "1EiB|1.152921504606846976E18", "'42 MB '|42000000"})
    void bytes(String text, double bytes) {
        assertThat(GoUnits.parseBytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "5QB|unhandled size name: qb",
        "' 5MB'|strconv.ParseFloat: parsing \"\": invalid syntax",
        "-5|strconv.ParseFloat: parsing \"\": invalid syntax",
        "MB|strconv.ParseFloat: parsing \"\": invalid syntax",
        "1.2.3MB|strconv.ParseFloat: parsing \"1.2.3\": invalid syntax",
        ".|strconv.ParseFloat: parsing \".\": invalid syntax",
        "1e3|unhandled size name: e3",
        "20EB|too large: 20EB"})
    void bytesErrorsAsGo(String text, String message) {
        assertThatThrownBy(() -> GoUnits.parseBytes(text)).isInstanceOf(GoStrings.ConversionException.class)
                .hasMessage(message);
    }
}
