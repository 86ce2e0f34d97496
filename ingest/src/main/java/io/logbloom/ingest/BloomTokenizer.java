package io.logbloom.ingest;

import io.logbloom.bloom.BloomHash;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The token format shared by ingest (writes series blooms) and querier (tests them). Pure
 * functions plus one configured instance; immutable and thread-safe.
 *
 * <p><b>Tokens.</b> A structured-metadata field (k, v) yields {@code k} and {@code k=v}. Each token
 * is added twice: plain, and <em>chunk-scoped</em> with hash {@code combine(hash(chunk object key),
 * hash(token))}, so one series bloom answers "may chunk C contain token T" (Loki's chunk-prefixed
 * tokens, seed 000). In n-gram mode every line also yields chunk-scoped n-grams of
 * {@code ngramLength} code points starting at positions 0, s+1, 2(s+1), … (s = skip), case-sensitive.
 *
 * <p><b>Query side.</b> A literal may be found at any offset of a line, so only some of its
 * positions were indexed. {@link #ngramAlignments} lists, for each of the s+1 alignments of the
 * literal to the indexed positions, the n-grams lying wholly inside the literal: a chunk can contain
 * the literal only if, for some alignment, all of that alignment's n-grams are in the bloom; an
 * alignment with no n-gram means the chunk cannot be skipped.
 *
 * <p><b>Cost.</b> Loki removed n-gram blooms because a line of L code points yields about L/(s+1)
 * tokens, each a hash plus k bit probes, which makes blooms several times larger than the chunk's
 * metadata tokens; bench's {@code IngestBloomReport} measures the ratio. Skip trades recall of short
 * literals for that cost: a literal needs at least n + s code points to be testable at every
 * alignment.
 */
public final class BloomTokenizer {
    private final BloomTokenizerConfig config;

    /** A tokenizer with the given settings. */
    public BloomTokenizer(BloomTokenizerConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
    }

    /** The settings of this tokenizer. */
    public BloomTokenizerConfig config() {
        return config;
    }

    /** The hash of the chunk's scope: {@code hash(ref.objectKey())}. */
    public static long chunkScope(ChunkRef ref) {
        return BloomHash.hash(ref.objectKey());
    }

    /** The chunk-scoped hash of {@code token}: {@code combine(hash(ref.objectKey()), hash(token))}. */
    public static long chunkScopedHash(ChunkRef ref, String token) {
        return BloomHash.combine(chunkScope(ref), BloomHash.hash(token));
    }

    /** The tokens of one structured-metadata field: {@code name} and {@code name=value}. */
    public static List<String> metadataTokens(Label field) {
        return List.of(field.name(), field.name() + "=" + field.value());
    }

    /** The n-grams of {@code line} indexed at positions 0, skip+1, 2(skip+1), … (code points). */
    public static List<String> ngrams(String line, int n, int skip) {
        List<String> out = new ArrayList<>();
        forEachNgram(line, n, skip, (start, end) -> out.add(line.substring(start, end)));
        return out;
    }

    /**
     * For each of the {@code skip + 1} alignments of {@code literal} against indexed positions, the
     * n-grams fully inside the literal; an empty inner list means that alignment cannot be tested.
     */
    public static List<List<String>> ngramAlignments(String literal, int n, int skip) {
        int[] offsets = literal.codePoints().toArray();
        int codePoints = offsets.length;
        int[] charIndex = new int[codePoints + 1];
        for (int i = 0, c = 0; i < codePoints; i++) {
            charIndex[i] = c;
            c += Character.charCount(offsets[i]);
            charIndex[i + 1] = c;
        }
        int step = skip + 1;
        List<List<String>> alignments = new ArrayList<>(step);
        for (int a = 0; a < step; a++) {
            List<String> grams = new ArrayList<>();
            // the literal starts at a line offset o with o ≡ -a (mod step); position i is indexed iff i ≡ a (mod step)
            for (int i = a; i + n <= codePoints; i += step) {
                grams.add(literal.substring(charIndex[i], charIndex[i + n]));
            }
            alignments.add(List.copyOf(grams));
        }
        return List.copyOf(alignments);
    }

    /**
     * Feeds the hashes of every token of one chunk to {@code sink}: plain and chunk-scoped metadata
     * tokens, and in n-gram mode chunk-scoped line n-grams. A token may be fed more than once.
     */
    public void tokenize(ChunkRef ref, Iterable<LogEntry> entries, LongConsumer sink) {
        long scope = chunkScope(ref);
        int n = config.ngramLength();
        int skip = config.ngramSkip();
        int[] starts = new int[256];
        for (LogEntry entry : entries) {
            for (Label field : entry.metadata()) {
                long name = BloomHash.hash(field.name());
                long pair = BloomHash.hash(field.name() + "=" + field.value());
                sink.accept(name);
                sink.accept(pair);
                sink.accept(BloomHash.combine(scope, name));
                sink.accept(BloomHash.combine(scope, pair));
            }
            if (config.ngramEnabled()) {
                starts = ngramHashes(entry.line(), n, skip, scope, starts, sink);
            }
        }
    }

    /**
     * Hashes the line's n-grams over its UTF-8 bytes without building strings: code points start at
     * bytes that are not continuation bytes ({@code 10xxxxxx}), and {@link BloomHash} hashes text with
     * UTF-8 semantics, so each hash equals {@code hash(ngram string)}. Returns the (maybe grown)
     * scratch array of code point starts for reuse across lines.
     */
    private static int[] ngramHashes(String line, int n, int skip, long scope, int[] starts, LongConsumer sink) {
        byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        if (starts.length < utf8.length + 1) {
            starts = new int[Math.max(utf8.length + 1, starts.length * 2)];
        }
        int codePoints = 0;
        for (int i = 0; i < utf8.length; i++) {
            if ((utf8[i] & 0xC0) != 0x80) {
                starts[codePoints++] = i;
            }
        }
        starts[codePoints] = utf8.length;
        int step = skip + 1;
        for (int p = 0; p + n <= codePoints; p += step) {
            sink.accept(BloomHash.combine(scope, BloomHash.hash(utf8, starts[p], starts[p + n] - starts[p])));
        }
        return starts;
    }

    private interface RangeConsumer {
        void accept(int startChar, int endChar);
    }

    private static void forEachNgram(String line, int n, int skip, RangeConsumer consumer) {
        if (n < 1 || skip < 0) {
            throw new IllegalArgumentException("n-gram length must be ≥ 1 and skip ≥ 0: n=" + n + ", skip=" + skip);
        }
        int length = line.length();
        int start = 0;
        int position = 0;
        while (start < length) {
            // find the end of n code points from start
            int end = start;
            int count = 0;
            while (count < n && end < length) {
                end += Character.charCount(line.codePointAt(end));
                count++;
            }
            if (count < n) {
                return;
            }
            if (position % (skip + 1) == 0) {
                consumer.accept(start, end);
            }
            start += Character.charCount(line.codePointAt(start));
            position++;
        }
    }
}
