package io.logbloom.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomHash;
import io.logbloom.bloom.PartitionedBloomFilter;
import io.logbloom.bloom.ScalableBloomFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.fastfilter.bloom.BlockedBloom;

/**
 * One bloom filter implementation under measurement, behind a common shape for {@link BloomReport} and the JMH benchmark.
 *
 * <p>Keys are strings (log tokens). Our filters and Guava hash their UTF-8 bytes themselves (XXH3
 * and Murmur3-128 respectively); {@code guava-unencoded-chars} is Guava hashing the UTF-16 chars
 * instead, its fastest path for strings though not byte-compatible with tokens cut from UTF-8
 * lines; fastfilter's blocked bloom only takes 64-bit keys, so it gets the
 * key's {@link BloomHash} and mixes it again internally. The batch methods keep each loop inside
 * one concrete class so the JIT sees a single call target. Instances are not thread-safe (the
 * Guava and fastfilter ones are not safe for concurrent adds).
 */
abstract class BloomCandidate {
    /** Names accepted by {@link #create}, in report order. */
    static final List<String> NAMES = List.of(
            "logbloom-partitioned", "logbloom-scalable", "guava", "guava-unencoded-chars", "fastfilter-blocked");

    /**
     * The scalable filter starts at ceil(items / 63): after five growths its six sub-filters
     * (1 + 2 + … + 32 = 63 parts) hold the items exactly, the state in which a scalable filter
     * spends the fewest bits per item; right after a growth it spends about twice as many.
     */
    static final int SCALABLE_START_FRACTION = 63;

    /** Returns the candidate's name. */
    abstract String name();

    /** Adds one key. */
    abstract void add(String key);

    /** Tests one key. */
    abstract boolean mightContain(String key);

    /** Returns the bits of the filter's bit array(s). */
    abstract long bitCount();

    /** Returns extra facts worth reporting (empty by default). */
    String details() {
        return "";
    }

    /** Adds {@code keys[from..to)}. */
    abstract void addAll(String[] keys, int from, int to);

    /** Returns how many of {@code keys[from..to)} the filter may contain. */
    abstract int countContained(String[] keys, int from, int to);

