package io.logbloom.chunks;

/**
 * Which whole digit runs the lines of one block may hold: a Bloom filter (Bloom, 1970) over the distinct values of
 * the block's canonical decimal line runs, so a literal filter whose inner run is a number ({@code ts=1110000 } in
 * {@code |= "ts=1110000 "}) rules the block out without fetching it.
 *
 * <p>Why: number words are not bloom tokens (a block holds thousands of distinct ids, sizes and counters, which
 * would more than double the series blooms' bytes), so the only proof of absence for such a literal was the byte
 * scan of each block's numbers section ({@code ColumnarLineTokenSections}), inflating every block's numbers on every
 * query. This filter is built from that section the first time a query needs it and kept by the querier in memory
 * only (no stored bytes): about {@value #BITS_PER_VALUE} bits per distinct value, false-positive rate near 0.8 %
 * ({@value #HASHES} probes; {@code (1 - e^(-7/10))^7}).
 *
 * <p>Why the proof holds: a line is split into maximal runs of one byte class, and so is the literal; a run of the
 * literal with a run on each side of it (an inner run) can only lie on a whole line run. A canonical decimal below
 * 10^18 as a whole line run is a number of the numbers section, or, in a payload this writer did not make, a
 * dictionary token; the filter holds both. A line containing the literal therefore has each inner canonical digit run
 * of the literal ({@link #requiredNumbers}) as a value the filter holds.
 *
 * <p>Probes: one 64-bit SplitMix64 mix of the value (Steele et al., "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), whose halves drive Kirsch–Mitzenmacher double hashing, each probe scaled onto the bits
 * with Lemire's multiply-shift, as the series blooms probe.
 *
 * <p>Immutable and thread-safe.
 */
public final class ColumnarNumberFilter {
    /** Bits per distinct value: with {@link #HASHES} probes about 0.8 % false positives, 1.25 bytes per value. */
    static final int BITS_PER_VALUE = 10;
    /** The optimal probe count for {@link #BITS_PER_VALUE} is {@code 10 ln 2 ≈ 6.9}. */
    static final int HASHES = 7;
    /** Digits of the largest number a line run is stored as (as {@code ColumnarLineTokens} writes them). */
    private static final int MAX_NUMBER_DIGITS = 18;

    private final long[] words;
    private final long bits;
    private final int values;

    private ColumnarNumberFilter(long[] words, int values) {
        this.words = words;
        this.bits = 64L * words.length;
        this.values = values;
    }

    /** A filter holding the {@code count} distinct values {@code distinct[0, count)}. */
    static ColumnarNumberFilter of(long[] distinct, int count) {
        long[] words = new long[(int) Math.max(1, ((long) count * BITS_PER_VALUE + 63) / 64)];
        long bits = 64L * words.length;
        for (int i = 0; i < count; i++) {
            long h = mix(distinct[i]);
            long lower = h & 0xFFFFFFFFL;
            long upper = h >>> 32;
            for (int k = 0; k < HASHES; k++) {
                long bit = (((lower + k * upper) & 0xFFFFFFFFL) * bits) >>> 32;
                words[(int) (bit >>> 6)] |= 1L << bit;
            }
        }
        return new ColumnarNumberFilter(words, count);
    }

    /** False when no whole line run of the block is the decimal {@code value}; true when one may be. */
    public boolean mayContain(long value) {
        long h = mix(value);
        long lower = h & 0xFFFFFFFFL;
        long upper = h >>> 32;
        for (int k = 0; k < HASHES; k++) {
            long bit = (((lower + k * upper) & 0xFFFFFFFFL) * bits) >>> 32;
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** False when a line containing {@code literal} cannot be in the block (see {@link #requiredNumbers}). */
    public boolean mayContainAll(long[] requiredNumbers) {
        for (long value : requiredNumbers) {
            if (!mayContain(value)) {
                return false;
            }
        }
        return true;
    }

    /** The distinct values the filter was built from. */
    public int values() {
        return values;
    }

    /** The heap this filter holds, for weighing it in a cache. */
    public long retainedBytes() {
        return 8L * words.length + 32;
    }

    /**
     * The inner runs of {@code literal} (UTF-8 bytes) that are canonical decimals below 10^18: every line containing
     * the literal has each as a whole line run (see the class comment). Empty when there is none.
     */
    public static long[] requiredNumbers(byte[] literal) {
        long[] out = new long[0];
        int runStart = 0;
        for (int p = 1; p <= literal.length; p++) {
            if (p < literal.length
                    && ColumnarLineTokens.byteClass(literal[p]) == ColumnarLineTokens.byteClass(literal[p - 1])) {
                continue;
            }
            // [runStart, p) is a run; inner when a run lies on each side
            int length = p - runStart;
            if (runStart > 0 && p < literal.length && ColumnarLineTokens.isDigit(literal[runStart])
                    && length <= MAX_NUMBER_DIGITS && (length == 1 || literal[runStart] != '0')) {
                long value = 0;
                for (int d = runStart; d < p; d++) {
                    value = value * 10 + (literal[d] - '0');
                }
                out = java.util.Arrays.copyOf(out, out.length + 1);
                out[out.length - 1] = value;
            }
            runStart = p;
        }
        return out;
    }

    /** The SplitMix64 finalizer (Stafford's Mix13 constants): every input bit affects every output bit. */
    private static long mix(long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
