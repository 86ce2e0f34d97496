package io.logbloom.logql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;

/** Go time formatting for templates: Time.String() and reference-time layouts ({@code 2006-01-02}). Stateless. */
final class GoTime {

    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

    private GoTime() {
    }

    /** Go's default time printing in UTC: {@code 2006-01-02 15:04:05.999999999 +0000 UTC}. */
    static String format(Instant i) {
        return layout("2006-01-02 15:04:05.999999999 -0700 MST", i);
    }

    /** Formats an instant (UTC) with a Go reference-time layout. */
    static String layout(String layout, Instant instant) {
        ZonedDateTime t = instant.atZone(ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < layout.length()) {
            String rest = layout.substring(i);
            if (rest.startsWith("2006")) {
                sb.append(String.format(Locale.ROOT, "%04d", t.getYear()));
                i += 4;
            } else if (rest.startsWith("January")) {
                sb.append(MONTHS[t.getMonthValue() - 1]);
                i += 7;
            } else if (rest.startsWith("Jan")) {
                sb.append(MONTHS[t.getMonthValue() - 1], 0, 3);
                i += 3;
            } else if (rest.startsWith("Monday")) {
                sb.append(DAYS[t.getDayOfWeek().getValue() - 1]);
                i += 6;
            } else if (rest.startsWith("Mon")) {
                sb.append(DAYS[t.getDayOfWeek().getValue() - 1], 0, 3);
                i += 3;
            } else if (rest.startsWith("MST")) {
                sb.append("UTC");
                i += 3;
            } else if (rest.startsWith("01")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getMonthValue()));
                i += 2;
            } else if (rest.startsWith("02")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getDayOfMonth()));
                i += 2;
            } else if (rest.startsWith("06")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getYear() % 100));
                i += 2;
            } else if (rest.startsWith("15")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getHour()));
                i += 2;
            } else if (rest.startsWith("03")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getHour() % 12 == 0 ? 12 : t.getHour() % 12));
                i += 2;
            } else if (rest.startsWith("04")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getMinute()));
                i += 2;
            } else if (rest.startsWith("05")) {
                sb.append(String.format(Locale.ROOT, "%02d", t.getSecond()));
                i += 2;
            } else if (rest.startsWith("PM")) {
                sb.append(t.getHour() >= 12 ? "PM" : "AM");
                i += 2;
            } else if (rest.startsWith("-0700")) {
                sb.append("+0000");
                i += 5;
            } else if (rest.startsWith("-07:00")) {
                sb.append("+00:00");
                i += 6;
            } else if (rest.startsWith("Z07:00")) {
                sb.append("Z");
                i += 6;
            } else if (rest.startsWith(".0") || rest.startsWith(".9") || rest.startsWith(",0") || rest.startsWith(",9")) {
                char digit = rest.charAt(1);
                int n = 1;
                while (n < rest.length() && rest.charAt(n) == digit) {
                    n++;
                }
                int digits = n - 1;
                String frac = String.format(Locale.ROOT, "%09d", t.getNano()).substring(0, Math.min(9, digits));
                if (digit == '9') {
                    frac = frac.replaceAll("0+$", "");
                    if (!frac.isEmpty()) {
                        sb.append(rest.charAt(0)).append(frac);
                    }
                } else {
                    sb.append(rest.charAt(0)).append(frac);
                }
                i += n;
            } else {
                sb.append(layout.charAt(i));
                i++;
            }
        }
        return sb.toString();
    }
}
