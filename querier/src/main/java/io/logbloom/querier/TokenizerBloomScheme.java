package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.ingest.BloomTokenizer;
import java.util.List;

/**
 * The production {@link BloomTokenScheme}: delegates to the ingest tokenizer's pure functions,
 * so the query side hashes tokens exactly as the flush did. Stateless and thread-safe.
 */
public final class TokenizerBloomScheme implements BloomTokenScheme {
    /** Creates the scheme. */
    public TokenizerBloomScheme() {}

    @Override
    public long chunkScopedHash(ChunkRef ref, String token) {
        return BloomTokenizer.chunkScopedHash(ref, token);
    }

    @Override
    public List<List<String>> ngramAlignments(String literal, int n, int skip) {
        return BloomTokenizer.ngramAlignments(literal, n, skip);
    }
}
