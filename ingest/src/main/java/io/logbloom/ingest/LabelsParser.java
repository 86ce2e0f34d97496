package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a push stream's labels string in Prometheus/Loki selector syntax, {@code {a="b", c="d"}}.
 * Values may be double-quoted (Go escapes: {@code \a \b \f \n \r \t \v \\ \" \' \xHH \OOO \\uHHHH
 * \UHHHHHHHH}), single-quoted (same escapes) or back-quoted (raw). Only {@code =} is allowed, as
 * in Loki's push path. Pairs are returned in the order given, duplicates included, so the
 * validator can report them with Loki's message. Errors are {@link IllegalArgumentException}s
 * naming the 0-based character position. Stateless and thread-safe.
 */
public final class LabelsParser {
    private LabelsParser() {}

    /** Parses {@code text}; an empty selector {@code {}} yields an empty list. */
    public static List<Label> parse(String text) {
        Cursor c = new Cursor(text);
        c.skipSpace();
        c.expect('{');
        List<Label> pairs = new ArrayList<>();
        c.skipSpace();
        if (c.peek() == '}') {
            c.pos++;
        } else {
            while (true) {
                c.skipSpace();
                String name = c.name();
                c.skipSpace();
                if (c.peek() == '!' || (c.peek() == '=' && c.peekAt(1) == '~')) {
                    throw c.error("only '=' matchers are allowed in stream labels");
                }
                c.expect('=');
                c.skipSpace();
                String value = c.quoted();
                pairs.add(new Label(name, value));
                c.skipSpace();
                if (c.peek() == ',') {
                    c.pos++;
                    continue;
                }
                c.expect('}');
                break;
            }
        }
        c.skipSpace();
        if (c.pos != text.length()) {
            throw c.error("unexpected trailing characters");
        }
        return pairs;
    }

    /** Appends {@code value} with Go string escapes for a double-quoted literal. */
    static void appendEscaped(StringBuilder sb, String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> sb.append(ch);
            }
        }
    }

    private static final class Cursor {
        private final String text;
        private int pos;

        Cursor(String text) {
            this.text = text;
        }

        int peek() {
            return pos < text.length() ? text.charAt(pos) : -1;
        }

        int peekAt(int ahead) {
            return pos + ahead < text.length() ? text.charAt(pos + ahead) : -1;
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        void expect(char ch) {
            if (peek() != ch) {
                throw error("expected '" + ch + "'");
            }
            pos++;
        }

        String name() {
            int start = pos;
            while (pos < text.length()) {
                char ch = text.charAt(pos);
                boolean ok = ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
                        || (pos > start && ch >= '0' && ch <= '9');
                if (!ok) {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                throw error("expected a label name");
            }
            return text.substring(start, pos);
        }

        String quoted() {
            int quote = peek();
            if (quote != '"' && quote != '\'' && quote != '`') {
                throw error("expected a quoted label value");
            }
            int start = pos;
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= text.length()) {
                    pos = start;
                    throw error("unterminated string");
                }
                char ch = text.charAt(pos);
                if (ch == quote) {
                    pos++;
                    return sb.toString();
                }
                if (ch == '\\' && quote != '`') {
                    escape(sb, (char) quote);
                } else {
                    if (ch == '\n' && quote != '`') {
                        throw error("newline in string");
                    }
                    sb.append(ch);
                    pos++;
                }
            }
        }

        private void escape(StringBuilder sb, char quote) {
            int at = pos;
            pos++;
            if (pos >= text.length()) {
                pos = at;
                throw error("unterminated escape sequence");
            }
            char ch = text.charAt(pos++);
            switch (ch) {
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'v' -> sb.append('\u000b');
                case '\\' -> sb.append('\\');
                case '"', '\'' -> {
                    if (ch != quote) {
                        pos = at;
                        throw error("invalid escape sequence '\\" + ch + "'");
                    }
                    sb.append(ch);
                }
                case 'x' -> sb.appendCodePoint(hex(at, 2));
                case 'u' -> sb.appendCodePoint(hex(at, 4));
                case 'U' -> sb.appendCodePoint(hex(at, 8));
                default -> {
                    if (ch >= '0' && ch <= '7') {
                        pos--;
                        int value = 0;
                        for (int i = 0; i < 3; i++) {
                            int d = peek() - '0';
                            if (d < 0 || d > 7) {
                                pos = at;
                                throw error("invalid octal escape sequence");
                            }
                            value = value * 8 + d;
                            pos++;
                        }
                        if (value > 255) {
                            pos = at;
                            throw error("octal escape value > 255: " + value);
                        }
                        sb.append((char) value);
                    } else {
                        pos = at;
                        throw error("invalid escape sequence '\\" + ch + "'");
                    }
                }
            }
        }

        private int hex(int at, int digits) {
            if (pos + digits > text.length()) {
                pos = at;
                throw error("truncated escape sequence");
            }
            int value;
            try {
                value = Integer.parseUnsignedInt(text.substring(pos, pos + digits), 16);
            } catch (NumberFormatException e) {
                pos = at;
                throw error("invalid hex escape sequence");
            }
            if (!Character.isValidCodePoint(value) || (value >= 0xD800 && value <= 0xDFFF)) {
                pos = at;
                throw error("escape sequence is an invalid Unicode code point");
            }
            pos += digits;
            return value;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at position " + pos + " in '" + text + "'");
        }
    }
}
