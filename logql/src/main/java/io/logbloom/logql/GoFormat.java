package io.logbloom.logql;

import java.util.List;
import java.util.Locale;

/** A subset of Go's fmt.Sprintf for templates: verbs s v d f e g q x X t %, with flags, width and precision. Stateless. */
final class GoFormat {

    private GoFormat() {
    }

    static String sprintf(String format, List<Object> args) {
        StringBuilder sb = new StringBuilder();
        int argi = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                sb.append(c);
                i++;
                continue;
            }
            int start = i++;
            while (i < format.length() && "+-# 0".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            while (i < format.length() && (Character.isDigit(format.charAt(i)) || format.charAt(i) == '.')) {
                i++;
            }
            if (i >= format.length()) {
                sb.append("%!(NOVERB)");
                break;
            }
            char verb = format.charAt(i++);
            String spec = format.substring(start, i - 1);
            if (verb == '%') {
                sb.append('%');
                continue;
            }
            if (argi >= args.size()) {
                sb.append("%!").append(verb).append("(MISSING)");
                continue;
            }
            Object a = args.get(argi++);
            sb.append(one(spec, verb, a));
        }
        if (argi < args.size()) {
            sb.append("%!(EXTRA ");
            for (int k = argi; k < args.size(); k++) {
                sb.append(k > argi ? ", " : "").append(Template.print(args.get(k)));
            }
            sb.append(')');
        }
        return sb.toString();
    }

    private static String one(String spec, char verb, Object a) {
        try {
            return switch (verb) {
                case 'd' -> String.format(Locale.ROOT, spec + "d", toLong(a));
                case 'f', 'F', 'e', 'E', 'g', 'G' -> {
                    String s = spec;
                    if ((verb == 'f' || verb == 'F') && !s.contains(".")) {
                        s = s + ".6";
                    }
                    if ((verb == 'g' || verb == 'G') && !spec.contains(".")) {
                        yield Template.print(toDouble(a));
                    }
                    yield String.format(Locale.ROOT, s + Character.toLowerCase(verb), toDouble(a));
                }
                case 'q' -> GoStrings.quote(Template.print(a));
                case 'x', 'X' -> {
                    if (a instanceof Long l) {
                        yield String.format(Locale.ROOT, spec + verb, l);
                    }
                    StringBuilder hex = new StringBuilder();
                    for (byte b : Template.print(a).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                        hex.append(String.format(Locale.ROOT, verb == 'x' ? "%02x" : "%02X", b));
                    }
                    yield hex.toString();
                }
                case 't' -> String.valueOf(Template.truthy(a));
                case 's', 'v' -> String.format(Locale.ROOT, spec + "s", Template.print(a));
                default -> "%!" + verb + "(" + Template.print(a) + ")";
            };
        } catch (java.util.IllegalFormatException e) {
            return "%!" + verb + "(" + Template.print(a) + ")";
        }
    }

    private static long toLong(Object a) {
        if (a instanceof Long l) {
            return l;
        }
        if (a instanceof Double d) {
            return d.longValue();
        }
        String s = Template.print(a).trim();
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new java.util.IllegalFormatConversionException('d', String.class);
        }
    }

    private static double toDouble(Object a) {
        if (a instanceof Double d) {
            return d;
        }
        if (a instanceof Long l) {
            return l;
        }
        try {
            return Double.parseDouble(Template.print(a).trim());
        } catch (NumberFormatException e) {
            throw new java.util.IllegalFormatConversionException('f', String.class);
        }
    }
}
