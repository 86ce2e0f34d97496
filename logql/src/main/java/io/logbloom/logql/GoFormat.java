package io.logbloom.logql;

import java.util.List;
import java.util.Locale;

/**
 * A subset of Go's fmt.Sprintf for templates: verbs s v d f e g q x X t %, with flags, width and precision. A verb that
 * does not fit its value's type prints as Go prints it ({@code %!f(string=2.5)}: label values are strings). Stateless.
 */
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
        Spec f = Spec.parse(spec);
        String type = a == null ? "string" : Template.typeName(a); // a missing value prints as Go's ""
        boolean fits = switch (type) {
            case "string" -> "svqxX".indexOf(verb) >= 0;
            case "int" -> "vdxXq".indexOf(verb) >= 0;
            case "float64" -> "vfFeEgG".indexOf(verb) >= 0;
            case "bool" -> "vt".indexOf(verb) >= 0;
            default -> "svqxX".indexOf(verb) >= 0; // a time prints through its String(), as Go's Stringer
        };
        if (!fits) {
            // Go's bad verb: the type, then the value as %v with the same flags, width and precision
            return "%!" + verb + "(" + type + "=" + f.pad(plain(a, f)) + ")";
        }
        try {
            return switch (verb) {
                case 'd' -> f.integer((Long) a); // only an int fits %d
                case 'f', 'F', 'e', 'E', 'g', 'G' -> {
                    String s = spec;
                    if ((verb == 'f' || verb == 'F') && !s.contains(".")) {
                        s = s + ".6";
                    }
                    if ((verb == 'g' || verb == 'G') && !spec.contains(".")) {
                        yield Template.print(a);
                    }
                    // only a float64 fits these verbs
                    yield String.format(Locale.ROOT, s + Character.toLowerCase(verb), (Double) a);
                }
                case 'q' -> f.pad(GoStrings.quote(f.truncate(Template.print(a))));
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
                case 't' -> f.pad(String.valueOf(Template.truthy(a)));
                case 's', 'v' -> a instanceof Long l ? f.integer(l) : f.pad(plain(a, f));
                default -> "%!" + verb + "(" + type + "=" + f.pad(plain(a, f)) + ")";
            };
        } catch (java.util.IllegalFormatException e) {
            return "%!" + verb + "(" + type + "=" + Template.print(a) + ")";
        }
    }

    /** A value as Go's %v prints it before padding: a string cut to the precision, an int extended to it. */
    private static String plain(Object a, Spec f) {
        if (a instanceof Long l && f.precision() >= 0) {
            String digits = Long.toString(Math.abs(l));
            return (l < 0 ? "-" : "") + "0".repeat(Math.max(0, f.precision() - digits.length())) + digits;
        }
        String s = Template.print(a);
        return a instanceof String || a == null ? f.truncate(s) : s;
    }

    /** The flags, width and precision of a verb ({@code %-05.1}); -1 when absent. */
    private record Spec(boolean minus, boolean zero, boolean plus, boolean space, int width, int precision) {
        static Spec parse(String spec) {
            int i = 1;
            String flags = "";
            for (; i < spec.length() && "+-# 0".indexOf(spec.charAt(i)) >= 0; i++) {
                flags += spec.charAt(i);
            }
            boolean minus = flags.indexOf('-') >= 0;
            int dot = spec.indexOf('.', i);
            String width = spec.substring(i, dot < 0 ? spec.length() : dot);
            String precision = dot < 0 ? null : spec.substring(dot + 1);
            return new Spec(minus, flags.indexOf('0') >= 0 && !minus, flags.indexOf('+') >= 0, flags.indexOf(' ') >= 0,
                    width.isEmpty() ? -1 : Integer.parseInt(width),
                    precision == null ? -1 : precision.isEmpty() ? 0 : Integer.parseInt(precision));
        }

        /**
         * An integer as Go's %d prints it: at least the precision's digits (then the 0 flag is ignored), else zeros
         * up to the width with the 0 flag; a sign for negatives, or + / space when those flags are set.
         */
        String integer(long value) {
            String digits = value == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(Math.abs(value));
            String sign = value < 0 ? "-" : plus ? "+" : space ? " " : "";
            if (precision >= 0) {
                digits = "0".repeat(Math.max(0, precision - digits.length())) + digits;
            } else if (zero && width > 0) {
                digits = "0".repeat(Math.max(0, width - sign.length() - digits.length())) + digits;
            }
            return new Spec(minus, false, false, false, width, -1).pad(sign + digits);
        }

        /** Cut to the precision in characters (code points), as Go cuts a string. */
        String truncate(String s) {
            if (precision < 0 || s.codePointCount(0, s.length()) <= precision) {
                return s;
            }
            return s.substring(0, s.offsetByCodePoints(0, precision));
        }

        /** Padded to the width: on the left with spaces, or zeros with the 0 flag; on the right with the - flag. */
        String pad(String s) {
            int missing = width - s.codePointCount(0, s.length());
            if (missing <= 0) {
                return s;
            }
            String padding = (zero ? "0" : " ").repeat(missing);
            return minus ? s + padding : padding + s;
        }
    }
}
