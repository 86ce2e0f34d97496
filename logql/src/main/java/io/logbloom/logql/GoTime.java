package io.logbloom.logql;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Go's time layouts for templates, formatting and parsing as Go's {@code time} package does: the layout is read
 * into the same elements (reference time {@code Mon Jan 2 15:04:05 MST 2006}: {@code 2006}, {@code 06},
 * {@code January}, {@code Jan}, {@code 01}, {@code 1}, {@code Monday}, {@code Mon}, {@code 02}, {@code _2},
 * {@code 2}, {@code 002}, {@code __2}, {@code 15}, {@code 03}, {@code 3}, {@code 04}, {@code 4}, {@code 05},
 * {@code 5}, {@code PM}, {@code pm}, {@code MST}, numeric zones {@code -0700}, {@code -07:00}, {@code -07},
 * {@code -070000}, {@code -07:00:00} and their {@code Z} forms, fractions {@code .000} / {@code .999} or with a
 * comma); everything else is literal text. Stateless.
 *
 * <p>Not carried over: Go's parsing of a zone abbreviation other than the location's own or {@code UTC} keeps the
 * name with a zero offset; here such a time is in UTC.
 */
final class GoTime {
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("zzz", Locale.ROOT);
    /** Go's zero time, what sprig's toDate gives for text that does not parse. */
    static final ZonedDateTime ZERO = ZonedDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    /** The elements of a layout. */
    private enum Std {
        LONG_MONTH, MONTH, NUM_MONTH, ZERO_MONTH, LONG_WEEKDAY, WEEKDAY, DAY, UNDER_DAY, ZERO_DAY, UNDER_YEAR_DAY,
        ZERO_YEAR_DAY, HOUR, HOUR12, ZERO_HOUR12, MINUTE, ZERO_MINUTE, SECOND, ZERO_SECOND, LONG_YEAR, YEAR, PM,
        LOWER_PM, TZ, ISO_TZ, ISO_SECONDS_TZ, ISO_SHORT_TZ, ISO_COLON_TZ, ISO_COLON_SECONDS_TZ, NUM_TZ,
        NUM_SECONDS_TZ, NUM_SHORT_TZ, NUM_COLON_TZ, NUM_COLON_SECONDS_TZ, FRAC0, FRAC9
    }

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

    /** Literal text before an element (null: the layout's trailing text), and for fractions their digit count. */
    private record Chunk(String literal, Std std, int digits, char separator) {}

    private GoTime() {}

    /** Go's {@code Time.String()}: {@code 2006-01-02 15:04:05.999999999 -0700 MST}. */
    static String format(ZonedDateTime t) {
        return layout("2006-01-02 15:04:05.999999999 -0700 MST", t);
    }

    /** Formats {@code t} with a Go layout, in {@code t}'s zone. */
    static String layout(String layout, ZonedDateTime t) {
        StringBuilder sb = new StringBuilder();
        for (Chunk c : chunks(layout)) {
            sb.append(c.literal());
            if (c.std() != null) {
                element(sb, c, t);
            }
        }
        return sb.toString();
    }

    private static void element(StringBuilder sb, Chunk c, ZonedDateTime t) {
        int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
        switch (c.std()) {
            case LONG_YEAR -> {
                int y = t.getYear();
                sb.append(y < 0 ? "-" : "").append(pad(Math.abs(y), 4, '0'));
            }
            case YEAR -> sb.append(pad(Math.floorMod(t.getYear(), 100), 2, '0'));
            case LONG_MONTH -> sb.append(MONTHS[t.getMonthValue() - 1]);
            case MONTH -> sb.append(MONTHS[t.getMonthValue() - 1], 0, 3);
            case NUM_MONTH -> sb.append(t.getMonthValue());
            case ZERO_MONTH -> sb.append(pad(t.getMonthValue(), 2, '0'));
            case LONG_WEEKDAY -> sb.append(DAYS[t.getDayOfWeek().getValue() - 1]);
            case WEEKDAY -> sb.append(DAYS[t.getDayOfWeek().getValue() - 1], 0, 3);
            case DAY -> sb.append(t.getDayOfMonth());
            case UNDER_DAY -> sb.append(pad(t.getDayOfMonth(), 2, ' '));
            case ZERO_DAY -> sb.append(pad(t.getDayOfMonth(), 2, '0'));
            case UNDER_YEAR_DAY -> sb.append(pad(t.getDayOfYear(), 3, ' '));
            case ZERO_YEAR_DAY -> sb.append(pad(t.getDayOfYear(), 3, '0'));
            case HOUR -> sb.append(pad(t.getHour(), 2, '0'));
            case HOUR12 -> sb.append(hour12);
            case ZERO_HOUR12 -> sb.append(pad(hour12, 2, '0'));
            case MINUTE -> sb.append(t.getMinute());
            case ZERO_MINUTE -> sb.append(pad(t.getMinute(), 2, '0'));
            case SECOND -> sb.append(t.getSecond());
            case ZERO_SECOND -> sb.append(pad(t.getSecond(), 2, '0'));
            case PM -> sb.append(t.getHour() >= 12 ? "PM" : "AM");
            case LOWER_PM -> sb.append(t.getHour() >= 12 ? "pm" : "am");
            case TZ -> sb.append(zoneName(t));
            case FRAC0, FRAC9 -> {
                String frac = pad(t.getNano(), 9, '0').substring(0, Math.min(9, c.digits()));
                if (c.std() == Std.FRAC9) {
                    frac = stripTrailingZeros(frac);
                    if (frac.isEmpty()) {
                        return;
                    }
                }
                sb.append(c.separator()).append(frac);
            }
            default -> offset(sb, c.std(), t.getOffset().getTotalSeconds());
        }
    }

