package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.logql.Direction;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.LogExpr;
import io.logbloom.logql.LogQL;
import io.logbloom.logql.LogQLParseException;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.logbloom.tokens.TokenizerBloomScheme;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Generative soundness test of the whole bloom path: random line-filter pipelines ({@code |= |~ != !~} chained,
 * with {@code or} terms) whose regexes come from a grammar with inline flag groups at any position,
 * alternations, quantifiers on astral and combining characters, classes and anchors, against random lines
 * mixing upper and lower case, non-ASCII and astral text. For each pair, "the engine returns the line" must
 * imply "the chunk tester says maybe" for a one-line chunk tokenized by the production tokenizer (word tokens
 * and n-grams of several lengths and skips) into an exact token set, which is stricter than any real bloom.
 * Counterexamples are collected (not just the first) so that a failure lists the classes of bugs it found.
 */
final class BloomSoundnessPropertyTest {
    private static final String[] LINE_WORDS = {"ERROR", "error", "Error", "disk", "full", "abc", "abcd", "😀", "😀😀",
        "É", "é", "e\u0301", "x1", "plain", "=", "id=42", "日本", "K", "\u212a", "ſ", "s"};
    private static final String[] REGEX_WORDS = {"error", "ERROR", "disk", "abc", "ab", "c", "id=42", "42", "plain",
        "é", "É", "日", "s", "k", "x1"};
    private static final String[] SEPARATORS = {" ", "", " ", "=", ", ", "\t"};
    private static final String[] FLAGS = {"(?i)", "(?s)", "(?U)", "(?m)", "(?-i)", "(?is)", "(?i-s)"};
    private static final String[] CLASSES = {"[eE]", "[a-c]", "[^x]", "\\d", "\\w", "\\s", "\\pL", "[😀é]", "[[:alpha:]]",
        "\\PL", "[sS]", "\\x{1F600}", "\\.", "\\x41"};
    private static final String[] QUANTIFIERS = {"*", "+", "?", "{0,2}", "{1,2}", "{2}", "{1,}", "*?", "+?", "??"};
    private static final String[] ANCHORS = {"^", "$", "\\b", "\\B", "\\A", "\\z"};
    private static final long TS = 1_000;

    private final Engine engine = new Engine();
    private final ChunkBloomTester tester = new ChunkBloomTester(new TokenizerBloomScheme());

