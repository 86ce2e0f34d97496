package io.logbloom.logql;

/**
 * Decides whether Loki's {@code | json} parser rejects a line, and with which {@code __error_details__}.
 * Loki walks the line with a lenient scanner (buger/jsonparser's ObjectEach, recursing into nested objects):
 * it stops at the closing brace of the top-level object, ignores what follows, and reports the first
 * structural problem it meets with a fixed message. This class follows the same walk, so a line that
 * Jackson rejects for a reason Loki does not see (trailing text) is accepted, and a rejected line carries
 * Loki's wording. Stateless and thread-safe.
 */
final class JsonObjectScan {
    static final String MALFORMED_JSON = "Malformed JSON error";
    static final String MALFORMED_STRING = "Value is string, but can't find closing '\"' symbol";
    static final String MALFORMED_ARRAY = "Value is array, but can't find closing ']' symbol";
    static final String MALFORMED_OBJECT = "Value looks like object, but can't find closing '}' symbol";
    static final String UNKNOWN_VALUE = "Unknown value type";
    static final String KEY_PATH_NOT_FOUND = "Key path not found";

    private JsonObjectScan() {
    }

    /** Null when Loki's json parser accepts the line, else Loki's error details. */
    static String error(String line) {
        return object(line, 0, line.length());
    }

    /**
     * Whether {@code line}'s first character after JSON whitespace is {@code '{'}: a line that does not open an
     * object can only fail to parse as one, and {@link #error} words its error ({@code MALFORMED_OBJECT}) at once.
     */
    static boolean opensObject(String line) {
        int i = skipSpace(line, 0, line.length());
        return i >= 0 && line.charAt(i) == '{';
    }

    /** Walks the object starting at or after {@code from} (whitespace first) up to {@code to}. */
    private static String object(String s, int from, int to) {
        int i = skipSpace(s, from, to);
        if (i < 0 || s.charAt(i) != '{') {
            return MALFORMED_OBJECT;
        }
        i = skipSpace(s, i + 1, to);
        if (i < 0) {
            return MALFORMED_JSON;
        }
        if (s.charAt(i) == '}') {
            return null;
        }
        while (i < to) {
            char c = s.charAt(i);
            if (c == '}') {
                return null;
            }
            if (c != '"') {
                return MALFORMED_OBJECT;
            }
            int keyEnd = stringEnd(s, i + 1, to);
            if (keyEnd < 0) {
                return MALFORMED_JSON;
            }
            i = skipSpace(s, keyEnd, to);
            if (i < 0 || s.charAt(i) != ':') {
                return MALFORMED_JSON;
            }
            i = skipSpace(s, i + 1, to);
            if (i < 0) {
                return KEY_PATH_NOT_FOUND;
            }
            int valueEnd;
            char v = s.charAt(i);
            if (v == '"') {
                valueEnd = stringEnd(s, i + 1, to);
                if (valueEnd < 0) {
                    return MALFORMED_STRING;
                }
            } else if (v == '[') {
                valueEnd = blockEnd(s, i, to, '[', ']');
                if (valueEnd < 0) {
                    return MALFORMED_ARRAY;
                }
            } else if (v == '{') {
                valueEnd = blockEnd(s, i, to, '{', '}');
                if (valueEnd < 0) {
                    return MALFORMED_OBJECT;
                }
                String nested = object(s, i, valueEnd); // Loki descends into nested objects
                if (nested != null) {
                    return nested;
                }
            } else {
                valueEnd = tokenEnd(s, i, to);
                String literal = s.substring(i, valueEnd);
                boolean known = switch (v) {
                    case 't', 'f' -> literal.equals("true") || literal.equals("false");
                    case 'n', 'u' -> literal.equals("null");
                    case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> true;
                    default -> false;
                };
                if (!known) {
                    return UNKNOWN_VALUE;
                }
            }
            i = skipSpace(s, valueEnd, to);
            if (i < 0) {
                return MALFORMED_ARRAY; // sic: jsonparser's answer for an object cut after a value
            }
            if (s.charAt(i) == '}') {
                return null;
            }
            if (s.charAt(i) != ',') {
                return MALFORMED_OBJECT;
            }
            i = skipSpace(s, i + 1, to);
            if (i < 0) {
                return MALFORMED_ARRAY;
            }
        }
        return MALFORMED_OBJECT;
    }

    private static int skipSpace(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
        }
        return -1;
    }

    /** Index just past the closing quote of a string whose content starts at {@code from}; -1 if unclosed. */
    private static int stringEnd(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i + 1;
            }
        }
        return -1;
    }

    /** Index just past the bracket closing the one at {@code from}, skipping strings; -1 if unbalanced. */
    private static int blockEnd(String s, int from, int to, char open, char close) {
        int level = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                int end = stringEnd(s, i + 1, to);
                if (end < 0) {
                    return -1;
                }
                i = end - 1;
            } else if (c == open) {
                level++;
            } else if (c == close) {
                level--;
                if (level == 0) {
                    return i + 1;
                }
            }
        }
        return -1;
    }

    private static int tokenEnd(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            switch (s.charAt(i)) {
                case ' ', '\n', '\r', '\t', ',', '}', ']' -> {
                    return i;
                }
                default -> {
                }
            }
        }
        return to;
    }
}
