package io.logbloom.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The fields of a log line as Loki's {@code json} and {@code logfmt} parsers see them, for level
 * detection and (JSON lines) Grafana Logs Drilldown's detected fields: a JSON object is flattened (nested keys
 * joined with {@code _}, arrays skipped, each field with its JSON path); level detection reads any other line as
 * logfmt ({@code key=value}, {@code key="quoted \" value"}, a bare {@code key} has an empty value). Field names
 * keep only {@code [A-Za-z0-9_]} (others become {@code _}), as Loki sanitizes them; the first occurrence of a name
 * wins. Detected fields of other lines are what {@code | logfmt} extracts ({@code io.logbloom.logql.LogfmtFields}).
 * Stateless and thread-safe.
 */
public final class LineFields {
    private static final JsonFactory JSON = new JsonFactory();

    private LineFields() {}

    /** One field of a line: sanitized name, value, and for JSON its key path (empty for logfmt). */
    public record Field(String name, String value, List<String> jsonPath) {
        public Field {
            jsonPath = List.copyOf(jsonPath);
        }
    }

    /** Whether the line is a JSON object by Loki's test: first and last non-space characters are braces. */
    public static boolean isJson(String line) {
        return isJson(line.getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #isJson(String)} of a line given as UTF-8 ({@link Character#isWhitespace} spaces, Unicode ones too). */
    public static boolean isJson(byte[] line) {
        int first = 0;
        int end = line.length;
        while (first < end) {
            int width = width(line, first, end);
            if (!isWhitespace(line, first, width)) {
                break;
            }
            first += width;
        }
        while (end > first) {
            int start = end - 1;
            while (start > first && (line[start] & 0xC0) == 0x80) { // back over continuation bytes
                start--;
            }
            if (!isWhitespace(line, start, end - start)) {
                break;
            }
            end = start;
        }
        return end - 1 > first && line[first] == '{' && line[end - 1] == '}';
    }

    /** The bytes of the UTF-8 sequence at {@code i} (its lead byte's count, cut at {@code end}). */
    private static int width(byte[] line, int i, int end) {
        int b = line[i] & 0xFF;
        int w = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        return Math.min(w, end - i);
    }

    private static boolean isWhitespace(byte[] line, int at, int width) {
        if (width == 1 && line[at] >= 0) {
            return Character.isWhitespace((char) line[at]);
        }
        String c = new String(line, at, width, StandardCharsets.UTF_8); // rare: a non-ASCII character at an end
        return c.length() == 1 && Character.isWhitespace(c.charAt(0));
    }

    /** The flattened fields of a JSON object line; empty when it is not valid JSON. */
    public static Map<String, Field> json(String line) {
        Map<String, Field> out = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return out;
            }
            object(p, new ArrayList<>(), out);
        } catch (IOException malformed) {
            return new LinkedHashMap<>();
        }
        return out;
    }

