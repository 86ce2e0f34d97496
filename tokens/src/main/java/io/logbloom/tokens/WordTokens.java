package io.logbloom.tokens;

import io.logbloom.bloom.BloomHash;
import java.util.ArrayList;
import java.util.List;

/**
 * The word-token rule, shared by the write side (words of a line, over its UTF-8 bytes) and the query side
 * (the words a literal proves). Stateless and thread-safe.
 *
 * <p><b>Rule.</b> A word is a maximal run of token characters; token characters are the ASCII letters, ASCII
 * digits, {@code _}, and <em>every</em> non-ASCII code point. VictoriaLogs ({@code lib/logstorage/tokenizer.go})
 * uses Unicode letters, digits and {@code _}; we deliberately differ above ASCII: classifying non-ASCII code
 * points by the JDK's Unicode tables would make a bloom written under one JDK's Unicode version unsound to read
 * under another (a code point assigned as a letter later would join words on the query side that the writer
 * split), and it would need decoding. With this rule the class of a UTF-8 byte is decided by the byte alone
 * (every byte {@code >= 0x80} belongs to a non-ASCII code point), so the ingest scan is one table lookup per
 * byte. Text in scripts without ASCII separators (CJK) forms long words under both rules.
 *
 * <p><b>Soundness on the query side.</b> A line containing the literal contains every character of it, so a run
 * of token characters inside the literal with a non-token character right before and right after it, both
 * inside the literal, is a maximal run of the line too: the line holds that word. A run touching either end of
 * the literal may continue in the line, so it proves nothing; a literal holding an unpaired surrogate proves
 * nothing (the line's UTF-8 encoding replaces it by {@code ?}, so the words would not line up).
 *
 * <p><b>Digits are not indexed.</b> A word of ASCII digits only ({@code 200}, {@code 48213}) is neither added
 * on the write side nor proven on the query side. Numbers are most of a log line's distinct words (ids,
 * durations, sizes, line numbers), so they were most of the bloom bytes, and a needle rarely hinges on a bare
 * number. Leaving them out is sound because both sides apply the rule: a query never requires a word the
 * writer did not add. Blooms written before the rule still hold digit words; they are simply never asked.
 *
 * <p><b>Hashing.</b> A word token is {@code combine(combine(chunkScope, WORD_DOMAIN), hash(utf8 word))}: the
 * domain constant keeps a word apart from a metadata key or an n-gram with the same text, which would otherwise
 * share its bloom bits and weaken both.
 */
public final class WordTokens {
    /** Whether words of ASCII digits only are indexed: no (see "Digits are not indexed" above). */
    public static final boolean DIGIT_ONLY_WORDS_INDEXED = false;

    /** Separates word tokens from metadata and n-gram tokens of the same text; never change (stored blooms). */
    static final long WORD_DOMAIN = 0x776f72642d746f6bL; // "word-tok"

    private static final boolean[] ASCII_TOKEN = new boolean[128];

    static {
        for (int c = 0; c < 128; c++) {
            ASCII_TOKEN[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
        }
    }

    private WordTokens() {
    }

    /** Receives the byte ranges of words. */
    @FunctionalInterface
    public interface WordSink {
        /** One word: {@code length} bytes of {@code utf8} from {@code offset}. */
        void word(byte[] utf8, int offset, int length);
    }

    /** Whether the UTF-8 byte belongs to a token character. */
    public static boolean isTokenByte(byte b) {
        return b < 0 || ASCII_TOKEN[b];
    }

    /** Whether the UTF-16 char belongs to a token character (surrogates are non-ASCII, hence token). */
    public static boolean isTokenChar(char c) {
        return c >= 128 || ASCII_TOKEN[c];
    }

    /**
     * Feeds every indexed word (not all ASCII digits) of {@code length} UTF-8 bytes of {@code utf8} from
     * {@code offset} to {@code sink}.
     */
    public static void forEachWord(byte[] utf8, int offset, int length, WordSink sink) {
        int end = offset + length;
        int start = -1;
        boolean digitsOnly = true;
        for (int i = offset; i < end; i++) {
            byte b = utf8[i];
            if (b < 0 || ASCII_TOKEN[b]) {
                if (start < 0) {
                    start = i;
                    digitsOnly = !DIGIT_ONLY_WORDS_INDEXED;
                }
                digitsOnly &= b >= '0' && b <= '9';
            } else if (start >= 0) {
                if (!digitsOnly) {
                    sink.word(utf8, start, i - start);
                }
                start = -1;
            }
        }
        if (start >= 0 && !digitsOnly) {
            sink.word(utf8, start, end - start);
        }
    }

    /** Whether the word of {@code length} UTF-8 bytes of {@code utf8} from {@code offset} is indexed: not ASCII digits only. */
    static boolean indexed(byte[] utf8, int offset, int length) {
        if (DIGIT_ONLY_WORDS_INDEXED) {
            return true;
        }
        for (int i = offset, end = offset + length; i < end; i++) {
            if (utf8[i] < '0' || utf8[i] > '9') {
                return true;
            }
        }
        return false;
    }

    /** The indexed words of a line, as strings (tests and tools; the ingest path uses {@link #forEachWord}). */
    public static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < line.length(); i++) {
            if (isTokenChar(line.charAt(i))) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                addIndexed(out, line.substring(start, i));
                start = -1;
            }
        }
        if (start >= 0) {
            addIndexed(out, line.substring(start));
        }
        return out;
    }

    /** Whether {@code word} is indexed: not made of ASCII digits only. */
    public static boolean indexed(String word) {
        if (DIGIT_ONLY_WORDS_INDEXED) {
            return true;
        }
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c < '0' || c > '9') {
                return true;
            }
        }
        return false;
    }

    private static void addIndexed(List<String> out, String word) {
        if (indexed(word)) {
            out.add(word);
        }
    }

    /**
     * The indexed words every line containing {@code literal} holds: the runs of token characters bounded on both
     * sides by a non-token character inside the literal, except runs of digits only. Empty when the literal holds
     * an unpaired surrogate.
     */
    public static List<String> provenWords(String literal) {
        List<String> out = new ArrayList<>();
        int start = -1;
        boolean sawBoundary = false;
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (Character.isSurrogate(c) && !pairedSurrogate(literal, i)) {
                return List.of();
            }
            if (isTokenChar(c)) {
                if (start < 0) {
                    start = i;
                }
            } else {
                if (start >= 0 && sawBoundary) {
                    addIndexed(out, literal.substring(start, i));
                }
                start = -1;
                sawBoundary = true;
            }
        }
        return out;
    }

    /** The scope of word tokens of the chunk whose scope hash is {@code chunkScope}. */
    public static long wordScope(long chunkScope) {
        return BloomHash.combine(chunkScope, WORD_DOMAIN);
    }

    /** The word token of {@code word} in the chunk stored under {@code objectKey}. */
    public static long wordHash(String objectKey, String word) {
        return BloomHash.combine(wordScope(BloomTokenizer.chunkScope(objectKey)), BloomHash.hash(word));
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
