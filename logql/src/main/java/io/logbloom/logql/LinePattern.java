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

    /**
     * Parses a pattern as Loki's {@code pattern} package: a parser pattern ({@code | pattern}) needs at least one
     * named capture; a line filter pattern ({@code |>}, {@code !>}) needs none and may only use the unnamed {@code <_>}.
     */
    static LinePattern parse(String pattern, boolean parser) {
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
                        throw new IllegalArgumentException("found consecutive capture '<"
                                + parts.get(parts.size() - 1).name() + "><" + name + ">': invalid expression");
                    }
                    if (!parser && !name.equals("_")) {
                        throw new IllegalArgumentException("named captures are not allowed: found '<" + name + ">'");
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
        if (parser && parts.stream().noneMatch(p -> p.name() != null && !p.name().equals("_"))) {
            throw new IllegalArgumentException("at least one capture is required");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Part p : parts) {
            if (p.name() != null && !p.name().equals("_") && !names.add(p.name())) {
                throw new IllegalArgumentException("duplicate capture name (" + p.name() + "): invalid expression");
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

    /**
     * The line filter test ({@code |>}, {@code !>}), as Loki's pattern matcher: each literal is searched after
     * the previous one and must directly follow it only at the very start; a literal right after a capture at
     * the same position means an empty capture, which fails. A pattern ending in a literal must consume the
     * whole line, one ending in a capture must leave some text for it. An empty line matches only an empty
     * pattern.
     */
    boolean test(String line) {
        if (line.isEmpty() || parts.isEmpty()) {
            return line.isEmpty() && parts.isEmpty();
        }
        int offset = 0;
        for (int i = 0; i < parts.size(); i++) {
            String literal = parts.get(i).literal();
            if (literal == null) {
                continue;
            }
            int at = line.indexOf(literal, offset);
            if (at < 0 || i != 0 && at == offset) {
                return false;
            }
            offset = at + literal.length();
        }
        boolean endsInCapture = parts.get(parts.size() - 1).name() != null;
        return endsInCapture == (offset != line.length());
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
