package io.logbloom.tokens;

import java.util.List;

/**
 * The token format the write path used, seen from the query side: the chunk-scoped hash of a token,
 * the n-grams a literal must contribute at each alignment, and the words a literal proves with their
 * hashes. A scoped hash is split into a scope part and a token part so that a query testing one token
 * against thousands of blocks hashes the token once and each scope once (see {@link #scopedTokenHash}).
 * Implementations are pure functions and thread-safe.
 */
public interface BloomTokenScheme {
    /** The hash of the scope named {@code scope}: an object key, or a block scope within an object. */
    long scopeHash(String scope);

    /** The unscoped hash of a chunk token ({@code key}, {@code key=value} or an n-gram). */
    long tokenHash(String token);

    /** The hash of a token whose {@link #tokenHash} is {@code tokenHash} scoped to the scope hashed {@code scopeHash}. */
    long scopedTokenHash(long scopeHash, long tokenHash);

    /** The unscoped hash of a line word token. */
    long wordTokenHash(String word);

    /** The hash of a word whose {@link #wordTokenHash} is {@code wordHash} scoped to the scope hashed {@code scopeHash}. */
    long scopedWordHash(long scopeHash, long wordHash);

    /** Hash of {@code token} scoped to the chunk stored under {@code objectKey}, exactly as the tokenizer added it. */
    default long chunkScopedHash(String objectKey, String token) {
        return scopedTokenHash(scopeHash(objectKey), tokenHash(token));
    }

    /** For each alignment, the n-grams fully inside {@code literal}; an empty alignment means "cannot skip". */
    List<List<String>> ngramAlignments(String literal, int n, int skip);

    /** The words every line containing {@code literal} holds (see {@link WordTokens#provenWords}). */
    List<String> provenWords(String literal);

    /** Hash of the word token {@code word} of the chunk stored under {@code objectKey}. */
    default long wordHash(String objectKey, String word) {
        return scopedWordHash(scopeHash(objectKey), wordTokenHash(word));
    }
}
