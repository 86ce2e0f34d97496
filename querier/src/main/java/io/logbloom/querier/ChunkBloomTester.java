package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.tokens.BloomTokenScheme;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongPredicate;

/**
 * Decides per chunk whether it may contain a match, from its series bloom.
 *
 * <p>The rule (shared contract with the ingest tokenizer): a chunk may be skipped only when its
 * object key is in the bloom's covered set AND the bloom says "definitely absent" for the
 * chunk-scoped tokens the query requires. Every other situation answers "may match": no bloom,
 * chunk not covered (the filter was full, or the bloom predates the chunk), a metadata test on a
 * key that is also a stream label of the series (the label filter could be satisfied by the stream
 * label, which is not tokenized), a literal test when the bloom has neither n-grams nor word
 * tokens, an n-gram alignment without any complete n-gram, or a literal that proves no word (see
 * {@code WordTokens}: only words bounded on both sides inside the literal). A literal must pass both
 * its n-gram test and its word test: each is necessary for a line to contain it. A bloom can only ever say "maybe"; this class can only
 * turn a definite "absent" into a skip, so results are the same with blooms on and off.
 *
 * <p>Stateless and thread-safe.
 */
final class ChunkBloomTester {
    private final BloomTokenScheme scheme;

    ChunkBloomTester(BloomTokenScheme scheme) {
        this.scheme = Objects.requireNonNull(scheme, "scheme is null");
    }

    /** Whether the query can ever skip a chunk (false for a pure MatchAll tree). */
    static boolean isTestable(BloomQuery query) {
        return query != null && testable(query);
    }

    private static boolean testable(BloomQuery query) {
        if (query instanceof BloomQuery.MatchAll) {
            return false;
        }
        if (query instanceof BloomQuery.And and) {
            return and.parts().stream().anyMatch(ChunkBloomTester::testable);
        }
        if (query instanceof BloomQuery.Or or) {
            return !or.parts().isEmpty() && or.parts().stream().allMatch(ChunkBloomTester::testable);
        }
        return true;
    }

    /** The hash of the token scope {@code scope} (an object key or a block scope), as the scheme computes it. */
    long scopeHash(String scope) {
        return scheme.scopeHash(scope);
    }

    /** Whether the chunk may contain a match; false means it is safe to skip. */
    boolean mayMatch(BloomQuery query, Labels series, ChunkRef ref, SeriesBloomView bloom) {
        return prepare(query).chunkMayMatch(series, ref.objectKey(), bloom);
    }

    /** {@code query} with its tokens hashed once, to test many chunks or blocks. */
    Prepared prepare(BloomQuery query) {
        return new Prepared(query);
    }

    /**
     * A bloom query whose tokens are hashed once (metadata tokens, proven words), so a test of one block costs
     * the scope combination and the filter probes only; a needle query tests every block of 100 series with it.
     * Immutable and thread-safe.
     */
    final class Prepared {
        private final BloomQuery query;
        /** Per metadata leaf its token hash, per line leaf its proven words' hashes; keyed by leaf identity. */
        private final Map<BloomQuery, long[]> leafHashes = new IdentityHashMap<>();
        /** The key of a query that is a single metadata leaf (a trace_id needle), else null. */
        private final String singleLeafKey;
        /** That single leaf's token hash (0 when {@link #singleLeafKey} is null). */
        private final long singleLeafHash;

        private Prepared(BloomQuery query) {
            this.query = Objects.requireNonNull(query, "query is null");
            hashLeaves(query);
            singleLeafKey = query instanceof BloomQuery.MetadataEquals eq ? eq.key()
                    : query instanceof BloomQuery.MetadataExists exists ? exists.key() : null;
            singleLeafHash = singleLeafKey == null ? 0 : leafHashes.get(query)[0];
        }

        private void hashLeaves(BloomQuery node) {
            if (node instanceof BloomQuery.And and) {
                and.parts().forEach(this::hashLeaves);
            } else if (node instanceof BloomQuery.Or or) {
                or.parts().forEach(this::hashLeaves);
            } else if (node instanceof BloomQuery.MetadataEquals eq) {
                leafHashes.put(node, new long[] {scheme.tokenHash(eq.key() + "=" + eq.value())});
            } else if (node instanceof BloomQuery.MetadataExists exists) {
                leafHashes.put(node, new long[] {scheme.tokenHash(exists.key())});
            } else if (node instanceof BloomQuery.LineContains contains) {
                List<String> words = scheme.provenWords(contains.literal());
                long[] hashes = new long[words.size()];
                for (int i = 0; i < hashes.length; i++) {
                    hashes[i] = scheme.wordTokenHash(words.get(i));
                }
                leafHashes.put(node, hashes);
            }
        }

