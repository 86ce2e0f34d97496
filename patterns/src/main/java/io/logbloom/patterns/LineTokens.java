package io.logbloom.patterns;

/**
 * A line split into Drain tokens: words separated by spaces, and a {@code key=value} word split after
 * its {@code =} so that logfmt keys stay constant while values vary ({@code level=<_>}). Each token
 * remembers whether a space followed it, so a template prints back in the line's own layout.
 * Consecutive wildcards glued together print as one. Immutable after construction.
 */
final class LineTokens {
    final String[] tokens;
    final boolean[] spaceAfter;

    private LineTokens(String[] tokens, boolean[] spaceAfter) {
        this.tokens = tokens;
        this.spaceAfter = spaceAfter;
    }

    /** Tokenizes {@code line} (leading and trailing spaces ignored). */
    static LineTokens of(String line) {
        String[] tokens = new String[16];
        boolean[] spaces = new boolean[16];
        int count = 0;
        int n = line.length();
        int i = 0;
        while (i < n && line.charAt(i) == ' ') {
            i++;
        }
        while (i < n) {
            int start = i;
            int eq = -1;
            while (i < n && line.charAt(i) != ' ') {
                if (eq < 0 && line.charAt(i) == '=') {
                    eq = i;
                }
                i++;
            }
            int end = i;
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (count + 2 > tokens.length) {
                tokens = java.util.Arrays.copyOf(tokens, tokens.length * 2);
                spaces = java.util.Arrays.copyOf(spaces, spaces.length * 2);
            }
            if (eq > start && eq < end - 1) {
                tokens[count] = line.substring(start, eq + 1);
                spaces[count++] = false;
                tokens[count] = line.substring(eq + 1, end);
            } else {
                tokens[count] = line.substring(start, end);
            }
            spaces[count++] = i < n;
        }
        return new LineTokens(java.util.Arrays.copyOf(tokens, count), java.util.Arrays.copyOf(spaces, count));
    }

    /** The template text of {@code tokens} laid out with {@code spaceAfter}. */
    static String join(String[] tokens, boolean[] spaceAfter) {
        StringBuilder sb = new StringBuilder();
        boolean lastWasGluedParam = false;
        for (int i = 0; i < tokens.length; i++) {
            boolean param = tokens[i].equals(DrainConfig.PARAM);
            if (!(param && lastWasGluedParam)) {
                sb.append(tokens[i]);
            }
            lastWasGluedParam = param && !spaceAfter[i];
            if (spaceAfter[i]) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }
}