    /**
     * The value of the first top-level field of a JSON object line whose sanitized name {@code wanted} accepts (as
     * {@link #json} would hold it: text of a scalar, empty for null; arrays and objects are not such fields), or null
     * when there is none or the UTF-8 line is not a valid JSON object. Nothing is built for the other fields: level
     * detection wants one, and reads only top-level fields, as Loki's does (a nested field's flattened name, which
     * {@link #json} gives to whichever field comes first, never counts).
     */
    public static String firstTopLevelJsonValue(byte[] line, Predicate<String> wanted) {
        for (int i = 0; i < Math.min(4, line.length); i++) {
            if (line[i] == 0) {
                // Jackson would read these bytes as UTF-16 or UTF-32; as text, a NUL next to the brace is no JSON
                return null;
            }
        }
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String found = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                if (found == null && value.isScalarValue() && wanted.test(sanitize(key))) {
                    found = value == JsonToken.VALUE_NULL ? "" : p.getText();
                } else {
                    p.skipChildren();
                }
            }
            return found; // read to the object's end: json() of a malformed line has no fields
        } catch (IOException malformed) {
            return null;
        }
    }

    private static void object(JsonParser p, List<String> path, Map<String, Field> out) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken value = p.nextToken();
            path.add(key);
            if (value == JsonToken.START_OBJECT) {
                object(p, path, out);
            } else if (value == JsonToken.START_ARRAY) {
                p.skipChildren();
            } else {
                String name = sanitize(String.join("_", path));
                out.putIfAbsent(name, new Field(name, value == JsonToken.VALUE_NULL ? "" : p.getText(), path));
            }
            path.remove(path.size() - 1);
        }
    }

    /**
     * The value of the first logfmt pair of the UTF-8 {@code line} whose sanitized name {@code wanted} accepts, or
     * null, read without the pairs after it and without the values of the pairs before it (level detection wants one
     * field, usually among a line's first).
     */
    public static String firstLogfmtValue(byte[] line, Predicate<String> wanted) {
        String[] found = new String[1];
        scanLogfmt(line, wanted, (name, value) -> {
            found[0] = value;
            return true;
        });
        return found[0];
    }

    /**
     * Reads the logfmt pairs of the UTF-8 {@code line} in order ({@code key=value}, {@code key="quoted \" value"}, a
     * bare {@code key} with an empty value; pairs with an empty key skipped) and hands {@code sink} the sanitized name
     * and value of each pair whose name {@code wanted} accepts; stops when {@code sink} returns true. The delimiters
     * are ASCII, which no byte of a multi-byte UTF-8 character equals, so the bytes split as the characters would.
     */
    private static void scanLogfmt(byte[] line, Predicate<String> wanted, BiPredicate<String, String> sink) {
        int i = 0;
        int n = line.length;
        byte[] quoted = null; // unescaped bytes of a wanted quoted value, reused
        while (i < n) {
            while (i < n && line[i] == ' ') {
                i++;
            }
            int keyStart = i;
            while (i < n && line[i] != '=' && line[i] != ' ') {
                i++;
            }
            String name = i > keyStart ? name(line, keyStart, i) : null;
            boolean wants = name != null && wanted.test(name);
            int quotedLength = -1;
            int valueStart = i;
            int valueEnd = i;
            if (i < n && line[i] == '=') {
                i++;
                if (i < n && line[i] == '"') {
                    if (wants) {
                        quoted = quoted == null || quoted.length < n ? new byte[n] : quoted;
                        quotedLength = 0;
                    }
                    i++;
                    while (i < n && line[i] != '"') {
                        if (line[i] == '\\' && i + 1 < n) {
                            i++;
                        }
                        if (quotedLength >= 0) {
                            quoted[quotedLength++] = line[i];
                        }
                        i++;
                    }
                    i++;
                } else {
                    valueStart = i;
                    while (i < n && line[i] != ' ') {
                        i++;
                    }
                    valueEnd = i;
                }
            }
            if (wants && sink.test(name, quotedLength >= 0 ? new String(quoted, 0, quotedLength, StandardCharsets.UTF_8)
                    : new String(line, valueStart, valueEnd - valueStart, StandardCharsets.UTF_8))) {
                return;
            }
        }
    }

    /** The sanitized name of the key {@code line[from, to)}: ASCII built as it is, anything else decoded first. */
    private static String name(byte[] line, int from, int to) {
        for (int i = from; i < to; i++) {
            if (line[i] < 0) {
                return sanitize(new String(line, from, to - from, StandardCharsets.UTF_8));
            }
        }
        char[] name = new char[to - from];
        for (int i = from; i < to; i++) {
            char c = (char) line[i];
            name[i - from] = Character.isLetterOrDigit(c) || c == '_' ? c : '_';
        }
        return new String(name);
    }

    /** A field name with every character outside {@code [A-Za-z0-9_]} replaced by {@code _}. */
    static String sanitize(String key) {
        StringBuilder sb = null;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
            if (!ok && sb == null) {
                sb = new StringBuilder(key.length()).append(key, 0, i);
            }
            if (sb != null) {
                sb.append(ok ? c : '_');
            }
        }
        return sb == null ? key : sb.toString();
    }
}
