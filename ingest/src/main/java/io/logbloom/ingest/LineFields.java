package io.logbloom.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The fields of a log line as Loki's {@code json} and {@code logfmt} parsers see them, for level
 * detection and for Grafana Logs Drilldown's detected fields: a JSON object is flattened (nested keys
 * joined with {@code _}, arrays skipped, each field with its JSON path); any other line is read as
 * logfmt ({@code key=value}, {@code key="quoted \" value"}, a bare {@code key} has an empty value).
 * Field names keep only {@code [A-Za-z0-9_]} (others become {@code _}), as Loki sanitizes them; the
 * first occurrence of a name wins. Stateless and thread-safe.
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
        int first = 0;
        while (first < line.length() && Character.isWhitespace(line.charAt(first))) {
            first++;
        }
        int last = line.length() - 1;
        while (last >= first && Character.isWhitespace(line.charAt(last))) {
            last--;
        }
        return last > first && line.charAt(first) == '{' && line.charAt(last) == '}';
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
     * when there is none or the line is not a valid JSON object. Nothing is built for the other fields: level
     * detection wants one, and reads only top-level fields, as Loki's does (a nested field's flattened name, which
     * {@link #json} gives to whichever field comes first, never counts).
     */
    public static String firstTopLevelJsonValue(String line, Predicate<String> wanted) {
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

    /** The logfmt pairs of a line, in order. */
    public static Map<String, Field> logfmt(String line) {
        Map<String, Field> out = new LinkedHashMap<>();
        scanLogfmt(line, name -> !out.containsKey(name), (name, value) -> {
            out.put(name, new Field(name, value, List.of()));
            return false;
        });
        return out;
    }

    /**
     * The value of the first logfmt pair of {@code line} whose sanitized name {@code wanted} accepts, or null: what
     * {@link #logfmt} would hold for the first such name, read without the pairs after it and without the values of
     * the pairs before it (level detection wants one field, usually among a line's first).
     */
    public static String firstLogfmtValue(String line, Predicate<String> wanted) {
        String[] found = new String[1];
        scanLogfmt(line, wanted, (name, value) -> {
            found[0] = value;
            return true;
        });
        return found[0];
    }

    /**
     * Reads the logfmt pairs of {@code line} in order ({@code key=value}, {@code key="quoted \" value"}, a bare
     * {@code key} with an empty value; pairs with an empty key skipped) and hands {@code sink} the sanitized name
     * and value of each pair whose name {@code wanted} accepts; stops when {@code sink} returns true.
     */
    private static void scanLogfmt(String line, Predicate<String> wanted, BiPredicate<String, String> sink) {
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) != '=' && line.charAt(i) != ' ') {
                i++;
            }
            String name = i > keyStart ? sanitize(line.substring(keyStart, i)) : null;
            boolean wants = name != null && wanted.test(name);
            StringBuilder quoted = null;
            int valueStart = i;
            int valueEnd = i;
            if (i < n && line.charAt(i) == '=') {
                i++;
                if (i < n && line.charAt(i) == '"') {
                    quoted = wants ? new StringBuilder() : null;
                    i++;
                    while (i < n && line.charAt(i) != '"') {
                        if (line.charAt(i) == '\\' && i + 1 < n) {
                            i++;
                        }
                        if (quoted != null) {
                            quoted.append(line.charAt(i));
                        }
                        i++;
                    }
                    i++;
                } else {
                    valueStart = i;
                    while (i < n && line.charAt(i) != ' ') {
                        i++;
                    }
                    valueEnd = i;
                }
            }
            if (wants && sink.test(name, quoted != null ? quoted.toString() : line.substring(valueStart, valueEnd))) {
                return;
            }
        }
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
