package io.logbloom.ingest;

import io.logbloom.bloom.AddResult;
import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.BloomStats;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Label;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Series-bloom maintenance for merges: feeds the tokens of each series' rows in a merged object into
 * the bloom of its series and period (loaded from the store, or new), marks the object covered only
 * when no add came back FULL, persists every touched bloom, and bounds the blooms kept in memory.
 *
 * <p>The ingester's part merger uses it, and so does the compactor for the objects it writes (merged and
 * delete-rewritten), with its own instance.
 *
 * <p>Thread-safety: {@link #start}, {@link #persist} and {@link #evict} are called by one thread only (the
 * merge thread, or the compactor's pass) (it owns {@code unpersisted} and {@code touchedAt}); {@code blooms} is concurrent so
 * {@link #totals} and {@link #memoryBytes} may read it from any thread.
 */
public final class SeriesBloomWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SeriesBloomWriter.class);
    /**
     * Memory kept for series blooms between flushes: n-gram blooms reach megabytes per series, so
     * thousands of series could otherwise hold gigabytes; evicted blooms are reloaded on their next flush.
     */
    static final long MAX_BLOOM_MEMORY_BYTES = 256L << 20;

    private final BloomTokenizer tokenizer;
    private final BloomConfig bloomConfig;
    private final SeriesBloomStore bloomStore;
    private final long maxMemoryBytes;
    private final Map<BloomKey, SeriesBloom> blooms = new ConcurrentHashMap<>();
    private final Set<BloomKey> unpersisted = new HashSet<>();
    private final Map<BloomKey, Long> touchedAt = new HashMap<>();

    private record BloomKey(String tenant, long fingerprint, long period) {}

    /** A writer tokenizing with {@code tokenizer} into blooms sized by {@code bloomConfig}, kept in {@code bloomStore}. */
    public SeriesBloomWriter(BloomTokenizer tokenizer, BloomConfig bloomConfig, SeriesBloomStore bloomStore,
            long maxMemoryBytes) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer is null");
        this.bloomConfig = Objects.requireNonNull(bloomConfig, "bloomConfig is null");
        this.bloomStore = Objects.requireNonNull(bloomStore, "bloomStore is null");
        this.maxMemoryBytes = maxMemoryBytes;
    }

    /** The tokens of one series' rows in one object, added block by block as the object is written. */
    public final class ObjectTokens implements ColumnarObjectWriter.BlockSink {
        private final BloomKey key;
        private final String objectKey;
        private final SeriesBloom bloom;
        private boolean complete = true;

        private ObjectTokens(BloomKey key, String objectKey, SeriesBloom bloom) {
            this.key = key;
            this.objectKey = objectKey;
            this.bloom = bloom;
        }

        /** Adds the block's tokens, scoped to the block ({@link #blockScope}). */
        @Override
        public void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to) {
            ScalableBloomFilter filter = bloom.filter();
            BloomTokenizer.ChunkTokens tokens = tokenizer.chunk(io.logbloom.chunks.ColumnarDirectory.blockScope(objectKey, blockIndex), hash -> {
                if (complete && filter.add(hash) == AddResult.FULL) {
                    complete = false;
                }
            });
            for (int i = from; i < to && complete; i++) {
                int row = order[i];
                for (Label field : rows.metadata(row)) {
                    tokens.metadata(field.name(), field.value());
                }
                tokens.line(rows.line(row));
            }
        }

        /** Marks the object covered when every block's tokens went in; the bloom is persisted by {@link #persist}. */
        public void finish() {
            if (complete) {
                Set<String> covered = new HashSet<>(bloom.coveredChunkKeys());
                covered.add(objectKey);
                blooms.put(key, new SeriesBloom(bloom.filter(), covered, bloom.ngramEnabled(), bloom.ngramLength(),
                        bloom.ngramSkip(), bloom.wordTokens()));
            }
            unpersisted.add(key);
            touchedAt.put(key, System.nanoTime());
        }
    }


    /**
     * Starts adding one series' rows in object {@code objectKey} to the series' bloom of the period of
     * {@code fromNanos}; null when blooms are off.
     */
    public ObjectTokens start(String tenant, long fingerprint, long fromNanos, String objectKey) throws IOException {
        if (!tokenizer.config().enabled()) {
            return null;
        }
        BloomKey key = new BloomKey(tenant, fingerprint, SeriesBloom.periodNumber(fromNanos));
        return new ObjectTokens(key, objectKey, bloomFor(key));
    }

    /**
     * Stores every bloom changed since the last successful call.
     *
     * @throws IOException the first store failure; the blooms not stored stay pending for the next call
     */
    public void persist() throws IOException {
        IOException first = null;
        for (BloomKey key : List.copyOf(unpersisted)) {
            SeriesBloom bloom = blooms.get(key);
            if (bloom == null) {
                unpersisted.remove(key);
                continue;
            }
            try {
                bloomStore.store(key.tenant, key.fingerprint, key.period, bloom);
                unpersisted.remove(key);
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private SeriesBloom bloomFor(BloomKey key) throws IOException {
        SeriesBloom bloom = blooms.get(key);
        if (bloom != null) {
            return bloom;
        }
        BloomTokenizerConfig t = tokenizer.config();
        try {
            var stored = bloomStore.load(key.tenant, key.fingerprint, key.period);
            if (stored.isPresent() && stored.get().ngramEnabled() == t.ngramEnabled()
                    && stored.get().ngramLength() == t.ngramLength() && stored.get().ngramSkip() == t.ngramSkip()
                    && stored.get().wordTokens() == t.wordTokensEnabled()) {
                bloom = stored.get();
            }
        } catch (BloomFormatException e) {
            LOG.warn("series bloom {} is unreadable, starting a new one: {}", key, e.getMessage());
        }
        if (bloom == null) {
            bloom = new SeriesBloom(ScalableBloomFilter.create(bloomConfig), Set.of(), t.ngramEnabled(),
                    t.ngramLength(), t.ngramSkip(), t.wordTokensEnabled());
        }
        blooms.put(key, bloom);
        return bloom;
    }

    /**
     * Bounds the blooms kept in memory: persisted blooms of past periods go at once, and while the
     * rest exceed the memory bound the least recently touched persisted ones go too (a later flush
     * of that series reloads its bloom from the store).
     */
    public void evict(long nowNanos) {
        long keepFrom = SeriesBloom.periodNumber(nowNanos) - 1;
        blooms.keySet().removeIf(k -> k.period < keepFrom && !unpersisted.contains(k));
        long total = memoryBytes();
        if (total > maxMemoryBytes) {
            List<BloomKey> oldestFirst = new ArrayList<>(blooms.keySet());
            oldestFirst.sort(Comparator.comparingLong(k -> touchedAt.getOrDefault(k, Long.MIN_VALUE)));
            for (BloomKey k : oldestFirst) {
                if (total <= maxMemoryBytes) {
                    break;
                }
                if (!unpersisted.contains(k)) {
                    SeriesBloom removed = blooms.remove(k);
                    total -= removed.filter().stats().sizeBytes();
                }
            }
        }
        touchedAt.keySet().retainAll(blooms.keySet());
    }

    /** Bytes of bit storage of the blooms in memory. */
    long memoryBytes() {
        long total = 0;
        for (SeriesBloom b : blooms.values()) {
            total += b.filter().stats().sizeBytes();
        }
        return total;
    }

    /** Bloom totals as Valkey's INFO BF: memory bytes, objects, sub-filters, items, capacity. */
    double[] totals() {
        double[] totals = new double[5];
        for (SeriesBloom b : blooms.values()) {
            BloomStats s = b.filter().stats();
            totals[0] += s.sizeBytes();
            totals[1] += 1;
            totals[2] += s.subFilters();
            totals[3] += s.itemsInserted();
            totals[4] += s.capacity();
        }
        return totals;
    }
}
