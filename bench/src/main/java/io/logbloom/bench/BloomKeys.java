package io.logbloom.bench;

import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * Random log-token keys for the bloom measurements: {@code trace_id=} plus 16 hex digits.
 *
 * <p>Member keys have an even random part and absent keys an odd one, so the two sets are
 * disjoint by construction and every hit on an absent key is a genuine false positive.
 * Stateless and thread-safe.
 */
final class BloomKeys {
    private static final String PREFIX = "trace_id=";

    private BloomKeys() {}

    /** Returns {@code count} keys meant to be added to a filter. */
    static String[] members(long seed, int count) {
        return generate(new SplittableRandom(seed), count, 0);
    }

    /** Returns {@code count} keys that are never added, disjoint from every {@link #members} key. */
    static String[] absent(long seed, int count) {
        return generate(new SplittableRandom(~seed), count, 1);
    }

    private static String[] generate(SplittableRandom random, int count, long lowBit) {
        String[] keys = new String[count];
        for (int i = 0; i < count; i++) {
            long value = (random.nextLong() & ~1L) | lowBit;
            keys[i] = PREFIX + HexFormat.of().toHexDigits(value);
        }
        return keys;
    }
}
