package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's time layouts: what Go's Format and ParseInLocation give for the same layouts and values. */
final class GoTimeTest {
    /** Tuesday 14 November 2023, 22:13:20.123 UTC: day 318 of the year. */
    private static final Instant T = Instant.parse("2023-11-14T22:13:20.123Z");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "UTC|Jan _2 15:04:05|Nov 14 22:13:20",
        "UTC|3:04PM|10:13PM",
        "UTC|Mon Jan 2 15:04:05 MST 2006|Tue Nov 14 22:13:20 UTC 2023",
        "UTC|Monday, 02-Jan-06 15:04:05 MST|Tuesday, 14-Nov-23 22:13:20 UTC",
        "UTC|2006-01-02T15:04:05Z07:00|2023-11-14T22:13:20Z",
        "UTC|2006-01-02T15:04:05.999999999Z07:00|2023-11-14T22:13:20.123Z",
        "UTC|002 __2 1/2/06 3:4:5 pm|318 318 11/14/23 10:13:20 pm",
        "UTC|.000 ,999999 .9 .99|.123 ,123 .1 .12",
        "UTC|_2006 January|_2023 November",
        "UTC|Janet Monet Jan.Mon|Janet Monet Nov.Tue",
        "UTC|2006-01-02 15:04:05.999999999 -0700 MST|2023-11-14 22:13:20.123 +0000 UTC",
        "Europe/Paris|2006-01-02 15:04:05 -0700 -07:00 -07 MST Z07:00 -07:00:00|2023-11-14 23:13:20 +0100 +01:00 +01 CET +01:00 +01:00:00",
        "America/St_Johns|-0700 Z0700 -070000|-0330 -0330 -033000"})
    void formatsAsGo(String zone, String layout, String expected) {
        assertThat(GoTime.layout(layout, T.atZone(ZoneId.of(zone)))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2006-01-02 15:04:05|Europe/Paris|2024-07-01 12:00:00|2024-07-01 12:00:00 +0200 CEST",
        "2006-01-02T15:04:05Z07:00|Europe/Paris|2024-07-01T12:00:00Z|2024-07-01 12:00:00 +0000 UTC",
        "2006-01-02T15:04:05Z07:00|Europe/Paris|2024-07-01T12:00:00+02:00|2024-07-01 12:00:00 +0200 CEST",
        "2006-01-02T15:04:05Z07:00|Europe/Paris|2024-07-01T12:00:00+05:00|2024-07-01 12:00:00 +0500 +0500",
        "02 Jan 06 15:04 -0700|UTC|14 Nov 23 22:13 +0000|2023-11-14 22:13:00 +0000 UTC",
        "2006-01-02 MST|Europe/Paris|2024-01-15 CET|2024-01-15 00:00:00 +0100 CET",
        "3:04PM|UTC|12:30AM|0000-01-01 00:30:00 +0000 UTC",
        "15:04:05|UTC|10:11:12.345|0000-01-01 10:11:12.345 +0000 UTC",
        "15:04:05.000000|UTC|10:11:12.000345|0000-01-01 10:11:12.000345 +0000 UTC",
        "2006 002|UTC|2024 060|2024-02-29 00:00:00 +0000 UTC",
        "Jan 2006|UTC|NOV 2023|2023-11-01 00:00:00 +0000 UTC",
        "Jan _2|UTC|Nov  5|0000-11-05 00:00:00 +0000 UTC",
        "Jan 06|UTC|Nov 68|2068-11-01 00:00:00 +0000 UTC",
        "Jan 06|UTC|Nov 69|1969-11-01 00:00:00 +0000 UTC"})
    void parsesAsGo(String layout, String zone, String value, String printed) {
        Optional<ZonedDateTime> t = GoTimeParser.parse(layout, value, ZoneId.of(zone));
        assertThat(t).isPresent();
        assertThat(GoTime.format(t.get())).isEqualTo(printed);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Jan _2 2006|Feb 30 2024", "2006|2024x", "3:04PM|13:00PM", "01|13", "01|00", "04|60", "2006-01-02|2024-1-02", "15:04|24:00", "3:04PM|1:00XM",
        "2006-01-02T15:04:05Z07:00|2024-07-01T12:00:00+0200", "2006 002|2023 366", "Jan 02 2006|Jan 2 2006",
        ".000|.12"})
    void refusesWhatGoRefuses(String layout, String value) {
        assertThat(GoTimeParser.parse(layout, value, ZoneOffset.UTC)).isEmpty();
    }
}
