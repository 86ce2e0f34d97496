package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class LineWordsTest {
    /** Pieces lines are made of: words, numbers of every kind the encoder treats apart, separators, non-ASCII text. */
    private static final String[] PIECES = {"GET", "users", "duration_ms", "_", "a", "Z9", "x1y2", "25ms", "0", "007",
        "42", "1234567890123456789012", "999999999999999999", " ", "=", "-", ".", ":", "\"", "{", "é", "日本", "😀",
        "ü-ö", " é ", "\t", "vol-12", "trace0x", "__", "ß_1"};

    /** Letters, digits, '_' and every byte of 0x80 or above: the word tokens' rule of the blooms. */
    private static boolean[] tokensRule() {
        boolean[] word = new boolean[256];
        for (int b = 0; b < 256; b++) {
            word[b] = b >= 0x80 || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_';
        }
        return word;
    }

    /** The words of {@code line} by splitting its bytes under {@code rule} directly. */
    private static void referenceWords(byte[] line, LineWords.Rule rule, Set<String> out) {
        int start = -1;
        for (int i = 0; i <= line.length; i++) {
            boolean word = i < line.length && rule.wordBytes()[line[i] & 0xFF];
            if (word && start < 0) {
                start = i;
            } else if (!word && start >= 0) {
                String w = new String(line, start, i - start, StandardCharsets.ISO_8859_1);
                if (rule.digitOnlyWords() || !w.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    out.add(w);
                }
                start = -1;
            }
        }
    }

    private static String randomLine(Random random) {
        StringBuilder line = new StringBuilder();
        for (int n = random.nextInt(14); n > 0; n--) {
            line.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return line.toString();
    }

    /** The words {@code words} gives after the encoder split {@code lines} as one block. */
    private static List<String> split(List<String> lines, LineWords words) {
        ColumnarTestData.tokenizedPayload(lines, words);
        List<String> found = new ArrayList<>();
        words.forEach((utf8, offset, length) -> found.add(new String(utf8, offset, length, StandardCharsets.ISO_8859_1)));
        return found;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tokens", "digit words", "dash joins", "dash joins, digit words"})
    void randomLines_sameWordsAsSplittingTheBytes(String variant) {
        boolean[] wordBytes = tokensRule();
        if (variant.startsWith("dash joins")) {
            wordBytes['-'] = true; // an ASCII byte outside the encoder's letter and digit runs: split byte by byte
        }
        LineWords.Rule rule = new LineWords.Rule(wordBytes, variant.endsWith("digit words"));
        LineWords words = new LineWords(rule);
        Random random = new Random(variant.hashCode());
        for (int block = 0; block < 300; block++) {
            List<String> lines = new ArrayList<>();
            Set<String> expected = new HashSet<>();
            for (int n = 1 + random.nextInt(40); n > 0; n--) {
                String line = randomLine(random);
                lines.add(line);
                referenceWords(line.getBytes(StandardCharsets.UTF_8), rule, expected);
            }
            List<String> found = split(lines, words);
            assertThat(words.split()).isTrue();
            assertThat(new HashSet<>(found)).as("block %d: %s", block, lines).isEqualTo(expected);
        }
    }

    @Test
    void oneRunWords_givenOncePerBlock_severalRunWordsPerOccurrence() {
        LineWords words = new LineWords(new LineWords.Rule(tokensRule(), false));
        List<String> found = split(List.of("GET users 200 took 25ms", "GET users 500 took 25ms", "GET 007"), words);
        // GET, users, took once each; 25ms (a digit run then a letter run) at both lines; 200, 500, 007 digits only
        assertThat(found).containsExactlyInAnyOrder("GET", "users", "took", "25ms", "25ms");
        // the next block starts afresh
        assertThat(split(List.of("GET"), words)).containsExactly("GET");
    }

    @Test
    void wordsOfABlockNotSplit_refused() {
        LineWords words = new LineWords(new LineWords.Rule(tokensRule(), false));
        words.reset();
        assertThatThrownBy(() -> words.forEach((utf8, offset, length) -> {}))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not split");
    }

    @Test
    void ruleWithoutALetterAsWordByte_refused() {
        boolean[] wordBytes = tokensRule();
        wordBytes['q'] = false;
        assertThatThrownBy(() -> new LineWords.Rule(wordBytes, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("byte 113 ('q') must be a word byte");
        assertThatThrownBy(() -> new LineWords.Rule(new boolean[10], false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("256 entries");
    }

    @Test
    void writer_givesWordsOnlyToSinksWithARule_andOnlyWhenItTokenizes() throws Exception {
        ColumnarRows rows = new ColumnarRows();
        rows.append(1, "GET users", List.of());
        LineWords.Rule rule = new LineWords.Rule(tokensRule(), false);
        List<String> seen = new ArrayList<>();
        ColumnarObjectWriter.BlockSink withRule = new ColumnarObjectWriter.BlockSink() {
            @Override
            public void block(int blockIndex, ColumnarRows r, int[] order, int from, int to, LineWords words) {
                seen.add(words == null ? "none" : "words");
            }

            @Override
            public LineWords.Rule wordRule() {
                return rule;
            }
        };
        ColumnarObjectWriter.BlockSink withoutRule = (blockIndex, r, order, from, to, words) ->
                seen.add(words == null ? "none" : "words");
        for (ColumnarConfig config : List.of(ColumnarConfig.defaults(),
                ColumnarConfig.defaults().withEffort(ColumnarConfig.Effort.FAST))) {
            for (ColumnarObjectWriter.BlockSink sink : List.of(withRule, withoutRule)) {
                try (ColumnarObjectWriter writer = new ColumnarObjectWriter(new java.io.ByteArrayOutputStream(), config)) {
                    writer.add(Labels.of("app", "a"), rows, sink);
                    writer.finish();
                }
            }
        }
        assertThat(seen).containsExactly("words", "none", "none", "none");
    }
}
