package io.logbloom.logql;

import io.logbloom.logql.GoLayout.Chunk;
import io.logbloom.logql.GoLayout.Std;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Go's time formatting for templates: {@code Time.String()} and layouts ({@link GoLayout}), in the time's own zone
 * as Go's {@code Format} prints them. Stateless.
 */
final class GoTime {
    private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("zzz", Locale.ROOT);
    /** Go's zero time, what sprig's toDate gives for text that does not parse. */
    static final ZonedDateTime ZERO = ZonedDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    private GoTime() {}

    /** Go's {@code Time.String()}: {@code 2006-01-02 15:04:05.999999999 -0700 MST}. */
    static String format(ZonedDateTime t) {
        return layout("2006-01-02 15:04:05.999999999 -0700 MST", t);
    }

    /** Formats {@code t} with a Go layout, in {@code t}'s zone. */
    static String layout(String layout, ZonedDateTime t) {
        StringBuilder sb = new StringBuilder();
        for (Chunk c : GoLayout.chunks(layout)) {
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
            case LONG_MONTH -> sb.append(GoLayout.MONTHS[t.getMonthValue() - 1]);
            case MONTH -> sb.append(GoLayout.MONTHS[t.getMonthValue() - 1], 0, 3);
            case NUM_MONTH -> sb.append(t.getMonthValue());
            case ZERO_MONTH -> sb.append(pad(t.getMonthValue(), 2, '0'));
            case LONG_WEEKDAY -> sb.append(GoLayout.DAYS[t.getDayOfWeek().getValue() - 1]);
            case WEEKDAY -> sb.append(GoLayout.DAYS[t.getDayOfWeek().getValue() - 1], 0, 3);
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
    static String zoneName(ZonedDateTime t) {
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
