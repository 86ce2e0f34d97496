package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import java.util.List;

/**
 * The token format the write path used, seen from the query side: the chunk-scoped hash of a
 * token, and the n-grams a literal must contribute at each alignment. Implementations are pure
 * functions and thread-safe.
 */
public interface BloomTokenScheme {
    /** Hash of {@code token} scoped to the chunk {@code ref}, exactly as the tokenizer added it. */
    long chunkScopedHash(ChunkRef ref, String token);

    /** For each alignment, the n-grams fully inside {@code literal}; an empty alignment means "cannot skip". */
    List<List<String>> ngramAlignments(String literal, int n, int skip);
}
