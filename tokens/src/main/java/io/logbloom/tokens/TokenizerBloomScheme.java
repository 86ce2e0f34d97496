package io.logbloom.tokens;

import java.util.List;

/**
 * The production {@link BloomTokenScheme}: the tokenizer's own pure functions, so the query side
 * hashes tokens exactly as the flush did. Stateless and thread-safe.
 */
public final class TokenizerBloomScheme implements BloomTokenScheme {
    /** Creates the scheme. */
    public TokenizerBloomScheme() {}

    @Override
    public long chunkScopedHash(String objectKey, String token) {
        return BloomTokenizer.chunkScopedHash(objectKey, token);
    }

    @Override
    public List<List<String>> ngramAlignments(String literal, int n, int skip) {
        return BloomTokenizer.ngramAlignments(literal, n, skip);
    }

    @Override
    public List<String> provenWords(String literal) {
        return WordTokens.provenWords(literal);
    }

    @Override
    public long wordHash(String objectKey, String word) {
        return WordTokens.wordHash(objectKey, word);
    }
}
