package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Labels;
import io.logbloom.tokens.TokenizerBloomScheme;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

final class ChunkBloomTesterTest {
    private static final TokenizerBloomScheme SCHEME = new TokenizerBloomScheme();
    private static final String OBJECT = "fake/object-1";

    @Test
    void blocksOf_answersAsBlockMayMatch_forEveryQueryShapeAndSeries() {
        ChunkBloomTester tester = new ChunkBloomTester(SCHEME);
        SplittableRandom random = new SplittableRandom(11);
        long[] scopes = new long[64];
        QuerierFakes.SetBloom bloom = new QuerierFakes.SetBloom(0, true);
        bloom.covered.add(OBJECT);
        for (int b = 0; b < scopes.length; b++) {
            scopes[b] = SCHEME.scopeHash(OBJECT + "#" + b);
            // every third block holds trace_id=t<b>, every fifth the key user_id, every seventh the word "timeout"
            if (b % 3 == 0) {
                bloom.hashes.add(SCHEME.scopedTokenHash(scopes[b], SCHEME.tokenHash("trace_id=t" + b)));
            }
            if (b % 5 == 0) {
                bloom.hashes.add(SCHEME.scopedTokenHash(scopes[b], SCHEME.tokenHash("user_id")));
            }
            if (b % 7 == 0) {
                bloom.hashes.add(SCHEME.scopedWordHash(scopes[b], SCHEME.wordTokenHash("timeout")));
            }
        }
        List<BloomQuery> queries = List.of(
                new BloomQuery.MetadataEquals("trace_id", "t9"),
                new BloomQuery.MetadataEquals("trace_id", "absent"),
                new BloomQuery.MetadataExists("user_id"),
                new BloomQuery.LineContains(" timeout "),
                new BloomQuery.And(List.of(new BloomQuery.MetadataEquals("trace_id", "t21"),
                        new BloomQuery.LineContains(" timeout "))),
                new BloomQuery.Or(List.of(new BloomQuery.MetadataEquals("trace_id", "t3"),
                        new BloomQuery.MetadataExists("user_id"))));
        List<Labels> series = List.of(Labels.of("app", "a"), Labels.of("app", "a", "trace_id", "shadow"),
                Labels.of("user_id", "u1"));
        LongPredicate tokens = bloom.tokensOf(OBJECT);
        int skipped = 0;
        for (BloomQuery query : queries) {
            ChunkBloomTester.Prepared prepared = tester.prepare(query);
            for (Labels s : series) {
                LongPredicate blocks = prepared.blocksOf(s, bloom, tokens);
                long[] batch = new long[200];
                int[] ids = new int[200];
                boolean[] expected = new boolean[200];
                for (int i = 0; i < 200; i++) {
                    long scope = i < scopes.length ? scopes[i] : random.nextLong();
                    boolean general = prepared.blockMayMatch(s, bloom, tokens, scope);
                    assertThat(blocks.test(scope)).as("%s on %s, scope %d", query, s, i).isEqualTo(general);
                    skipped += general ? 0 : 1;
                    batch[i] = scope;
                    ids[i] = i;
                    expected[i] = general;
                }
                // the batched needle path: where it applies, it keeps exactly the blocks the general test keeps
                boolean single = prepared.probesOneToken(s);
                if (single) {
                    prepared.scopedTokens(batch, batch.length);
                }
                boolean needleShape = (query instanceof BloomQuery.MetadataEquals eq && s.get(eq.key()) == null)
                        || (query instanceof BloomQuery.MetadataExists ex && s.get(ex.key()) == null);
                assertThat(single).as("%s on %s applies", query, s).isEqualTo(needleShape);
                if (single) {
                    int n = bloom.retainMightContain(OBJECT, batch, ids, batch.length);
                    List<Integer> kept = new java.util.ArrayList<>();
                    for (int i = 0; i < 200; i++) {
                        if (expected[i]) {
                            kept.add(i);
                        }
                    }
                    assertThat(java.util.Arrays.stream(ids, 0, n).boxed().toList()).as("%s on %s", query, s)
                            .isEqualTo(kept);
                }
            }
        }
        assertThat(skipped).as("the cases must include skips, or the comparison proves little").isGreaterThan(1000);
    }

    @Test
    void blocksOf_needle_skipsExactlyTheBlocksWithoutItsToken_andNoneWhenALabelShadowsTheKey() {
        ChunkBloomTester.Prepared needle = new ChunkBloomTester(SCHEME)
                .prepare(new BloomQuery.MetadataEquals("trace_id", "abc"));
        QuerierFakes.SetBloom bloom = new QuerierFakes.SetBloom(0, true);
        bloom.covered.add(OBJECT);
        long holding = SCHEME.scopeHash(OBJECT + "#1");
        long other = SCHEME.scopeHash(OBJECT + "#2");
        bloom.hashes.add(SCHEME.scopedTokenHash(holding, SCHEME.tokenHash("trace_id=abc")));
        LongPredicate plain = needle.blocksOf(Labels.of("app", "a"), bloom, bloom.tokensOf(OBJECT));
        assertThat(plain.test(holding)).isTrue();
        assertThat(plain.test(other)).isFalse();
        LongPredicate shadowed = needle.blocksOf(Labels.of("trace_id", "x"), bloom, bloom.tokensOf(OBJECT));
        assertThat(shadowed.test(other)).isTrue();
    }
}
