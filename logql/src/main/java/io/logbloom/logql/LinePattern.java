package io.logbloom.logql;

import java.util.ArrayList;
import java.util.List;

/**
 * Loki's pattern syntax ({@code <ip> - <_> [<ts>] "<method> <path>"}): literals and named captures,
 * {@code <_>} an unnamed capture. Matching walks left to right: a leading literal must prefix the line, each
 * capture extends up to the next occurrence of the following literal, a trailing capture takes the rest.
 * Immutable and thread-safe.
 */
final class LinePattern {

    /** One literal ({@code name == null}) or capture part. */
    private record Part(String literal, String name) {
    }

    private final List<Part> parts;

    private LinePattern(List<Part> parts) {
        this.parts = List.copyOf(parts);
    }

    /** Parses a pattern; parser patterns need at least one named capture. */
    static LinePattern parse(String pattern, boolean requireNamedCapture) {
        List<Part> parts = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == '<') {
                int end = pattern.indexOf('>', i);
                String name = end < 0 ? null : pattern.substring(i + 1, end);
                if (name != null && (name.equals("_") || name.matches("[a-zA-Z_][a-zA-Z0-9_]*"))) {
                    if (lit.length() > 0) {
                        parts.add(new Part(lit.toString(), null));
                        lit.setLength(0);
                    }
                    if (!parts.isEmpty() && parts.get(parts.size() - 1).name() != null) {
                        throw new IllegalArgumentException("invalid pattern " + GoStrings.quote(pattern)
                                + ": consecutive captures are not allowed");
                    }
                    parts.add(new Part(null, name));
                    i = end + 1;
                    continue;
                }
            }
            lit.append(c);
            i++;
        }
        if (lit.length() > 0) {
            parts.add(new Part(lit.toString(), null));
        }
        boolean anyCapture = parts.stream().anyMatch(p -> p.name() != null);
        if (!anyCapture) {
            throw new IllegalArgumentException("invalid pattern " + GoStrings.quote(pattern)
                    + ": at least one capture is required");
        }
        if (requireNamedCapture && parts.stream().noneMatch(p -> p.name() != null && !p.name().equals("_"))) {
            throw new IllegalArgumentException("invalid pattern " + GoStrings.quote(pattern)
                    + ": at least one named capture is required");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Part p : parts) {
            if (p.name() != null && !p.name().equals("_") && !names.add(p.name())) {
                throw new IllegalArgumentException("invalid pattern " + GoStrings.quote(pattern)
                        + ": duplicate capture name " + p.name());
            }
        }
        return new LinePattern(parts);
    }

    /** The literal parts in order (all of them must occur in a matching line). */
    List<String> literals() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.literal() != null) {
                out.add(p.literal());
            }
        }
        return out;
    }

    /** Matches the line; returns name→value of named captures, or null when the line does not match. */
    java.util.Map<String, String> match(String line) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        int pos = 0;
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            if (p.literal() != null) {
                if (i == 0) {
                    if (!line.startsWith(p.literal())) {
                        return null;
                    }
                    pos = p.literal().length();
                } else {
                    pos += p.literal().length(); // already located by the preceding capture
                }
                continue;
            }
            int end;
            if (i + 1 < parts.size()) {
                String next = parts.get(i + 1).literal();
                end = line.indexOf(next, pos);
                if (end < 0) {
                    return null;
                }
            } else {
                end = line.length();
            }
            if (!p.name().equals("_")) {
                out.put(p.name(), line.substring(pos, end));
            }
            pos = end;
        }
        return out;
    }
}