    private static void offset(StringBuilder sb, Std std, int offsetSeconds) {
        boolean iso = std.name().startsWith("ISO");
        if (iso && offsetSeconds == 0) {
            sb.append('Z');
            return;
        }
        int zone = Math.abs(offsetSeconds);
        sb.append(offsetSeconds < 0 ? '-' : '+').append(pad(zone / 3600, 2, '0'));
        boolean colon = std == Std.ISO_COLON_TZ || std == Std.ISO_COLON_SECONDS_TZ || std == Std.NUM_COLON_TZ
                || std == Std.NUM_COLON_SECONDS_TZ;
        if (std != Std.ISO_SHORT_TZ && std != Std.NUM_SHORT_TZ) {
            sb.append(colon ? ":" : "").append(pad(zone / 60 % 60, 2, '0'));
        }
        if (std == Std.ISO_SECONDS_TZ || std == Std.ISO_COLON_SECONDS_TZ || std == Std.NUM_SECONDS_TZ
                || std == Std.NUM_COLON_SECONDS_TZ) {
            sb.append(colon ? ":" : "").append(pad(zone % 60, 2, '0'));
        }
    }

    /** A zone's abbreviation as Go prints it: the location's name, else the offset as {@code -0700}. */
    private static String zoneName(ZonedDateTime t) {
        if (t.getZone() instanceof ZoneOffset o) {
            if (o.getTotalSeconds() == 0) {
                return "UTC";
            }
            StringBuilder sb = new StringBuilder();
            int minutes = o.getTotalSeconds() / 60;
            sb.append(minutes < 0 ? '-' : '+').append(pad(Math.abs(minutes) / 60, 2, '0'))
                    .append(pad(Math.abs(minutes) % 60, 2, '0'));
            return sb.toString();
        }
        return ZONE_NAME.format(t);
    }

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
        List<Chunk> chunks = chunks(layout);
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
                    if (v.length() < 4 || !digit(v, 0)) {
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
                    if (v.length() < 2 || !digit(v, 0) || !digit(v, 1)) {
                        return Optional.empty();
                    }
                    int y = (v.charAt(0) - '0') * 10 + v.charAt(1) - '0';
                    year = y >= 69 ? 1900 + y : 2000 + y;
                    v = v.substring(2);
                }
                case LONG_MONTH, MONTH -> {
                    int m = lookup(v, MONTHS, c.std() == Std.MONTH);
                    if (m < 0) {
                        return Optional.empty();
                    }
                    fields[Field.MONTH.ordinal()] = m + 1;
                    v = v.substring(c.std() == Std.MONTH ? 3 : MONTHS[m].length());
                }
                case LONG_WEEKDAY, WEEKDAY -> {
                    int d = lookup(v, DAYS, c.std() == Std.WEEKDAY);
                    if (d < 0) {
                        return Optional.empty();
                    }
                    v = v.substring(c.std() == Std.WEEKDAY ? 3 : DAYS[d].length());
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
                    if (!fractionNext && v.length() >= 2 && commaOrPeriod(v.charAt(0)) && digit(v, 1)) {
                        int end = 2;
                        while (end < v.length() && digit(v, end)) {
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
                        if (!digit(v, i)) {
                            return Optional.empty();
                        }
                    }
                    nanos = nanoseconds(v, bytes);
                    v = v.substring(bytes);
                }
                case FRAC9 -> {
                    if (v.length() < 2 || !commaOrPeriod(v.charAt(0)) || !digit(v, 1)) {
                        break; // a fraction of 9s may be left out
                    }
                    int end = 2;
                    while (end < v.length() && digit(v, end)) {
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
            if (zoneName != null && !zoneName.equals(zoneName(local))) {
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

    /** A layout element's text; {@code word}: not an element when a lower-case letter follows ({@code Janet}). */
    private record Element(String text, Std std, boolean word) {}

    /** The elements in the order Go's {@code nextStdChunk} tries them (longer forms first). */
    private static final List<Element> ELEMENTS = List.of(new Element("January", Std.LONG_MONTH, false),
            new Element("Jan", Std.MONTH, true), new Element("Monday", Std.LONG_WEEKDAY, false),
            new Element("Mon", Std.WEEKDAY, true), new Element("MST", Std.TZ, false),
            new Element("01", Std.ZERO_MONTH, false), new Element("02", Std.ZERO_DAY, false),
            new Element("03", Std.ZERO_HOUR12, false), new Element("04", Std.ZERO_MINUTE, false),
            new Element("05", Std.ZERO_SECOND, false), new Element("06", Std.YEAR, false),
            new Element("002", Std.ZERO_YEAR_DAY, false), new Element("15", Std.HOUR, false),
            new Element("1", Std.NUM_MONTH, false), new Element("2006", Std.LONG_YEAR, false),
            new Element("2", Std.DAY, false), new Element("__2", Std.UNDER_YEAR_DAY, false),
            new Element("_2", Std.UNDER_DAY, false), new Element("3", Std.HOUR12, false),
            new Element("4", Std.MINUTE, false), new Element("5", Std.SECOND, false), new Element("PM", Std.PM, false),
            new Element("pm", Std.LOWER_PM, false), new Element("-07:00:00", Std.NUM_COLON_SECONDS_TZ, false),
            new Element("-070000", Std.NUM_SECONDS_TZ, false), new Element("-07:00", Std.NUM_COLON_TZ, false),
            new Element("-0700", Std.NUM_TZ, false), new Element("-07", Std.NUM_SHORT_TZ, false),
            new Element("Z07:00:00", Std.ISO_COLON_SECONDS_TZ, false), new Element("Z070000", Std.ISO_SECONDS_TZ, false),
            new Element("Z07:00", Std.ISO_COLON_TZ, false), new Element("Z0700", Std.ISO_TZ, false),
            new Element("Z07", Std.ISO_SHORT_TZ, false));

    /** The layout as Go's {@code nextStdChunk} reads it. */
    private static List<Chunk> chunks(String layout) {
        List<Chunk> out = new ArrayList<>();
        int from = 0;
        int i = 0;
        while (i < layout.length()) {
            Chunk chunk = null;
            int len = 0;
            for (Element e : ELEMENTS) {
                int end = i + e.text().length();
                if (layout.startsWith(e.text(), i) && !(e.word() && end < layout.length()
                        && Character.isLowerCase(layout.charAt(end))) && !layout.startsWith("_2006", i)) {
                    chunk = new Chunk(layout.substring(from, i), e.std(), 0, (char) 0);
                    len = e.text().length();
                    break;
                }
            }
            char c = layout.charAt(i);
            if (chunk == null && (c == '.' || c == ',') && i + 1 < layout.length()
                    && (layout.charAt(i + 1) == '0' || layout.charAt(i + 1) == '9')) {
                char repeated = layout.charAt(i + 1);
                int j = i + 1;
                while (j < layout.length() && layout.charAt(j) == repeated) {
                    j++;
                }
                if (!digit(layout, j)) { // the digits end here: a fraction
                    chunk = new Chunk(layout.substring(from, i), repeated == '0' ? Std.FRAC0 : Std.FRAC9, j - i - 1, c);
                    len = j - i;
                }
            }
            if (chunk == null) {
                i++;
                continue;
            }
            out.add(chunk);
            i += len;
            from = i;
        }
        out.add(new Chunk(layout.substring(from), null, 0, (char) 0));
        return out;
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
        if (!digit(s, 0)) {
            return null;
        }
        if (!digit(s, 1)) {
            return fixed ? null : new int[] {s.charAt(0) - '0', 1};
        }
        return new int[] {(s.charAt(0) - '0') * 10 + s.charAt(1) - '0', 2};
    }

    /** Go's {@code getnum3}: one to three digits ({@code fixed}: exactly three). */
    private static int[] getnum3(String s, boolean fixed) {
        int n = 0;
        int i = 0;
        for (; i < 3 && digit(s, i); i++) {
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
            if (!digit(digits, i)) {
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
            if (!digit(s, i)) {
                return null;
            }
        }
        return Integer.parseInt(s);
    }

    private static boolean commaOrPeriod(char c) {
        return c == '.' || c == ',';
    }

    private static boolean digit(String s, int i) {
        return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
    }

    private static String pad(int value, int width, char with) {
        String s = Integer.toString(value);
        return s.length() >= width ? s : String.valueOf(with).repeat(width - s.length()) + s;
    }

    private static String stripTrailingZeros(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, end);
    }
}
