package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;

/**
 * A Go time layout read into its elements as Go's {@code time} package reads it ({@code nextStdChunk}): reference
 * time {@code Mon Jan 2 15:04:05 MST 2006}, elements {@code 2006}, {@code 06}, {@code January}, {@code Jan},
 * {@code 01}, {@code 1}, {@code Monday}, {@code Mon}, {@code 02}, {@code _2}, {@code 2}, {@code 002}, {@code __2},
 * {@code 15}, {@code 03}, {@code 3}, {@code 04}, {@code 4}, {@code 05}, {@code 5}, {@code PM}, {@code pm},
 * {@code MST}, numeric zones {@code -0700}, {@code -07:00}, {@code -07}, {@code -070000}, {@code -07:00:00} and their
 * {@code Z} forms, fractions {@code .000} / {@code .999} or with a comma; everything else is literal text. Used by
 * {@link GoTime} (formatting) and {@link GoTimeParser}. Stateless.
 */
final class GoLayout {
    static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};
    static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

    /** The elements of a layout. */
    enum Std {
        LONG_MONTH, MONTH, NUM_MONTH, ZERO_MONTH, LONG_WEEKDAY, WEEKDAY, DAY, UNDER_DAY, ZERO_DAY, UNDER_YEAR_DAY,
        ZERO_YEAR_DAY, HOUR, HOUR12, ZERO_HOUR12, MINUTE, ZERO_MINUTE, SECOND, ZERO_SECOND, LONG_YEAR, YEAR, PM,
        LOWER_PM, TZ, ISO_TZ, ISO_SECONDS_TZ, ISO_SHORT_TZ, ISO_COLON_TZ, ISO_COLON_SECONDS_TZ, NUM_TZ,
        NUM_SECONDS_TZ, NUM_SHORT_TZ, NUM_COLON_TZ, NUM_COLON_SECONDS_TZ, FRAC0, FRAC9
    }

    /** Literal text before an element ({@code std} null: the trailing text); a fraction's digits and separator. */
    record Chunk(String literal, Std std, int digits, char separator) {}

    private GoLayout() {}

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
            new Element("Z07:00:00", Std.ISO_COLON_SECONDS_TZ, false),
            new Element("Z070000", Std.ISO_SECONDS_TZ, false),
            new Element("Z07:00", Std.ISO_COLON_TZ, false), new Element("Z0700", Std.ISO_TZ, false),
            new Element("Z07", Std.ISO_SHORT_TZ, false));

    /** The layout as Go's {@code nextStdChunk} reads it. */
    static List<Chunk> chunks(String layout) {
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

    /** Whether {@code s} has an ASCII digit at {@code i}. */
    static boolean digit(String s, int i) {
        return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
    }
}
