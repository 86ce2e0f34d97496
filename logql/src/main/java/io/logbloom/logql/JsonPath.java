package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;

/**
 * A json-stage extraction expression such as {@code servers[0].name} or {@code headers["User-Agent"]}:
 * a list of object keys (String) and array indexes (Integer). Immutable and thread-safe.
 */
record JsonPath(List<Object> steps) {

    JsonPath {
        steps = List.copyOf(steps);
    }

    /** Parses the expression; throws IllegalArgumentException naming it when malformed. */
    static JsonPath parse(String expr) {
        List<Object> steps = new ArrayList<>();
        int i = 0;
        int n = expr.length();
        StringBuilder key = new StringBuilder();
        while (i < n) {
            char c = expr.charAt(i);
            if (c == '.') {
                if (key.length() == 0 && (steps.isEmpty() || i == 0)) {
                    throw bad(expr);
                }
                if (key.length() > 0) {
                    steps.add(key.toString());
                    key.setLength(0);
                }
                i++;
            } else if (c == '[') {
                if (key.length() > 0) {
                    steps.add(key.toString());
                    key.setLength(0);
                }
                int end;
                if (i + 1 < n && expr.charAt(i + 1) == '"') {
                    end = expr.indexOf("\"]", i + 2);
                    if (end < 0) {
                        throw bad(expr);
                    }
                    steps.add(expr.substring(i + 2, end));
                    i = end + 2;
                } else {
                    end = expr.indexOf(']', i);
                    if (end < 0) {
                        throw bad(expr);
                    }
                    try {
                        steps.add(Integer.parseInt(expr.substring(i + 1, end).trim()));
                    } catch (NumberFormatException e) {
                        throw bad(expr);
                    }
                    i = end + 1;
                }
            } else {
                key.append(c);
                i++;
            }
        }
        if (key.length() > 0) {
            steps.add(key.toString());
        }
        if (steps.isEmpty()) {
            throw bad(expr);
        }
        return new JsonPath(steps);
    }

    private static IllegalArgumentException bad(String expr) {
        return new IllegalArgumentException("invalid json expression " + GoStrings.quote(expr));
    }
}
