package io.logbloom.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.bloom.BloomHash;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class BloomTokenizerTest {
    private static final String REF = "chunks/t1/000000000000002a/1000-2000-7";

    @Test
    void metadataTokens_nameAndPair() {
        assertThat(BloomTokenizer.metadataTokens("trace_id", "abc")).containsExactly("trace_id", "trace_id=abc");
    }

    @Test
    void chunkScopedHash_isCombineOfObjectKeyAndToken() {
        assertThat(BloomTokenizer.chunkScopedHash(REF, "k=v"))
                .isEqualTo(BloomHash.combine(BloomHash.hash(REF), BloomHash.hash("k=v")));
        String other = "chunks/t1/000000000000002a/1000-2001-7";
        assertThat(BloomTokenizer.chunkScopedHash(other, "k=v")).isNotEqualTo(BloomTokenizer.chunkScopedHash(REF, "k=v"));
    }

    @Test
    void tokenize_metadataOnly_scopedOnly() {
        Set<Long> hashes = new HashSet<>();
        BloomTokenizer.ChunkTokens chunk = new BloomTokenizer(new BloomTokenizerConfig(true, false, 4, 0, false))
                .chunk(REF, hashes::add);
        chunk.metadata("user", "bob");
        chunk.line("some line");
        assertThat(hashes).containsExactlyInAnyOrder(
                BloomTokenizer.chunkScopedHash(REF, "user"), BloomTokenizer.chunkScopedHash(REF, "user=bob"));
    }

    @Test
    void metadataFromBytes_sameTokensAsFromStrings() {
        BloomTokenizer tokenizer = new BloomTokenizer(BloomTokenizerConfig.defaults());
        List<Long> fromStrings = new ArrayList<>();
        List<Long> fromBytes = new ArrayList<>();
        BloomTokenizer.ChunkTokens strings = tokenizer.chunk(REF, fromStrings::add);
        BloomTokenizer.ChunkTokens bytes = tokenizer.chunk(REF, fromBytes::add);
        String longValue = "v".repeat(300);
        for (String[] pair : new String[][] {{"trace_id", "0af7651916cd43dd8448eb211c80319c"}, {"user", ""},
            {"ünï", "😀 é"}, {"trace_id", "x"}, {"k", longValue}}) {
            strings.metadata(pair[0], pair[1]);
            byte[] value = ("[" + pair[1] + "]").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            bytes.metadata(pair[0], pair[0].getBytes(java.nio.charset.StandardCharsets.UTF_8), value, 1,
                    value.length - 1);
        }
        assertThat(fromBytes).isEqualTo(fromStrings).contains(BloomTokenizer.chunkScopedHash(REF, "ünï=😀 é"),
                BloomTokenizer.chunkScopedHash(REF, "k=" + longValue));
    }

    @Test
    void tokenize_wordTokens_scopedWordsOfTheLine() {
        Set<Long> hashes = new HashSet<>();
        new BloomTokenizer(BloomTokenizerConfig.defaults()).chunk(REF, hashes::add).line("GET /a_b?x=héllo😀 ok");
        Set<Long> expected = new HashSet<>();
        for (String word : List.of("GET", "a_b", "x", "héllo😀", "ok")) {
            expected.add(WordTokens.wordHash(REF, word));
        }
        assertThat(hashes).isEqualTo(expected);
        assertThat(WordTokens.wordHash(REF, "ok")).isNotEqualTo(BloomTokenizer.chunkScopedHash(REF, "ok"));
    }

    @Test
    void tokenize_repeatedWordsAndNames_fedOncePerChunk_sameSetAsLineByLine() {
        java.util.List<Long> fed = new java.util.ArrayList<>();
        BloomTokenizer tokenizer = new BloomTokenizer(BloomTokenizerConfig.defaults());
        BloomTokenizer.ChunkTokens chunk = tokenizer.chunk(REF, fed::add);
        Set<Long> expected = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String line = "level=info msg=done took=" + (i % 7) + "ms";
            chunk.metadata("trace_id", "t" + i);
            chunk.line(line);
            BloomTokenizer.ChunkTokens fresh = tokenizer.chunk(REF, expected::add);
            fresh.metadata("trace_id", "t" + i);
            fresh.line(line);
        }
        assertThat(new HashSet<>(fed)).isEqualTo(expected);
        assertThat(fed).doesNotHaveDuplicates().hasSizeGreaterThan(50);
    }

    @Test
    void tokenize_ngramMode_addsScopedNgramsOnly() {
        Set<Long> hashes = new HashSet<>();
        new BloomTokenizer(new BloomTokenizerConfig(true, true, 3, 0, false)).chunk(REF, hashes::add).line("abcde");
        assertThat(hashes).containsExactlyInAnyOrder(BloomTokenizer.chunkScopedHash(REF, "abc"),
                BloomTokenizer.chunkScopedHash(REF, "bcd"), BloomTokenizer.chunkScopedHash(REF, "cde"));
    }

    @Test
    void tokenize_ngramMode_unicodeAndSkip_matchStringNgrams() {
        String line = "héllo 😀 wörld, ça va? ✓✓ end";
        for (int skip = 0; skip < 3; skip++) {
            Set<Long> hashes = new HashSet<>();
            new BloomTokenizer(new BloomTokenizerConfig(true, true, 3, skip, false)).chunk(REF, hashes::add).line(line);
            Set<Long> expected = new HashSet<>();
            for (String gram : BloomTokenizer.ngrams(line, 3, skip)) {
                expected.add(BloomTokenizer.chunkScopedHash(REF, gram));
            }
            assertThat(hashes).as("skip %d", skip).isEqualTo(expected);
        }
    }

    @Test
    void ngrams_skipAndCodePoints() {
        assertThat(BloomTokenizer.ngrams("abcdefg", 3, 0)).containsExactly("abc", "bcd", "cde", "def", "efg");
        assertThat(BloomTokenizer.ngrams("abcdefg", 3, 1)).containsExactly("abc", "cde", "efg");
        assertThat(BloomTokenizer.ngrams("abcdefg", 2, 2)).containsExactly("ab", "de");
        assertThat(BloomTokenizer.ngrams("a😀bc", 2, 0)).containsExactly("a😀", "😀b", "bc");
        assertThat(BloomTokenizer.ngrams("ab", 4, 0)).isEmpty();
    }

    @Test
    void ngramAlignments_listEveryAlignment() {
        assertThat(BloomTokenizer.ngramAlignments("abcdef", 3, 0)).containsExactly(List.of("abc", "bcd", "cde", "def"));
        assertThat(BloomTokenizer.ngramAlignments("abcdef", 3, 1))
                .containsExactly(List.of("abc", "cde"), List.of("bcd", "def"));
        assertThat(BloomTokenizer.ngramAlignments("abc", 3, 2))
                .containsExactly(List.of("abc"), List.of(), List.of());
    }

    /** The property the querier relies on: a line containing the literal has, for some alignment, all its n-grams. */
    @Test
    void ngramAlignments_someAlignmentFullyIndexed_randomized() {
        Random random = new Random(7);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + random.nextInt(4);
            int skip = random.nextInt(3);
            String line = randomText(random, 5 + random.nextInt(30));
            int from = random.nextInt(line.length());
            int to = from + 1 + random.nextInt(line.length() - from);
            String literal = line.substring(from, to);
            if (Character.isLowSurrogate(literal.charAt(0)) || Character.isHighSurrogate(literal.charAt(literal.length() - 1))) {
                continue;
            }
            Set<String> indexed = new HashSet<>(BloomTokenizer.ngrams(line, n, skip));
            boolean someAlignmentPresent = false;
            for (List<String> alignment : BloomTokenizer.ngramAlignments(literal, n, skip)) {
                if (indexed.containsAll(alignment)) {
                    someAlignmentPresent = true;
                }
            }
            assertThat(someAlignmentPresent).as("line %s literal %s n %d skip %d", line, literal, n, skip).isTrue();
        }
    }

    private static String randomText(Random random, int length) {
        List<String> alphabet = new ArrayList<>(List.of("a", "b", "c", "é", "😀"));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.get(random.nextInt(alphabet.size())));
        }
        return sb.toString();
    }
}
