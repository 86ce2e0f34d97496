package io.logbloom.chunks;

import java.util.Arrays;
import java.util.Objects;

/**
 * The words of one block's lines, found by the line encoder ({@link ColumnarLineTokens}) while it cuts the lines
 * into runs anyway, so whoever indexes words (the series blooms) need not scan the lines a second time. A word is a
 * maximal run of bytes the {@link Rule} calls word bytes; lines are split apart (no word spans two lines).
 *
 * <p>After the encoder has split a block ({@link #split()}), {@link #forEach} gives each word of the block at least
 * once: a word that is one run of the encoder's (nearly all words) once per block, from the encoder's token
 * dictionary; a word made of several runs (letters then digits, text with non-ASCII bytes) at each occurrence. Words
 * of ASCII digits only are left out unless the rule indexes them. Not thread-safe: one per writer, refilled per block.
 */
public final class LineWords {
    /** A word's run was a number (no token id), or the word spans several runs. */
    static final int NUMBER = -1;
    static final int SEVERAL_RUNS = -2;

    /**
     * Which bytes make words: {@code wordBytes[b & 0xFF]}; every ASCII letter, digit and {@code '_'} must be a word
     * byte (the encoder's runs of those never hold a word boundary). {@code digitOnlyWords}: whether words of ASCII
     * digits only are given too. Two rules are equal only when they are the same instance (the table is copied).
     */
    public record Rule(boolean[] wordBytes, boolean digitOnlyWords) {
        public Rule {
            Objects.requireNonNull(wordBytes, "wordBytes is null");
            if (wordBytes.length != 256) {
                throw new IllegalArgumentException("wordBytes must have 256 entries, has " + wordBytes.length);
            }
            wordBytes = wordBytes.clone();
            for (int c = 0; c < 128; c++) {
                if (ColumnarLineTokens.byteClass((byte) c) != ColumnarLineTokens.OTHER && !wordBytes[c]) {
                    throw new IllegalArgumentException("byte " + c + " ('" + (char) c + "') must be a word byte: the"
                            + " line encoder's letter and digit runs are not split");
                }
            }
        }

        boolean isWordByte(byte b) {
            return wordBytes[b & 0xFF];
        }

        @Override
        public String toString() {
            return "LineWords.Rule[digitOnlyWords=" + digitOnlyWords + "]";
        }
    }

    /** Receives one word: {@code length} bytes of {@code utf8} from {@code offset}, valid only during the call. */
    @FunctionalInterface
    public interface Visitor {
        void word(byte[] utf8, int offset, int length);
    }

    private final Rule rule;
    /** Whether no ASCII byte outside the encoder's letter and digit runs is a word byte: such runs then end words. */
    private final boolean asciiOthersSeparate;
    private byte[] bytes;
    private boolean split;
    /** Per token id, the block number it was last given in, so a token word is kept once per block. */
    private int[] tokenSeen = new int[256];
    private int blockNumber;
    /** (start, length) of the words kept: one-run words once, several-run words per occurrence. */
    private int[] words = new int[512];
    private int wordCount;

    /** Words by {@code rule}. */
    public LineWords(Rule rule) {
        this.rule = Objects.requireNonNull(rule, "rule is null");
        boolean separate = true;
        for (int c = 0; c < 128; c++) {
            if (ColumnarLineTokens.byteClass((byte) c) == ColumnarLineTokens.OTHER && rule.wordBytes[c]) {
                separate = false;
            }
        }
        this.asciiOthersSeparate = separate;
    }

    /** The rule the words follow. */
    public Rule rule() {
        return rule;
    }

    /** Whether the last block's lines were split into words (the encoder tokenized them). */
    public boolean split() {
        return split;
    }

    /** Forgets the last block's words; {@link #split()} is false until the encoder splits the next. */
    void reset() {
        split = false;
        wordCount = 0;
    }

    /** The encoder starts splitting a block's lines, held in {@code lineBytes}. */
    void begin(byte[] lineBytes) {
        bytes = lineBytes;
        wordCount = 0;
        split = false;
        if (++blockNumber == 0) { // wrapped: stamps of 2^32 blocks ago could collide
            Arrays.fill(tokenSeen, 0);
            blockNumber = 1;
        }
    }

    /** The encoder has split every line of the block. */
    void end() {
        split = true;
    }

    boolean asciiOthersSeparate() {
        return asciiOthersSeparate;
    }

    boolean isWordByte(byte b) {
        return rule.isWordByte(b);
    }

    /**
     * One word of the block: {@code bytes[start, end)}; {@code token}: the token id of its one run, {@link #NUMBER}
     * (one run, a number) or {@link #SEVERAL_RUNS}; {@code digitRun}: its one run is ASCII digits.
     */
    void word(int start, int end, int token, boolean digitRun) {
        if (token == SEVERAL_RUNS) {
            keep(start, end - start);
            return;
        }
        if (digitRun && !rule.digitOnlyWords) {
            return;
        }
        if (token == NUMBER) {
            keep(start, end - start);
            return;
        }
        if (token >= tokenSeen.length) {
            tokenSeen = Arrays.copyOf(tokenSeen, Math.max(token + 1, tokenSeen.length * 2));
        }
        if (tokenSeen[token] != blockNumber) {
            tokenSeen[token] = blockNumber;
            keep(start, end - start);
        }
    }

    private void keep(int start, int length) {
        if (2 * wordCount + 2 > words.length) {
            words = Arrays.copyOf(words, words.length * 2);
        }
        words[2 * wordCount] = start;
        words[2 * wordCount + 1] = length;
        wordCount++;
    }

    /**
     * Gives every word of the last block split, each at least once (see the class comment).
     *
     * @throws IllegalStateException when the last block was not split
     */
    public void forEach(Visitor visitor) {
        if (!split) {
            throw new IllegalStateException("the block's lines were not split into words");
        }
        for (int w = 0; w < wordCount; w++) {
            visitor.word(bytes, words[2 * w], words[2 * w + 1]);
        }
    }
}