    /** Creates an empty candidate by name, sized for {@code items} at false-positive rate {@code fpp}. */
    static BloomCandidate create(String name, int items, double fpp) {
        return switch (name) {
            case "logbloom-partitioned" -> new Partitioned(PartitionedBloomFilter.create(items, fpp));
            case "logbloom-scalable" -> new Scalable(ScalableBloomFilter.create(BloomConfig.defaults()
                    .withInitialCapacity(Math.max(1, (items + SCALABLE_START_FRACTION - 1) / SCALABLE_START_FRACTION))
                    .withErrorRate(fpp)
                    .withMaxSizeBytes(1L << 30)));
            case "guava" -> new Guava("guava", BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), items, fpp));
            case "guava-unencoded-chars" -> new Guava("guava-unencoded-chars", BloomFilter.create(Funnels.unencodedCharsFunnel(), items, fpp));
            case "fastfilter-blocked" -> new FastfilterBlocked(newBlockedBloom(items, blockedBitsPerKey(fpp)));
            default -> throw new IllegalArgumentException("unknown filter " + name + ", expected one of " + NAMES);
        };
    }

    /** Bits per key for fastfilter's blocked bloom: the standard 1.44·log2(1/fpp), rounded up (it takes whole bits). */
    static int blockedBitsPerKey(double fpp) {
        return (int) Math.ceil(-Math.log(fpp) / (Math.log(2) * Math.log(2)));
    }

    /** fastfilter only offers construct(all keys); its (entryCount, bitsPerKey) constructor is package-private. */
    private static BlockedBloom newBlockedBloom(int items, int bitsPerKey) {
        try {
            Constructor<BlockedBloom> constructor = BlockedBloom.class.getDeclaredConstructor(int.class, int.class);
            constructor.setAccessible(true);
            return constructor.newInstance(items, bitsPerKey);
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot create fastfilter BlockedBloom(" + items + ", " + bitsPerKey + ")", e);
        }
    }

    private static final class Partitioned extends BloomCandidate {
        private final PartitionedBloomFilter filter;

        Partitioned(PartitionedBloomFilter filter) {
            this.filter = filter;
        }

        @Override String name() { return "logbloom-partitioned"; }
        @Override void add(String key) { filter.add(key); }
        @Override boolean mightContain(String key) { return filter.mightContain(key); }
        @Override long bitCount() { return filter.bitCount(); }
        @Override String details() { return "k=" + filter.hashCount(); }

        @Override
        void addAll(String[] keys, int from, int to) {
            for (int i = from; i < to; i++) {
                filter.add(keys[i]);
            }
        }

        @Override
        int countContained(String[] keys, int from, int to) {
            int count = 0;
            for (int i = from; i < to; i++) {
                if (filter.mightContain(keys[i])) {
                    count++;
                }
            }
            return count;
        }
    }

    private static final class Scalable extends BloomCandidate {
        private final ScalableBloomFilter filter;

        Scalable(ScalableBloomFilter filter) {
            this.filter = filter;
        }

        @Override String name() { return "logbloom-scalable"; }
        @Override void add(String key) { filter.add(key); }
        @Override boolean mightContain(String key) { return filter.mightContain(key); }
        @Override long bitCount() { return filter.stats().sizeBytes() * 8; }
        @Override String details() { return "sub_filters=" + filter.stats().subFilters() + " full=" + filter.isFull(); }

        @Override
        void addAll(String[] keys, int from, int to) {
            for (int i = from; i < to; i++) {
                filter.add(keys[i]);
            }
        }

        @Override
        int countContained(String[] keys, int from, int to) {
            int count = 0;
            for (int i = from; i < to; i++) {
                if (filter.mightContain(keys[i])) {
                    count++;
                }
            }
            return count;
        }
    }

    private static final class Guava extends BloomCandidate {
        private final String name;
        private final BloomFilter<CharSequence> filter;

        Guava(String name, BloomFilter<CharSequence> filter) {
            this.name = name;
            this.filter = filter;
        }

        @Override String name() { return name; }
        @Override void add(String key) { filter.put(key); }
        @Override boolean mightContain(String key) { return filter.mightContain(key); }

        /** Guava hides its bit size; its serialized form is 6 header bytes followed by the bit words. */
        @Override
        long bitCount() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                filter.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return (out.size() - 6) * 8L;
        }

        @Override
        void addAll(String[] keys, int from, int to) {
            for (int i = from; i < to; i++) {
                filter.put(keys[i]);
            }
        }

        @Override
        int countContained(String[] keys, int from, int to) {
            int count = 0;
            for (int i = from; i < to; i++) {
                if (filter.mightContain(keys[i])) {
                    count++;
                }
            }
            return count;
        }
    }

    private static final class FastfilterBlocked extends BloomCandidate {
        private final BlockedBloom filter;

        FastfilterBlocked(BlockedBloom filter) {
            this.filter = filter;
        }

        @Override String name() { return "fastfilter-blocked"; }
        @Override void add(String key) { filter.add(BloomHash.hash(key)); }
        @Override boolean mightContain(String key) { return filter.mayContain(BloomHash.hash(key)); }
        @Override long bitCount() { return filter.getBitCount(); }

        @Override
        void addAll(String[] keys, int from, int to) {
            for (int i = from; i < to; i++) {
                filter.add(BloomHash.hash(keys[i]));
            }
        }

        @Override
        int countContained(String[] keys, int from, int to) {
            int count = 0;
            for (int i = from; i < to; i++) {
                if (filter.mayContain(BloomHash.hash(keys[i]))) {
                    count++;
                }
            }
            return count;
        }
    }
}