        /** Whether the chunk stored under {@code objectKey} may contain a match; false means it is safe to skip. */
        boolean chunkMayMatch(Labels series, String objectKey, SeriesBloomView bloom) {
            if (bloom == null || !bloom.covers(objectKey)) {
                return true;
            }
            return blockMayMatch(series, bloom, bloom.tokensOf(objectKey), scheme.scopeHash(objectKey));
        }

        /**
         * Whether the scope hashed {@code scopeHash} (a chunk, or a block of a columnar object) may contain a match;
         * false means it is safe to skip. The caller has checked that {@code bloom} covers the object, and
         * {@code objectTokens} is that object's filter ({@link SeriesBloomView#tokensOf}).
         */
        boolean blockMayMatch(Labels series, SeriesBloomView bloom, LongPredicate objectTokens, long scopeHash) {
            return query.mayHold(leaf -> leafMayMatch(leaf, series, bloom, objectTokens, scopeHash));
        }

        /**
         * The test of the blocks of one object of {@code series}: a predicate on a block's scope hash answering as
         * {@link #blockMayMatch} with these arguments, or "may match" for every block when the query is a single
         * metadata leaf whose key a stream label of the series shadows. A single leaf the series does not shadow is
         * probed in a batch instead ({@link #probesOneToken}).
         */
        LongPredicate blocksOf(Labels series, SeriesBloomView bloom, LongPredicate objectTokens) {
            if (singleLeafKey != null && series.get(singleLeafKey) != null) {
                return scopeHash -> true;
            }
            return scopeHash -> blockMayMatch(series, bloom, objectTokens, scopeHash);
        }

        /**
         * Whether a block of {@code series} may match exactly when the object's filter may hold one scoped token: the
         * query is a single metadata leaf (a trace_id needle) and no stream label of the series shadows its key. Its
         * blocks are then probed in one batch: {@link #scopedTokens}, then {@link SeriesBloomView#retainMightContain}.
         */
        boolean probesOneToken(Labels series) {
            return singleLeafKey != null && series.get(singleLeafKey) == null;
        }

        /** Turns block scope hashes {@code hashes[0, n)} into the single leaf's scoped token hashes, in place. */
        void scopedTokens(long[] hashes, int n) {
            long token = singleLeafHash;
            for (int i = 0; i < n; i++) {
                hashes[i] = scheme.scopedTokenHash(hashes[i], token);
            }
        }

        private boolean leafMayMatch(BloomQuery leaf, Labels series, SeriesBloomView bloom, LongPredicate tokens,
                long scopeHash) {
            if (leaf instanceof BloomQuery.MetadataEquals eq) {
                return series.get(eq.key()) != null
                        || tokens.test(scheme.scopedTokenHash(scopeHash, leafHashes.get(leaf)[0]));
            }
            if (leaf instanceof BloomQuery.MetadataExists exists) {
                return series.get(exists.key()) != null
                        || tokens.test(scheme.scopedTokenHash(scopeHash, leafHashes.get(leaf)[0]));
            }
            if (leaf instanceof BloomQuery.LineContains contains) {
                return wordsMayMatch(leafHashes.get(leaf), bloom, tokens, scopeHash)
                        && ngramsMayMatch(contains.literal(), bloom, tokens, scopeHash);
            }
            throw new IllegalStateException("BUG: unknown bloom query node " + leaf);
        }

        private boolean wordsMayMatch(long[] wordHashes, SeriesBloomView bloom, LongPredicate tokens, long scopeHash) {
            if (!bloom.wordTokens()) {
                return true;
            }
            for (long word : wordHashes) {
                if (!tokens.test(scheme.scopedWordHash(scopeHash, word))) {
                    return false;
                }
            }
            return true;
        }

        private boolean ngramsMayMatch(String literal, SeriesBloomView bloom, LongPredicate tokens, long scopeHash) {
            if (!bloom.ngramEnabled()) {
                return true;
            }
            List<List<String>> alignments = scheme.ngramAlignments(literal, bloom.ngramLength(), bloom.ngramSkip());
            if (alignments.isEmpty()) {
                return true;
            }
            for (List<String> grams : alignments) {
                if (grams.isEmpty()) {
                    return true;
                }
                boolean all = true;
                for (String gram : grams) {
                    if (!tokens.test(scheme.scopedTokenHash(scopeHash, scheme.tokenHash(gram)))) {
                        all = false;
                        break;
                    }
                }
                if (all) {
                    return true;
                }
            }
            return false;
        }
    }
}
