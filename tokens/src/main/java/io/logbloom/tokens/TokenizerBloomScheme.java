package io.logbloom.tokens;

import io.logbloom.bloom.BloomHash;
import java.util.List;

/**
 * The production {@link BloomTokenScheme}: the tokenizer's own pure functions, so the query side
 * hashes tokens exactly as the flush did ({@link BloomTokenizer#chunkScopedHash}, {@link WordTokens#wordHash}).
 * Stateless and thread-safe.
 */
public final class TokenizerBloomScheme implements BloomTokenScheme {
    /** Creates the scheme. */
    public TokenizerBloomScheme() {}

    @Override
    public long scopeHash(String scope) {
        return BloomTokenizer.chunkScope(scope);
    }

    @Override
    public long tokenHash(String token) {
        return BloomHash.hash(token);
    }

    @Override
    public long scopedTokenHash(long scopeHash, long tokenHash) {
        return BloomHash.combine(scopeHash, tokenHash);
    }

    @Override
    public long wordTokenHash(String word) {
        return BloomHash.hash(word);
    }

    @Override
    public long scopedWordHash(long scopeHash, long wordHash) {
        return BloomHash.combine(WordTokens.wordScope(scopeHash), wordHash);
    }

    @Override
    public List<List<String>> ngramAlignments(String literal, int n, int skip) {
        return BloomTokenizer.ngramAlignments(literal, n, skip);
    }

    @Override
    public List<String> provenWords(String literal) {
        return WordTokens.provenWords(literal);
    }
}
