package io.logbloom.logql;

import io.logbloom.logql.GoLayout.Chunk;
import io.logbloom.logql.GoLayout.Std;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;

/**
 * Go's {@code time.ParseInLocation} for templates ({@code toDate}, {@code toDateInZone}): a value read with a layout
 * ({@link GoLayout}) as Go reads it, fields checked against Go's ranges, the day against its month. Stateless.
 *
 * <p>Not carried over: Go's parsing of a zone abbreviation other than the location's own or {@code UTC} keeps the
 * name with a zero offset; here such a time is in UTC (the same instant, another printed name).
 */
final class GoTimeParser {
    /** The numeric fields a value sets, with the range Go accepts while parsing (a 12-hour clock shares HOUR). */
    private enum Field {
        MONTH(1, 12), DAY(0, 99), HOUR(0, 23), MINUTE(0, 59), SECOND(0, 59);

        final int min;
        final int max;

        Field(int min, int max) {
            this.min = min;
            this.max = max;
        }

        static Field of(Std std) {
            return switch (std) {
                case NUM_MONTH, ZERO_MONTH -> MONTH;
                case DAY, UNDER_DAY, ZERO_DAY -> DAY;
                case HOUR, HOUR12, ZERO_HOUR12 -> HOUR;
                case MINUTE, ZERO_MINUTE -> MINUTE;
                default -> SECOND;
            };
        }
    }

    private GoTimeParser() {}

