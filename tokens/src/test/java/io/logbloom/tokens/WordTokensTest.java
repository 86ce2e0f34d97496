package io.logbloom.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class WordTokensTest {

    @Test
    void words_asciiRunsAndNonAsciiJoin() {
        assertThat(WordTokens.words("user=bob  id:42 a_b-c ok")).containsExactly("user", "bob", "id", "a_b", "c", "ok");
        assertThat(WordTokens.words("héllo wörld 😀x, 日本語")).containsExactly("héllo", "wörld", "😀x", "日本語");
        assertThat(WordTokens.words("")).isEmpty();
        assertThat(WordTokens.words(" ,; ")).isEmpty();
    }

    @Test
    void forEachWord_overUtf8_matchesStringWords() {
        String line = " GET /api/v1?user=zoë&x=😀😀 done_ ";
        byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        List<String> seen = new ArrayList<>();
        WordTokens.forEachWord(utf8, 0, utf8.length, (b, off, len) -> seen.add(new String(b, off, len, StandardCharsets.UTF_8)));
        assertThat(seen).isEqualTo(WordTokens.words(line));
    }

    @Test
    void forEachWord_digitsOnlyWords_notIndexed() {
        byte[] utf8 = "status=200 took 12ms v2 0x1f 123".getBytes(StandardCharsets.UTF_8);
        List<String> seen = new ArrayList<>();
        WordTokens.forEachWord(utf8, 0, utf8.length, (b, off, len) -> seen.add(new String(b, off, len, StandardCharsets.UTF_8)));
        assertThat(seen).containsExactly("status", "took", "12ms", "v2", "0x1f");
        assertThat(WordTokens.indexed("123")).isFalse();
        assertThat(WordTokens.indexed("١٢٣")).as("non-ASCII digits are token characters of a word").isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'user=bob '|bob",
        "' user=bob '|user,bob",
        "'user=bob'|''",
        "'bob'|''",
        "' a b c '|a,b,c",
        "'x héllo y'|héllo",
        "'(😀)'|😀",
        "'a.b.c'|b",
        "' id 42 x42 4_2 '|id,x42,4_2",
        "' 200 '|''",
    })
    void provenWords_onlyWordsBoundedInsideTheLiteral(String literal, String expected) {
        List<String> want = expected.isEmpty() ? List.of() : List.of(expected.split(","));
        assertThat(WordTokens.provenWords(literal)).isEqualTo(want);
    }

    @Test
    void provenWords_unpairedSurrogate_provesNothing() {
        assertThat(WordTokens.provenWords(" a\uDC00b ")).isEmpty();
        assertThat(WordTokens.provenWords(" a \uD83D")).isEmpty();
    }

    /** Soundness: every proven word of any substring of a line is a word of the line. */
    @Test
    void provenWords_ofAnySubstring_areWordsOfTheLine_randomized() {
        Random random = new Random(17);
        String[] alphabet = {"a", "B", "_", "1", " ", "=", ".", "é", "😀", "\u0301", "日", "-"};
        for (int round = 0; round < 5000; round++) {
            StringBuilder sb = new StringBuilder();
            int length = 1 + random.nextInt(30);
            for (int i = 0; i < length; i++) {
                sb.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String line = sb.toString();
            int from = random.nextInt(line.length());
            int to = from + 1 + random.nextInt(line.length() - from);
            String literal = line.substring(from, to);
            byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
            Set<String> lineWords = new HashSet<>();
            WordTokens.forEachWord(utf8, 0, utf8.length, (b, off, len) -> lineWords.add(new String(b, off, len, StandardCharsets.UTF_8)));
            assertThat(lineWords).as("line %s literal %s", line, literal).containsAll(WordTokens.provenWords(literal));
        }
    }
}
