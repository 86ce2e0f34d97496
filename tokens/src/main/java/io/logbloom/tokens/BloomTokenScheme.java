package io.logbloom.tokens;

import java.util.List;

/**
 * The token format the write path used, seen from the query side: the chunk-scoped hash of a token,
 * the n-grams a literal must contribute at each alignment, and the words a literal proves with their
 * hashes. Implementations are pure functions and thread-safe.
 */
public interface BloomTokenScheme {
    /** Hash of {@code token} scoped to the chunk stored under {@code objectKey}, exactly as the tokenizer added it. */
    long chunkScopedHash(String objectKey, String token);

    /** For each alignment, the n-grams fully inside {@code literal}; an empty alignment means "cannot skip". */
    List<List<String>> ngramAlignments(String literal, int n, int skip);

    /** The words every line containing {@code literal} holds (see {@link WordTokens#provenWords}). */
    List<String> provenWords(String literal);

    /** Hash of the word token {@code word} of the chunk stored under {@code objectKey}. */
    long wordHash(String objectKey, String word);
}