    @Test
    void lineMatches_impliesBloomSaysMaybe_randomPipelines() throws Exception {
        Random random = new Random(20261123);
        Map<String, String> counterexamples = new LinkedHashMap<>();
        int matchingPairs = 0;
        for (int round = 0; round < 2500 && counterexamples.size() < 40; round++) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                lines.add(randomLine(random));
            }
            lines.add(lines.get(0).toUpperCase(java.util.Locale.ROOT));
            lines.add(lines.get(0).toLowerCase(java.util.Locale.ROOT));
            String query = "{app=\"a\"} " + randomPipeline(random, lines.get(0));
            LogExpr expr;
            try {
                expr = (LogExpr) LogQL.parse(query);
            } catch (LogQLParseException e) {
                continue; // e.g. a generated regex RE2 rejects such as x** ; the server answers 400 for those
            }
            BloomQuery bloomQuery = LogqlBloomQueries.extract(expr);
            for (String line : lines) {
                if (!returned(expr, line)) {
                    continue;
                }
                matchingPairs++;
                String missed = missedBy(bloomQuery, line);
                if (missed != null) {
                    counterexamples.putIfAbsent(query, quote("line " + line + " " + missed + " bloom query " + bloomQuery));
                }
            }
        }
        Map<String, Integer> byClass = new java.util.TreeMap<>();
        StringBuilder report = new StringBuilder();
        counterexamples.forEach((q, why) -> {
            String kind = bugClass(q);
            if (byClass.merge(kind, 1, Integer::sum) <= 2) {
                report.append('\n').append(kind).append(": ").append(q).append("\n    ").append(why);
            }
        });
        assertThat(counterexamples).as("blooms said 'absent' for a matching line; counterexamples by class %s%s",
                byClass, report).isEmpty();
        assertThat(matchingPairs).as("the generator must produce matching pairs").isGreaterThan(3000);
    }

    /** The issue's three queries, over the issue's two lines: each returns its line, so no config may skip it. */
    @Test
    void issueQueries_bloomsSayMaybe() throws Exception {
        for (String q : List.of("{app=\"a\"} |~ \"^(?i)error\"", "{app=\"a\"} |~ \"nomatch|(?i)error disk\"",
                "{app=\"a\"} |~ \"abc😀*\"")) {
            LogExpr expr = (LogExpr) LogQL.parse(q);
            boolean some = false;
            for (String line : List.of("ERROR disk full", "abcd plain")) {
                if (returned(expr, line)) {
                    some = true;
                    assertThat(missedBy(LogqlBloomQueries.extract(expr), line)).as(q).isNull();
                }
            }
            assertThat(some).as(q).isTrue();
        }
    }

    /** A rough class of a counterexample query, to summarize what kinds of regexes the blooms got wrong. */
    private static String bugClass(String query) {
        List<String> kinds = new ArrayList<>();
        if (java.util.regex.Pattern.compile("\\|[^`|]*\\(\\?[a-zA-Z-]*[isU]").matcher(query).find()) {
            kinds.add("flag-in-alternative");
        }
        if (java.util.regex.Pattern.compile("[^`(]\\(\\?-?[isUm]").matcher(query).find()) {
            kinds.add("inline-flag-after-start");
        }
        if (java.util.regex.Pattern.compile("[\\x{10000}-\\x{10FFFF}][*?{+]").matcher(query).find()) {
            kinds.add("quantified-astral");
        }
        return kinds.isEmpty() ? "other" : String.join("+", kinds);
    }

    /** Null when every tokenizer configuration says "maybe" for a chunk holding just {@code line}, else which one said no. */
    private String missedBy(BloomQuery query, String line) {
        for (int[] setting : new int[][] {{4, 0}, {3, 1}, {2, 0}, {1, 2}}) {
            BloomTokenizerConfig config = new BloomTokenizerConfig(true, true, setting[0], setting[1], true);
            ChunkRef ref = new ChunkRef("t", 7, TS, TS, 1, 1, 1);
            Set<Long> tokens = new HashSet<>();
            new BloomTokenizer(config).chunk(ref.objectKey(), tokens::add).line(line);
            ExactBloom bloom = new ExactBloom(tokens, ref.objectKey(), config);
            if (!tester.mayMatch(query, Labels.of("app", "a"), ref, bloom)) {
                return "n=" + setting[0] + " skip=" + setting[1];
            }
        }
        return null;
    }

    private boolean returned(LogExpr expr, String line) throws Exception {
        EntrySource source = (selector, from, through, direction) -> List.of(
                new SourceStream(Map.of("app", "a"), List.of(new StreamEntry(TS, line)).iterator()));
        return engine.evalLogs(expr, source, 0, 2 * TS, 10, Direction.FORWARD).entryCount() > 0;
    }

    private static String randomLine(Random random) {
        StringBuilder sb = new StringBuilder();
        int words = 1 + random.nextInt(5);
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                sb.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
            }
            sb.append(LINE_WORDS[random.nextInt(LINE_WORDS.length)]);
        }
        return sb.toString();
    }

    /** One to three chained filters, each with one or two {@code or} terms; literals are often cut from a line. */
    private static String randomPipeline(Random random, String line) {
        StringBuilder sb = new StringBuilder();
        int filters = 1 + random.nextInt(3);
        for (int f = 0; f < filters; f++) {
            String op = new String[] {"|=", "|~", "!=", "!~", "|=", "|~"}[random.nextInt(6)];
            boolean regex = op.endsWith("~");
            sb.append(' ').append(op);
            int terms = 1 + (random.nextInt(3) == 0 ? 1 : 0);
            for (int t = 0; t < terms; t++) {
                if (t > 0) {
                    sb.append(" or");
                }
                String value = !regex ? randomLiteral(random, line)
                        : random.nextBoolean() ? derivedRegex(random, line) : randomRegex(random, 2);
                sb.append(" `").append(value).append('`');
            }
        }
        return sb.toString();
    }

    private static String randomLiteral(Random random, String line) {
        if (random.nextBoolean()) {
            int[] cps = line.codePoints().toArray();
            int from = random.nextInt(cps.length);
            int to = from + 1 + random.nextInt(cps.length - from);
            return new String(cps, from, to - from);
        }
        return LINE_WORDS[random.nextInt(LINE_WORDS.length)] + (random.nextBoolean() ? " " : "");
    }

    /**
     * A regex that matches {@code line} (mostly): a piece of the line rewritten code point by code point into
     * case-flipped letters under an inline {@code (?i)}, quantified code points, small classes, inserted
     * optional atoms ({@code 😀*}, {@code x?}), anchors at the ends, and sometimes an alternation branch or group.
     */
    private static String derivedRegex(Random random, String line) {
        int[] cps = line.codePoints().toArray();
        int from = random.nextInt(3) == 0 ? 0 : random.nextInt(cps.length);
        int to = random.nextInt(3) == 0 ? cps.length : from + 1 + random.nextInt(cps.length - from);
        StringBuilder sb = new StringBuilder();
        if (from == 0 && random.nextBoolean()) {
            sb.append(random.nextBoolean() ? "^" : "\\A");
        }
        boolean foldCase = false;
        for (int i = from; i < to; i++) {
            int c = cps[i];
            int choice = random.nextInt(100);
            if (choice < 20 && Character.isLetter(c) && Character.toUpperCase(c) != Character.toLowerCase(c)) {
                if (!foldCase) {
                    sb.append(random.nextBoolean() ? "(?i)" : "(?is)");
                    foldCase = true;
                }
                int flipped = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
                sb.append(literal(flipped));
            } else if (choice < 30) {
                sb.append(literal(c)).append(new String[] {"+", "{1,2}", "+?", "{1}"}[random.nextInt(4)]);
            } else if (choice < 40) {
                sb.append(literal(c)).append(new String[] {"😀*", "x?", "\\x{301}*", "(nomatch)?", "É{0,1}", "e\u0301*"}[random.nextInt(6)]);
            } else if (choice < 47) {
                sb.append(random.nextBoolean() ? "[" + literal(c) + "x]" : ".");
            } else if (choice < 52 && foldCase) {
                sb.append("(?-i)").append(literal(c));
                foldCase = false;
            } else {
                sb.append(literal(c));
            }
        }
        if (to == cps.length && random.nextBoolean()) {
            sb.append(random.nextBoolean() ? "$" : "\\z");
        }
        String out = sb.toString();
        return switch (random.nextInt(6)) {
            case 0 -> "nomatch|" + out;
            case 1 -> out + "|" + randomRegex(random, 1);
            case 2 -> "(" + out + ")";
            default -> out;
        };
    }

    /** The code point as a regex literal: ASCII punctuation escaped. */
    private static String literal(int c) {
        if (c < 0x20) {
            return String.format("\\x{%x}", c);
        }
        if (c < 128 && !Character.isLetterOrDigit(c) && c != ' ') {
            return "\\" + (char) c;
        }
        return Character.toString(c);
    }

    private static String randomRegex(Random random, int depth) {
        StringBuilder sb = new StringBuilder();
        int alternatives = random.nextInt(3) == 0 ? 2 + random.nextInt(2) : 1;
        for (int a = 0; a < alternatives; a++) {
            if (a > 0) {
                sb.append('|');
            }
            int pieces = 1 + random.nextInt(4);
            for (int p = 0; p < pieces; p++) {
                sb.append(randomPiece(random, depth));
            }
        }
        return sb.toString();
    }

    private static String randomPiece(Random random, int depth) {
        int kind = random.nextInt(100);
        String atom;
        boolean quantifiable = true;
        if (kind < 35) {
            atom = REGEX_WORDS[random.nextInt(REGEX_WORDS.length)];
        } else if (kind < 45) {
            atom = new String[] {"😀", "e\u0301", "É", " ", "\u212a"}[random.nextInt(5)];
        } else if (kind < 57) {
            atom = FLAGS[random.nextInt(FLAGS.length)];
            quantifiable = false;
        } else if (kind < 70 && depth > 0) {
            String open = new String[] {"(", "(?:", "(?i:", "(?-i:", "(?s:"}[random.nextInt(5)];
            atom = open + randomRegex(random, depth - 1) + ")";
        } else if (kind < 82) {
            atom = CLASSES[random.nextInt(CLASSES.length)];
        } else if (kind < 90) {
            atom = ANCHORS[random.nextInt(ANCHORS.length)];
            quantifiable = false;
        } else {
            atom = ".";
        }
        if (quantifiable && random.nextInt(10) < 3) {
            atom += QUANTIFIERS[random.nextInt(QUANTIFIERS.length)];
        }
        return atom;
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(c -> sb.append(c < 0x20 || c > 0x7e && c < 0xa0 || Character.getType(c) == Character.NON_SPACING_MARK
                || Character.getType(c) == Character.SURROGATE ? String.format("\\u%04x", c) : Character.toString(c)));
        return sb.toString();
    }

    /** A bloom without false positives: the exact token set, with the settings it was built with. */
    private record ExactBloom(Set<Long> tokens, String objectKey, BloomTokenizerConfig config) implements SeriesBloomView {
        @Override
        public boolean covers(String key) {
            return objectKey.equals(key);
        }

        @Override
        public boolean mightContain(String objectKey, long hash) {
            return tokens.contains(hash);
        }

        @Override
        public boolean ngramEnabled() {
            return config.ngramEnabled();
        }

        @Override
        public int ngramLength() {
            return config.ngramLength();
        }

        @Override
        public int ngramSkip() {
            return config.ngramSkip();
        }

        @Override
        public boolean wordTokens() {
            return config.wordTokensEnabled();
        }

        @Override
        public long sizeBytes() {
            return 16L * tokens.size();
        }
    }
}
