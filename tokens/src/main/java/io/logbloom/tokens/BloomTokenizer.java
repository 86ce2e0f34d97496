package io.logbloom.tokens;

import io.logbloom.bloom.BloomHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The token format shared by ingest (writes series blooms) and querier (tests them). Pure
 * functions plus one configured instance; immutable and thread-safe.
 *
 * <p><b>Tokens.</b> A structured-metadata field (k, v) yields {@code k} and {@code k=v}, each
 * <em>chunk-scoped</em> with hash {@code combine(hash(chunk object key), hash(token))}, so one series
 * bloom answers "may chunk C contain token T" (Loki's chunk-prefixed tokens, seed 000). Unscoped
 * tokens are not written: no query reads them (a series-level prefilter would save a few probes per
 * chunk, while the tokens doubled the metadata part of every bloom). With word tokens on, every line
 * yields its chunk-scoped words ({@link WordTokens}). In n-gram mode every line also yields
 * chunk-scoped n-grams of {@code ngramLength} code points starting at positions 0, s+1, 2(s+1), …
 * (s = skip), case-sensitive.
 *
 * <p><b>Query side.</b> A literal may be found at any offset of a line, so only some of its
 * positions were indexed. {@link #ngramAlignments} lists, for each of the s+1 alignments of the
 * literal to the indexed positions, the n-grams lying wholly inside the literal: a chunk can contain
 * the literal only if, for some alignment, all of that alignment's n-grams are in the bloom; an
 * alignment with no n-gram means the chunk cannot be skipped.
 *
 * <p><b>Cost.</b> Loki removed n-gram blooms because a line of L code points yields about L/(s+1)
 * tokens, each a hash plus k bit probes, which makes blooms several times larger than the chunk's
 * metadata tokens; bench's {@code IngestBloomReport} measures the ratio. Skip trades recall of short
 * literals for that cost: a literal needs at least n + s code points to be testable at every
 * alignment.
 */
public final class BloomTokenizer {
    private final BloomTokenizerConfig config;

    /** A tokenizer with the given settings. */
    public BloomTokenizer(BloomTokenizerConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
    }

    /** The settings of this tokenizer. */
    public BloomTokenizerConfig config() {
        return config;
    }

    /** The hash of the scope of the chunk stored under {@code objectKey}: {@code hash(objectKey)}. */
    public static long chunkScope(String objectKey) {
        return BloomHash.hash(objectKey);
    }

    /** The chunk-scoped hash of {@code token}: {@code combine(hash(objectKey), hash(token))}. */
    public static long chunkScopedHash(String objectKey, String token) {
        return BloomHash.combine(chunkScope(objectKey), BloomHash.hash(token));
    }

    /** The tokens of one structured-metadata field: {@code name} and {@code name=value}. */
    public static List<String> metadataTokens(String name, String value) {
        return List.of(name, name + "=" + value);
    }

    /** The n-grams of {@code line} indexed at positions 0, skip+1, 2(skip+1), … (code points). */
    public static List<String> ngrams(String line, int n, int skip) {
        List<String> out = new ArrayList<>();
        forEachNgram(line, n, skip, (start, end) -> out.add(line.substring(start, end)));
        return out;
    }

    /**
     * For each of the {@code skip + 1} alignments of {@code literal} against indexed positions, the
     * n-grams fully inside the literal; an empty inner list means that alignment cannot be tested.
     */
    public static List<List<String>> ngramAlignments(String literal, int n, int skip) {
        int[] offsets = literal.codePoints().toArray();
        int codePoints = offsets.length;
        int[] charIndex = new int[codePoints + 1];
        for (int i = 0, c = 0; i < codePoints; i++) {
            charIndex[i] = c;
            c += Character.charCount(offsets[i]);
            charIndex[i + 1] = c;
        }
        int step = skip + 1;
        List<List<String>> alignments = new ArrayList<>(step);
        for (int a = 0; a < step; a++) {
            List<String> grams = new ArrayList<>();
            // the literal starts at a line offset o with o ≡ -a (mod step); position i is indexed iff i ≡ a (mod step)
            for (int i = a; i + n <= codePoints; i += step) {
                grams.add(literal.substring(charIndex[i], charIndex[i + n]));
            }
            alignments.add(List.copyOf(grams));
        }
        return List.copyOf(alignments);
    }

    /**
     * Starts tokenizing the chunk stored under {@code objectKey}: feed it each entry's metadata and line,
     * and every token hash goes to {@code sink} (a token may be fed more than once).
     */
    public ChunkTokens chunk(String objectKey, LongConsumer sink) {
        return new ChunkTokens(config, chunkScope(objectKey), sink);
    }

    /**
     * The tokens of one chunk, fed entry by entry. Lines are encoded to UTF-8 once into a reused buffer
     * (ASCII lines by a plain copy loop) and scanned as bytes: no String per line, word or n-gram. A word
     * or metadata name already fed in this chunk is not hashed and fed again ({@link SeenWords}, a few
     * recent names): the sink sees each token at least once, repeats mostly not. Not thread-safe: one
     * instance per chunk being tokenized.
     */
    public static final class ChunkTokens {
        /** Rows rarely carry more structured-metadata fields than this; more only feed repeats again. */
        private static final int RECENT_NAMES = 8;
        private final LongConsumer sink;
        private final long scope;
        private final long wordScope;
        private final boolean words;
        private final boolean ngrams;
        private final int n;
        private final int skip;
        private final WordTokens.WordSink wordSink;
        private byte[] utf8 = new byte[256];
        /** Metadata names whose token was fed, round robin: a row's few fields repeat on every row. */
        private final String[] recentNames = new String[RECENT_NAMES];
        private int nextNameSlot;
        private int[] starts = new int[257];
        /** Scratch for a {@code name=value} token built from bytes. */
        private byte[] pair = new byte[128];

        private ChunkTokens(BloomTokenizerConfig config, long scope, LongConsumer sink) {
            this.sink = Objects.requireNonNull(sink, "sink is null");
            this.scope = scope;
            this.wordScope = WordTokens.wordScope(scope);
            this.words = config.wordTokensEnabled();
            this.ngrams = config.ngramEnabled();
            this.n = config.ngramLength();
            this.skip = config.ngramSkip();
            SeenWords seen = new SeenWords();
            this.wordSink = (bytes, offset, length) -> {
                if (seen.firstTime(bytes, offset, length)) {
                    sink.accept(BloomHash.combine(wordScope, BloomHash.hash(bytes, offset, length)));
                }
            };
        }

        /** Adds the chunk-scoped tokens of one structured-metadata field. */
        public void metadata(String name, String value) {
            if (!recentlyFed(name)) {
                sink.accept(BloomHash.combine(scope, BloomHash.hash(name)));
                recentNames[nextNameSlot] = name;
                nextNameSlot = (nextNameSlot + 1) % recentNames.length;
            }
            sink.accept(BloomHash.combine(scope, BloomHash.hash(name + "=" + value)));
        }

        /**
     * As {@link #metadata(String, String)} with the name's UTF-8 bytes and the value as UTF-8 bytes
     * {@code value[start, end)}: the same tokens (the {@code name=value} token hashes the same UTF-8 bytes),
     * built in a scratch array instead of a concatenated string per row.
     */
    public void metadata(String name, byte[] nameUtf8, byte[] value, int start, int end) {
        if (!recentlyFed(name)) {
            sink.accept(BloomHash.combine(scope, BloomHash.hash(nameUtf8)));
            recentNames[nextNameSlot] = name;
            nextNameSlot = (nextNameSlot + 1) % recentNames.length;
        }
        int length = nameUtf8.length + 1 + end - start;
        if (pair.length < length) {
            pair = new byte[Math.max(length, pair.length * 2)];
        }
        System.arraycopy(nameUtf8, 0, pair, 0, nameUtf8.length);
        pair[nameUtf8.length] = '=';
        System.arraycopy(value, start, pair, nameUtf8.length + 1, end - start);
        sink.accept(BloomHash.combine(scope, BloomHash.hash(pair, 0, length)));
    }

    /** Whether {@code name}'s token was fed among the last few names (rows repeat the same few fields). */
        private boolean recentlyFed(String name) {
            for (String recent : recentNames) {
                if (name.equals(recent)) {
                    return true;
                }
            }
            return false;
        }

        /** Adds the word tokens and n-grams of one line (per the configuration). */
        public void line(String line) {
            if (!words && !ngrams) {
                return;
            }
            int length = encode(line);
            line(utf8, 0, length);
        }

        /** Adds the word tokens and n-grams of one line given as {@code length} UTF-8 bytes from {@code offset}. */
        public void line(byte[] bytes, int offset, int length) {
            if (words) {
                WordTokens.forEachWord(bytes, offset, length, wordSink);
            }
            lineNgrams(bytes, offset, length);
        }

        /**
         * Adds the n-grams of one line given as {@code length} UTF-8 bytes from {@code offset}, not its word tokens:
         * for a chunk whose lines' words come split already ({@link #word}). Nothing unless n-grams are enabled.
         */
        public void lineNgrams(byte[] bytes, int offset, int length) {
            if (ngrams) {
                ngramHashes(bytes, offset, length);
            }
        }

        /**
         * Adds the word token of one word of a line, {@code length} UTF-8 bytes from {@code offset}, split by
         * {@link WordTokens}' rule elsewhere (a line encoder that splits lines anyway); a word of ASCII digits only is
         * not indexed and skipped here. Nothing unless word tokens are enabled. The words of a chunk may come in any
         * order and repeat: the result is that of {@link #line} over the lines that hold them.
         */
        public void word(byte[] utf8, int offset, int length) {
            if (words && WordTokens.indexed(utf8, offset, length)) {
                wordSink.word(utf8, offset, length);
            }
        }

        /** Encodes into {@link #utf8}; returns the byte length. */
        private int encode(String line) {
            int chars = line.length();
            if (utf8.length < chars) {
                utf8 = new byte[Math.max(chars, utf8.length * 2)];
            }
            for (int i = 0; i < chars; i++) {
                char c = line.charAt(i);
                if (c >= 0x80) {
                    byte[] encoded = line.getBytes(StandardCharsets.UTF_8);
                    if (utf8.length < encoded.length) {
                        utf8 = new byte[Math.max(encoded.length, utf8.length * 2)];
                    }
                    System.arraycopy(encoded, 0, utf8, 0, encoded.length);
                    return encoded.length;
                }
                utf8[i] = (byte) c;
            }
            return chars;
        }

        /**
         * Hashes the line's n-grams over its UTF-8 bytes without building strings: code points start at
         * bytes that are not continuation bytes ({@code 10xxxxxx}), and {@link BloomHash} hashes text with
         * UTF-8 semantics, so each hash equals {@code hash(ngram string)}.
         */
        private void ngramHashes(byte[] bytes, int offset, int length) {
            if (starts.length < length + 1) {
                starts = new int[Math.max(length + 1, starts.length * 2)];
            }
            int codePoints = 0;
            int end = offset + length;
            for (int i = offset; i < end; i++) {
                if ((bytes[i] & 0xC0) != 0x80) {
                    starts[codePoints++] = i;
                }
            }
            starts[codePoints] = end;
            int step = skip + 1;
            for (int p = 0; p + n <= codePoints; p += step) {
                sink.accept(BloomHash.combine(scope, BloomHash.hash(bytes, starts[p], starts[p + n] - starts[p])));
            }
        }
    }

    private interface RangeConsumer {
        void accept(int startChar, int endChar);
    }

    private static void forEachNgram(String line, int n, int skip, RangeConsumer consumer) {
        if (n < 1 || skip < 0) {
            throw new IllegalArgumentException("n-gram length must be ≥ 1 and skip ≥ 0: n=" + n + ", skip=" + skip);
        }
        int length = line.length();
        int start = 0;
        int position = 0;
        while (start < length) {
            // find the end of n code points from start
            int end = start;
            int count = 0;
            while (count < n && end < length) {
                end += Character.charCount(line.codePointAt(end));
                count++;
            }
            if (count < n) {
                return;
            }
            if (position % (skip + 1) == 0) {
                consumer.accept(start, end);
            }
            start += Character.charCount(line.codePointAt(start));
            position++;
        }
    }
}
