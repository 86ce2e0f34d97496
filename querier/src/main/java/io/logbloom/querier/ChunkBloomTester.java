package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.tokens.BloomTokenScheme;
import java.util.List;
import java.util.Objects;

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

    /** Whether the chunk may contain a match; false means it is safe to skip. */
    boolean mayMatch(BloomQuery query, Labels series, ChunkRef ref, SeriesBloomView bloom) {
        if (bloom == null || !bloom.covers(ref.objectKey())) {
            return true;
        }
        return eval(query, series, ref.objectKey(), ref.objectKey(), bloom);
    }

    /**
     * Whether one block of a columnar object may contain a match; false means it is safe to skip.
     * {@code scope} is the block's token scope, {@code objectKey} what the bloom must cover.
     */
    boolean blockMayMatch(BloomQuery query, Labels series, String objectKey, String scope, SeriesBloomView bloom) {
        if (bloom == null || !bloom.covers(objectKey)) {
            return true;
        }
        return eval(query, series, objectKey, scope, bloom);
    }

    private boolean eval(BloomQuery query, Labels series, String objectKey, String ref, SeriesBloomView bloom) {
        return query.mayHold(leaf -> leafMayMatch(leaf, series, objectKey, ref, bloom));
    }

    private boolean leafMayMatch(BloomQuery leaf, Labels series, String objectKey, String ref, SeriesBloomView bloom) {
        if (leaf instanceof BloomQuery.MetadataEquals eq) {
            if (series.get(eq.key()) != null) {
                return true;
            }
            return bloom.mightContain(objectKey, scheme.chunkScopedHash(ref, eq.key() + "=" + eq.value()));
        }
        if (leaf instanceof BloomQuery.MetadataExists exists) {
            if (series.get(exists.key()) != null) {
                return true;
            }
            return bloom.mightContain(objectKey, scheme.chunkScopedHash(ref, exists.key()));
        }
        if (leaf instanceof BloomQuery.LineContains contains) {
            return literalMayMatch(contains.literal(), objectKey, ref, bloom);
        }
        throw new IllegalStateException("BUG: unknown bloom query node " + leaf);
    }

    private boolean literalMayMatch(String literal, String objectKey, String ref, SeriesBloomView bloom) {
        return wordsMayMatch(literal, objectKey, ref, bloom) && ngramsMayMatch(literal, objectKey, ref, bloom);
    }

    private boolean wordsMayMatch(String literal, String objectKey, String ref, SeriesBloomView bloom) {
        if (!bloom.wordTokens()) {
            return true;
        }
        for (String word : scheme.provenWords(literal)) {
            if (!bloom.mightContain(objectKey, scheme.wordHash(ref, word))) {
                return false;
            }
        }
        return true;
    }

    private boolean ngramsMayMatch(String literal, String objectKey, String ref, SeriesBloomView bloom) {
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
                if (!bloom.mightContain(objectKey, scheme.chunkScopedHash(ref, gram))) {
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
