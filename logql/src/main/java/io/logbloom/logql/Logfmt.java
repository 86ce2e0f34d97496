package io.logbloom.logql;

/**
 * A logfmt decoder ({@code key=value key="quoted \"value\"" standalone}). In lenient mode malformed pairs are
 * skipped; in strict mode the first one raises IllegalArgumentException naming its position. Stateless.
 */
final class Logfmt {

    /** Receives decoded pairs; standalone is true for a key without '='. */
    interface Sink {
        void accept(String key, String value, boolean standalone);
    }

    private Logfmt() {
    }

    static void decode(String line, boolean strict, Sink sink) {
        int n = line.length();
        int i = 0;
        while (i < n) {
            while (i < n && line.charAt(i) <= ' ') {
                i++;
            }
            if (i >= n) {
                break;
            }
            int keyStart = i;
            while (i < n && line.charAt(i) > ' ' && line.charAt(i) != '=' && line.charAt(i) != '"') {
                i++;
            }
            String key = line.substring(keyStart, i);
            if (key.isEmpty()) {
                if (strict) {
                    throw new IllegalArgumentException("logfmt syntax error at pos " + (i + 1) + " : unexpected '"
                            + line.charAt(i) + "'");
                }
                i = skipToken(line, i);
                continue;
            }
            if (i >= n || line.charAt(i) <= ' ') {
                sink.accept(key, "", true);
                continue;
            }
            if (line.charAt(i) == '"') {
                if (strict) {
                    throw new IllegalArgumentException("logfmt syntax error at pos " + (i + 1) + " : unexpected '\"'");
                }
                i = skipToken(line, i);
                continue;
            }
            i++; // '='
            if (i >= n || line.charAt(i) <= ' ') {
                sink.accept(key, "", false);
                continue;
            }
            if (line.charAt(i) == '"') {
                StringBuilder sb = new StringBuilder();
                i++;
                boolean closed = false;
                while (i < n) {
                    char c = line.charAt(i);
                    if (c == '\\' && i + 1 < n) {
                        char e = line.charAt(i + 1);
                        switch (e) {
                            case 'n' -> sb.append('\n');
                            case 't' -> sb.append('\t');
                            case 'r' -> sb.append('\r');
                            default -> sb.append(e);
                        }
                        i += 2;
                        continue;
                    }
                    if (c == '"') {
                        closed = true;
                        i++;
                        break;
                    }
                    sb.append(c);
                    i++;
                }
                if (!closed) {
                    if (strict) {
                        throw new IllegalArgumentException("logfmt syntax error at pos " + (n + 1) + " : unterminated quoted value");
                    }
                    break;
                }
                if (i < n && line.charAt(i) > ' ') {
                    if (strict) {
                        throw new IllegalArgumentException("logfmt syntax error at pos " + (i + 1) + " : unexpected '"
                                + line.charAt(i) + "'");
                    }
                    i = skipToken(line, i);
                    continue;
                }
                sink.accept(key, sb.toString(), false);
            } else {
                int valueStart = i;
                while (i < n && line.charAt(i) > ' ') {
                    char c = line.charAt(i);
                    if ((c == '"' || c == '=') && strict) {
                        throw new IllegalArgumentException("logfmt syntax error at pos " + (i + 1) + " : unexpected '"
                                + c + "'");
                    }
                    i++;
                }
                sink.accept(key, line.substring(valueStart, i), false);
            }
        }
    }

    private static int skipToken(String line, int i) {
        int n = line.length();
        boolean quoted = false;
        while (i < n) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\\' && quoted) {
                i++;
            } else if (c <= ' ' && !quoted) {
                break;
            }
            i++;
        }
        return i;
    }
}
