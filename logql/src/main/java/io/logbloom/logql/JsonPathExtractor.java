package io.logbloom.logql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The values {@code | json label="path", …} extracts from a line, as Loki's expression parser finds them (its scanner,
 * {@code jsonparser.EachKey}): each path takes the first member along it (a repeated key's later members do not count),
 * a string its unescaped text, a number, {@code true} or {@code false} its text as written, an object or an array its
 * text as written, {@code null} or a path that leads nowhere "" (so does every path of a line that is a string or an
 * array). An empty line gets nothing (the caller's test); a line whose first character is none of '{', '[', '"' gets
 * the parser's error; one that turns out malformed keeps the values read before the fault, as the scanner's matches
 * stand, without an error. Thread-safe: a parser per call.
 */
final class JsonPathExtractor {
    private final JsonFactory factory = new JsonFactory();
    private final List<List<Object>> paths = new ArrayList<>();

    /** An extractor of {@link JsonPath} {@code expressions}; throws IllegalArgumentException when one is malformed. */
    JsonPathExtractor(List<String> expressions) {
        for (String e : expressions) {
            paths.add(JsonPath.parse(e).steps());
        }
    }

    /**
     * Each path's value in the non-empty {@code line} (index by path), or null when the line does not start as JSON
     * (the parser's error, and no label). A top-level string or array gives every path "".
     */
    String[] extract(String line) {
        String[] found = new String[paths.size()];
        char first = line.charAt(0);
        if (first != '{' && first != '[' && first != '"') {
            return null;
        }
        try (JsonParser p = factory.createParser(line)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT) {
                container(p, t, line, new ArrayList<>(), found);
            }
        } catch (IOException malformed) {
            // what was found before the fault stays
        }
        for (int i = 0; i < found.length; i++) {
            if (found[i] == null) {
                found[i] = "";
            }
        }
        return found;
    }

    /** The members or elements of the container whose start {@code open} was read, at {@code at}. */
    private void container(JsonParser p, JsonToken open, String line, List<Object> at, String[] found)
            throws IOException {
        boolean object = open == JsonToken.START_OBJECT;
        int index = 0;
        while (true) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY || t == null) {
                return;
            }
            if (object) {
                at.add(p.currentName());
                t = p.nextToken();
            } else {
                at.add(index++);
            }
            value(p, t, line, at, found);
            at.remove(at.size() - 1);
        }
    }

    /** The value whose first token {@code t} was read, at path {@code at}. */
    private void value(JsonParser p, JsonToken t, String line, List<Object> at, String[] found) throws IOException {
        boolean ends = false;
        boolean deeper = false;
        for (int i = 0; i < paths.size(); i++) {
            if (found[i] != null) {
                continue;
            }
            List<Object> path = paths.get(i);
            if (path.size() >= at.size() && path.subList(0, at.size()).equals(at)) {
                ends |= path.size() == at.size();
                deeper |= path.size() > at.size();
            }
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            int start = (int) p.currentTokenLocation().getCharOffset();
            if (deeper) {
                container(p, t, line, at, found);
            } else {
                p.skipChildren();
            }
            if (ends) {
                set(at, line.substring(start, (int) p.currentTokenLocation().getCharOffset() + 1), found);
            }
        } else if (ends) {
            set(at, t == JsonToken.VALUE_NULL ? "" : p.getText(), found);
        }
    }

    private void set(List<Object> at, String value, String[] found) {
        for (int i = 0; i < paths.size(); i++) {
            if (found[i] == null && paths.get(i).equals(at)) {
                found[i] = value;
            }
        }
    }
}
