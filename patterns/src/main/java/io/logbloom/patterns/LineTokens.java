package io.logbloom.patterns;

import java.util.ArrayList;
import java.util.List;

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
        List<String> tokens = new ArrayList<>();
        List<Boolean> spaces = new ArrayList<>();
        int n = line.length();
        int i = 0;
        while (i < n && line.charAt(i) == ' ') {
            i++;
        }
        while (i < n) {
            int start = i;
            while (i < n && line.charAt(i) != ' ') {
                i++;
            }
            String word = line.substring(start, i);
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int eq = word.indexOf('=');
            if (eq > 0 && eq < word.length() - 1) {
                tokens.add(word.substring(0, eq + 1));
                spaces.add(false);
                tokens.add(word.substring(eq + 1));
            } else {
                tokens.add(word);
            }
            spaces.add(i < n);
        }
        boolean[] spaceAfter = new boolean[spaces.size()];
        for (int k = 0; k < spaceAfter.length; k++) {
            spaceAfter[k] = spaces.get(k);
        }
        return new LineTokens(tokens.toArray(new String[0]), spaceAfter);
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