    /**
     * Parses {@code value} with a Go layout as {@code time.ParseInLocation} does, in {@code zone} unless the value
     * names an offset or UTC; empty when it does not parse (wrong text, a field out of range, a day the month
     * does not have, text left over).
     */
    static Optional<ZonedDateTime> parse(String layout, String value, ZoneId zone) {
        int year = 0;
        int[] fields = {-1, -1, 0, 0, 0}; // month and day unset, then hour, minute and second (see Field)
        int yearDay = -1;
        int nanos = 0;
        boolean pm = false;
        boolean am = false;
        boolean utc = false; // "Z" or "UTC": the time is in UTC whatever the location
        Integer zoneOffset = null;
        String zoneName = null;
        String v = value;
        List<Chunk> chunks = GoLayout.chunks(layout);
        for (int ci = 0; ci < chunks.size(); ci++) {
            Chunk c = chunks.get(ci);
            v = skip(v, c.literal());
            if (v == null) {
                return Optional.empty();
            }
            if (c.std() == null) {
                break;
            }
            switch (c.std()) {
                case LONG_YEAR -> {
                    if (v.length() < 4 || !GoLayout.digit(v, 0)) {
                        return Optional.empty();
                    }
                    Integer y = atoi(v.substring(0, 4));
                    if (y == null) {
                        return Optional.empty();
                    }
                    year = y;
                    v = v.substring(4);
                }
                case YEAR -> {
                    if (v.length() < 2 || !GoLayout.digit(v, 0) || !GoLayout.digit(v, 1)) {
                        return Optional.empty();
                    }
                    int y = (v.charAt(0) - '0') * 10 + v.charAt(1) - '0';
                    year = y >= 69 ? 1900 + y : 2000 + y;
                    v = v.substring(2);
                }
                case LONG_MONTH, MONTH -> {
                    int m = lookup(v, GoLayout.MONTHS, c.std() == Std.MONTH);
                    if (m < 0) {
                        return Optional.empty();
                    }
                    fields[Field.MONTH.ordinal()] = m + 1;
                    v = v.substring(c.std() == Std.MONTH ? 3 : GoLayout.MONTHS[m].length());
                }
                case LONG_WEEKDAY, WEEKDAY -> {
                    int d = lookup(v, GoLayout.DAYS, c.std() == Std.WEEKDAY);
                    if (d < 0) {
                        return Optional.empty();
                    }
                    v = v.substring(c.std() == Std.WEEKDAY ? 3 : GoLayout.DAYS[d].length());
                }
                case UNDER_YEAR_DAY, ZERO_YEAR_DAY -> {
                    int i = 0;
                    while (c.std() == Std.UNDER_YEAR_DAY && i < 2 && i < v.length() && v.charAt(i) == ' ') {
                        i++;
                    }
                    int[] n = getnum3(v.substring(i), c.std() == Std.ZERO_YEAR_DAY);
                    if (n == null || n[0] < 1 || n[0] > 366) {
                        return Optional.empty();
                    }
                    yearDay = n[0];
                    v = v.substring(i + n[1]);
                }
                case NUM_MONTH, ZERO_MONTH, DAY, UNDER_DAY, ZERO_DAY, HOUR, HOUR12, ZERO_HOUR12, MINUTE, ZERO_MINUTE,
                        SECOND, ZERO_SECOND -> {
                    if (c.std() == Std.UNDER_DAY && v.startsWith(" ")) {
                        v = v.substring(1);
                    }
                    Field field = Field.of(c.std());
                    int[] n = getnum(v, c.std().name().startsWith("ZERO_"));
                    int max = c.std() == Std.HOUR12 || c.std() == Std.ZERO_HOUR12 ? 12 : field.max;
                    if (n == null || n[0] < field.min || n[0] > max) {
                        return Optional.empty();
                    }
                    fields[field.ordinal()] = n[0]; // a day is checked against its month at the end, as Go does
                    v = v.substring(n[1]);
                    if (field != Field.SECOND) {
                        break;
                    }
                    // a fraction the layout does not spell is read too, unless a fraction element follows
                    boolean fractionNext = ci + 1 < chunks.size()
                            && (chunks.get(ci + 1).std() == Std.FRAC0 || chunks.get(ci + 1).std() == Std.FRAC9);
                    if (!fractionNext && v.length() >= 2 && commaOrPeriod(v.charAt(0)) && GoLayout.digit(v, 1)) {
                        int end = 2;
                        while (end < v.length() && GoLayout.digit(v, end)) {
                            end++;
                        }
                        nanos = nanoseconds(v, end);
                        v = v.substring(end);
                    }
                }
                case PM, LOWER_PM -> {
                    String p = v.length() < 2 ? "" : v.substring(0, 2);
                    boolean upper = c.std() == Std.PM;
                    if (p.equals(upper ? "PM" : "pm")) {
                        pm = true;
                    } else if (p.equals(upper ? "AM" : "am")) {
                        am = true;
                    } else {
                        return Optional.empty();
                    }
                    v = v.substring(2);
                }
                case TZ -> {
                    if (v.startsWith("UTC")) {
                        utc = true;
                        v = v.substring(3);
                        break;
                    }
                    int len = zoneNameLength(v);
                    if (len == 0) {
                        return Optional.empty();
                    }
                    zoneName = v.substring(0, len);
                    v = v.substring(len);
                }
                case FRAC0 -> {
                    int bytes = 1 + c.digits();
                    if (v.length() < bytes || !commaOrPeriod(v.charAt(0))) {
                        return Optional.empty();
                    }
                    for (int i = 1; i < bytes; i++) {
                        if (!GoLayout.digit(v, i)) {
                            return Optional.empty();
                        }
                    }
                    nanos = nanoseconds(v, bytes);
                    v = v.substring(bytes);
                }
                case FRAC9 -> {
                    if (v.length() < 2 || !commaOrPeriod(v.charAt(0)) || !GoLayout.digit(v, 1)) {
                        break; // a fraction of 9s may be left out
                    }
                    int end = 2;
                    while (end < v.length() && GoLayout.digit(v, end)) {
                        end++;
                    }
                    nanos = nanoseconds(v, end);
                    v = v.substring(end);
                }
                default -> {
                    boolean iso = c.std().name().startsWith("ISO");
                    if (iso && v.startsWith("Z")) {
                        utc = true;
                        v = v.substring(1);
                        break;
                    }
                    Integer seconds = null;
                    int length = switch (c.std()) {
                        case ISO_COLON_SECONDS_TZ, NUM_COLON_SECONDS_TZ -> 9;
                        case ISO_SECONDS_TZ, NUM_SECONDS_TZ -> 7;
                        case ISO_COLON_TZ, NUM_COLON_TZ -> 6;
                        case ISO_SHORT_TZ, NUM_SHORT_TZ -> 3;
                        default -> 5;
                    };
                    if (v.length() >= length && (v.charAt(0) == '+' || v.charAt(0) == '-')) {
                        seconds = offsetSeconds(v.substring(0, length), length == 6 || length == 9);
                    }
                    if (seconds == null || Math.abs(seconds) > 18 * 3600) { // Go takes up to 24 h; java.time 18
                        return Optional.empty();
                    }
                    zoneOffset = seconds;
                    v = v.substring(length);
                }
            }
        }
        if (!v.isEmpty()) {
            return Optional.empty(); // extra text
        }
        int month = fields[Field.MONTH.ordinal()];
        int day = fields[Field.DAY.ordinal()];
        int hour = fields[Field.HOUR.ordinal()];
        int minute = fields[Field.MINUTE.ordinal()];
        int second = fields[Field.SECOND.ordinal()];
        if (pm && hour < 12) {
            hour += 12;
        } else if (am && hour == 12) {
            hour = 0;
        }
        try {
            if (yearDay >= 0) {
                LocalDate date = LocalDate.ofYearDay(year, yearDay);
                if (month >= 0 && month != date.getMonthValue() || day >= 0 && day != date.getDayOfMonth()) {
                    return Optional.empty();
                }
                month = date.getMonthValue();
                day = date.getDayOfMonth();
            }
            month = Math.max(month, 1);
            day = day < 0 ? 1 : day;
            if (day < 1 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
                return Optional.empty();
            }
            if (utc) {
                return Optional.of(ZonedDateTime.of(year, month, day, hour, minute, second, nanos, ZoneOffset.UTC));
            }
            if (zoneOffset != null) {
                // Go keeps the location when its offset at that moment is the one parsed, else a fixed zone
                ZoneOffset offset = ZoneOffset.ofTotalSeconds(zoneOffset);
                ZonedDateTime fixed = ZonedDateTime.of(year, month, day, hour, minute, second, nanos, offset);
                return Optional.of(zone.getRules().getOffset(fixed.toInstant()).equals(offset)
                        ? fixed.withZoneSameInstant(zone) : fixed);
            }
            ZonedDateTime local = ZonedDateTime.of(year, month, day, hour, minute, second, nanos, zone);
            if (zoneName != null && !zoneName.equals(GoTime.zoneName(local))) {
                // an abbreviation the location does not use at that time: Go keeps it with a zero offset
                return Optional.of(ZonedDateTime.of(year, month, day, hour, minute, second, nanos, ZoneOffset.UTC));
            }
            return Optional.of(local);
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** Go's {@code parseTimeZone} for names: 3 upper-case letters, 4 or 5 ending in T (or WITA); 0 if none. */
    private static int zoneNameLength(String v) {
        int upper = 0;
        while (upper < 6 && upper < v.length() && v.charAt(upper) >= 'A' && v.charAt(upper) <= 'Z') {
            upper++;
        }
        return switch (upper) {
            case 3 -> 3;
            case 4 -> v.charAt(3) == 'T' || v.startsWith("WITA") ? 4 : 0;
            case 5 -> v.charAt(4) == 'T' ? 5 : 0;
            default -> 0;
        };
    }

    /** Go's {@code skip}: the literal must lead the value; a run of spaces matches any run of spaces. */
    private static String skip(String value, String prefix) {
        String v = value;
        String p = prefix;
        while (!p.isEmpty()) {
            if (p.charAt(0) == ' ') {
                if (!v.isEmpty() && v.charAt(0) != ' ') {
                    return null;
                }
                p = cutSpace(p);
                v = cutSpace(v);
                continue;
            }
            if (v.isEmpty() || v.charAt(0) != p.charAt(0)) {
                return null;
            }
            p = p.substring(1);
            v = v.substring(1);
        }
        return v;
    }

    private static String cutSpace(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return s.substring(i);
    }

    /** A name from {@code names} leading {@code v}, ASCII case ignored (its first three letters when short). */
    private static int lookup(String v, String[] names, boolean shortNames) {
        for (int i = 0; i < names.length; i++) {
            String name = shortNames ? names[i].substring(0, 3) : names[i];
            if (v.length() >= name.length() && v.regionMatches(true, 0, name, 0, name.length())) {
                return i;
            }
        }
        return -1;
    }

    /** Go's {@code getnum}: one or two digits ({@code fixed}: exactly two); {value, length} or null. */
    private static int[] getnum(String s, boolean fixed) {
        if (!GoLayout.digit(s, 0)) {
            return null;
        }
        if (!GoLayout.digit(s, 1)) {
            return fixed ? null : new int[] {s.charAt(0) - '0', 1};
        }
        return new int[] {(s.charAt(0) - '0') * 10 + s.charAt(1) - '0', 2};
    }

    /** Go's {@code getnum3}: one to three digits ({@code fixed}: exactly three). */
    private static int[] getnum3(String s, boolean fixed) {
        int n = 0;
        int i = 0;
        for (; i < 3 && GoLayout.digit(s, i); i++) {
            n = n * 10 + s.charAt(i) - '0';
        }
        return i == 0 || fixed && i != 3 ? null : new int[] {n, i};
    }

    /** Nanoseconds of {@code v[0, end)}: a separator and digits, cut to nine. */
    private static int nanoseconds(String v, int end) {
        String digits = v.substring(1, Math.min(end, 10));
        return Integer.parseInt(digits) * (int) Math.pow(10, 9 - digits.length());
    }

    /**
     * Seconds of a numeric offset such as {@code -07:00}: a sign, then two-digit hours, minutes and seconds as the
     * form has them ({@code colons}: separated by colons); null if malformed.
     */
    private static Integer offsetSeconds(String text, boolean colons) {
        String digits = text.substring(1);
        if (colons) {
            if (digits.charAt(2) != ':' || digits.length() == 8 && digits.charAt(5) != ':') {
                return null;
            }
            digits = digits.replace(":", "");
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!GoLayout.digit(digits, i)) {
                return null;
            }
        }
        int h = Integer.parseInt(digits.substring(0, 2));
        int m = digits.length() >= 4 ? Integer.parseInt(digits.substring(2, 4)) : 0;
        int sec = digits.length() >= 6 ? Integer.parseInt(digits.substring(4, 6)) : 0;
        if (h > 24 || m > 60 || sec > 60) {
            return null;
        }
        int seconds = (h * 60 + m) * 60 + sec;
        return text.charAt(0) == '-' ? -seconds : seconds;
    }

    private static Integer atoi(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!GoLayout.digit(s, i)) {
                return null;
            }
        }
        return Integer.parseInt(s);
    }

    private static boolean commaOrPeriod(char c) {
        return c == '.' || c == ',';
    }
}
