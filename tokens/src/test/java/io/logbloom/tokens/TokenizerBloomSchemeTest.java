package io.logbloom.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The split (scope part, token part) hashes are exactly the tokenizer's. */
final class TokenizerBloomSchemeTest {
    private final TokenizerBloomScheme scheme = new TokenizerBloomScheme();

    @ParameterizedTest
    @ValueSource(strings = {"", "trace_id", "trace_id=4bf92f3577b34da6a3ce929d0e0e4736", "ü-ß", "status=500"})
    void splitHashes_equalTheTokenizers(String token) {
        for (String scope : new String[] {"fake/objects/a-ingester-b-0", "o#7", ""}) {
            assertThat(scheme.scopedTokenHash(scheme.scopeHash(scope), scheme.tokenHash(token)))
                    .isEqualTo(scheme.chunkScopedHash(scope, token))
                    .isEqualTo(BloomTokenizer.chunkScopedHash(scope, token));
            assertThat(scheme.scopedWordHash(scheme.scopeHash(scope), scheme.wordTokenHash(token)))
                    .isEqualTo(scheme.wordHash(scope, token))
                    .isEqualTo(WordTokens.wordHash(scope, token));
        }
    }
}
