package io.logbloom.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class SeenWordsTest {
    private static boolean firstTime(SeenWords seen, String word) {
        byte[] padded = ("xx" + word + "yy").getBytes(StandardCharsets.UTF_8);
        return seen.firstTime(padded, 2, padded.length - 4);
    }

    @Test
    void firstTime_trueOncePerDistinctWord_acrossGrowth() {
        SeenWords seen = new SeenWords();
        Random random = new Random(9);
        Set<String> fed = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            String word = Integer.toString(random.nextInt(3_000), 36) + (random.nextBoolean() ? "" : "é");
            assertThat(firstTime(seen, word)).as(word).isEqualTo(fed.add(word));
        }
    }

    @Test
    void prefixesAndEmptyWord_distinct() {
        SeenWords seen = new SeenWords();
        assertThat(firstTime(seen, "abc")).isTrue();
        assertThat(firstTime(seen, "ab")).isTrue();
        assertThat(firstTime(seen, "abcd")).isTrue();
        assertThat(firstTime(seen, "")).isTrue();
        assertThat(firstTime(seen, "")).isFalse();
        assertThat(firstTime(seen, "ab")).isFalse();
    }

    @Test
    void wordsAroundThePackedLength_sameTailOrPrefix_distinct() {
        // up to 8 bytes a word is compared packed into a long, beyond that by its bytes
        SeenWords seen = new SeenWords();
        for (String word : new String[] {"abcdefgh", "xabcdefgh", "yabcdefgh", "abcdefg", "abcdefghi", "é", "éé",
            "\u0000", "\u0000\u0000", "abcdefghijklmnop", "abcdefghijklmnopq", "xbcdefghijklmnopq", "abcdefghijklmnox",
            "abcdefgxijklmnop", "abcdefghijklmno"}) {
            assertThat(firstTime(seen, word)).as(word).isTrue();
        }
        for (String word : new String[] {"abcdefgh", "xabcdefgh", "yabcdefgh", "abcdefg", "abcdefghi", "é", "éé",
            "\u0000", "\u0000\u0000", "abcdefghijklmnop", "abcdefghijklmnopq", "xbcdefghijklmnopq", "abcdefghijklmnox",
            "abcdefgxijklmnop", "abcdefghijklmno"}) {
            assertThat(firstTime(seen, word)).as(word).isFalse();
        }
    }

    @Test
    void full_newWordsAlwaysFirstTime_rememberedOnesStillRepeats() {
        SeenWords seen = new SeenWords();
        for (int i = 0; i < SeenWords.MAX_WORDS; i++) {
            assertThat(firstTime(seen, "w" + i)).isTrue();
        }
        assertThat(firstTime(seen, "new")).isTrue();
        assertThat(firstTime(seen, "new")).isTrue(); // not remembered: fed again, never lost
        assertThat(firstTime(seen, "w17")).isFalse();
    }
}
