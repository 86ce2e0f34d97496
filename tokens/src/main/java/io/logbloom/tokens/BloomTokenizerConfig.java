package io.logbloom.tokens;

/**
 * What the flush-time tokenizer feeds into series blooms (YAML section {@code bloom}). Structured
 * metadata tokens are always produced when blooms are enabled; line word tokens when
 * {@code wordTokensEnabled} (default on); line n-grams only in n-gram mode, because they cost CPU and
 * bloom space per line byte (Loki dropped its n-gram blooms for that cost). Immutable.
 *
 * @param enabled whether series blooms are built at all
 * @param ngramEnabled whether chunk-scoped line n-grams are added
 * @param ngramLength n-gram length in code points (Loki used 4)
 * @param ngramSkip code points skipped between indexed n-gram starts (0 = every position)
 * @param wordTokensEnabled whether chunk-scoped line words ({@link WordTokens}) are added
 */
public record BloomTokenizerConfig(boolean enabled, boolean ngramEnabled, int ngramLength, int ngramSkip,
        boolean wordTokensEnabled) {
    /** Longest n-gram: longer grams rarely fit inside query literals, so they would never help skip. */
    static final int MAX_NGRAM_LENGTH = 32;

    /** Validates the n-gram settings. */
    public BloomTokenizerConfig {
        if (ngramLength < 1 || ngramLength > MAX_NGRAM_LENGTH) {
            throw new IllegalArgumentException("ngram_length must be in [1, " + MAX_NGRAM_LENGTH + "]: " + ngramLength);
        }
        if (ngramSkip < 0 || ngramSkip > MAX_NGRAM_LENGTH) {
            throw new IllegalArgumentException("ngram_skip must be in [0, " + MAX_NGRAM_LENGTH + "]: " + ngramSkip);
        }
    }

    /** Blooms on, n-grams off, n = 4, skip = 0, word tokens on. */
    public static BloomTokenizerConfig defaults() {
        return new BloomTokenizerConfig(true, false, 4, 0, true);
    }
}
