package io.logbloom.ingest;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.LineWords;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import io.logbloom.tokens.WordTokens;
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
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Series-bloom maintenance for merges: collects the distinct tokens of each series' rows in a merged
 * object, adds them to one filter sized for their count ({@link SeriesBloom}: one filter per object) in
 * the bloom of the series and period (loaded from the store, or new), which then covers the object
 * (unless the tokens exceed {@link #MAX_TOKENS_PER_OBJECT} or the filter the size limit), drops the
 * filters of objects replaced by the compactor ({@link #forget}), persists every touched bloom, and
 * bounds the blooms kept in memory.
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
    /**
     * Distinct tokens collected for one series in one object before it is left uncovered (never skipped):
     * the hashes are held until the series is written (8 bytes each in a set at most three quarters full,
     * so at most 32 MiB here), and a series with more tokens in one object (n-gram mode on huge lines) is
     * cheaper to scan than to index.
     */
    static final int MAX_TOKENS_PER_OBJECT = 3 << 20;
    /** The word tokens' rule ({@link WordTokens}) for the object writer, which splits lines into words for the blooms. */
    static final LineWords.Rule WORD_RULE = wordRule();

    private final BloomTokenizer tokenizer;
    private final BloomConfig bloomConfig;
    private final SeriesBloomStore bloomStore;
    private final long maxMemoryBytes;
    private final Map<BloomKey, SeriesBloom> blooms = new ConcurrentHashMap<>();
    /**
     * Bit-storage bytes of {@code blooms}, kept up to date by {@link #put} and {@link #remove} (a bloom in the map is
     * never changed, only replaced): every push's admission reads it, and summing the blooms each time cost 4 % of
     * the push threads' CPU with 100 series.
     */
    private final AtomicLong memoryBytes = new AtomicLong();
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

    /**
     * The tokens of one series' rows in one object, collected block by block as the object is written and
     * put into one filter sized for their distinct count when the series is done ({@link #finish}).
     */
    public final class ObjectTokens implements ColumnarObjectWriter.BlockSink {
        private final BloomKey key;
        private final String objectKey;
        private final SeriesBloom bloom;
        private final TokenHashes hashes = new TokenHashes(MAX_TOKENS_PER_OBJECT);
        private boolean complete = true;
        private boolean finished;

        private ObjectTokens(BloomKey key, String objectKey, SeriesBloom bloom) {
            this.key = key;
            this.objectKey = objectKey;
            this.bloom = bloom;
        }

        /**
         * Collects the block's tokens, scoped to the block ({@link io.logbloom.chunks.ColumnarDirectory#blockScope}):
         * the lines' words from {@code words} when the writer split them (it tokenizes the lines anyway), else from
         * the lines.
         */
        @Override
        public void block(int blockIndex, ColumnarRows rows, int[] order, int from, int to, LineWords words) {
            BloomTokenizer.ChunkTokens tokens = tokenizer.chunk(ColumnarDirectory.blockScope(objectKey, blockIndex),
                    hash -> {
                        if (complete && !hashes.add(hash)) {
                            complete = false;
                        }
                    });
            for (int i = from; i < to && complete; i++) {
                int row = order[i];
                rows.forEachMetadata(row, tokens::metadata);
                if (words == null) {
                    tokens.line(rows.lineBytes(), rows.lineOffset(row), rows.lineLength(row));
                } else {
                    tokens.lineNgrams(rows.lineBytes(), rows.lineOffset(row), rows.lineLength(row));
                }
            }
            if (words != null && complete) {
                words.forEach(tokens::word);
            }
        }

        @Override
        public LineWords.Rule wordRule() {
            return tokenizer.config().wordTokensEnabled() ? WORD_RULE : null;
        }

        /** The writer wrote the stream's last block: {@link #finish()}. */
        @Override
        public void streamWritten() {
            finish();
        }

        /**
         * Covers the object with one filter sized for the distinct tokens collected (when every block's tokens
         * fit the bounds); the bloom is persisted by {@link #persist}. Called once, by the writer when the tokens are
         * its sink ({@link #streamWritten()}); calls after the first do nothing.
         */
        public void finish() {
            if (finished) {
                return;
            }
            finished = true;
            long[] distinct = hashes.distinct();
            BloomConfig sized = bloomConfig.withInitialCapacity(Math.max(1, distinct.length)).withNonScaling(true);
            if (complete && exactSizeBytes(distinct.length, bloomConfig.errorRate()) <= bloomConfig.maxSizeBytes()) {
                ScalableBloomFilter filter = ScalableBloomFilter.create(sized);
                if (filter.stats().sizeBytes() <= bloomConfig.maxSizeBytes()) {
                    for (long hash : distinct) {
                        filter.add(hash);
                    }
                    put(key, bloom.withObject(objectKey, filter));
                }
            }
            unpersisted.add(key);
            touchedAt.put(key, System.nanoTime());
        }
    }

    /** Bytes of an optimally sized bloom filter for {@code items} at {@code errorRate}: n ln(1/p) / ln(2)^2 bits. */
    static long exactSizeBytes(long items, double errorRate) {
        return (long) Math.ceil(items * -Math.log(errorRate) / (Math.log(2) * Math.log(2)) / 8);
    }

    /**
     * Stops covering the objects {@code objectKeys} in the bloom of the series and period (they were replaced
     * or deleted, so no query reads them again), dropping their filters; stored by the next {@link #persist}.
     */
    public void forget(String tenant, long fingerprint, long period, Set<String> objectKeys) throws IOException {
        if (!tokenizer.config().enabled()) {
            return;
        }
        BloomKey key = new BloomKey(tenant, fingerprint, period);
        SeriesBloom bloom = bloomFor(key);
        if (bloom.coveredChunkKeys().stream().anyMatch(objectKeys::contains)) {
            put(key, bloom.withoutObjects(objectKeys));
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
            bloom = SeriesBloom.empty(t.ngramEnabled(), t.ngramLength(), t.ngramSkip(), t.wordTokensEnabled());
        }
        put(key, bloom);
        return bloom;
    }

    private void put(BloomKey key, SeriesBloom bloom) {
        SeriesBloom old = blooms.put(key, bloom);
        memoryBytes.addAndGet(bloom.sizeBytes() - (old == null ? 0 : old.sizeBytes()));
    }

    private SeriesBloom remove(BloomKey key) {
        SeriesBloom old = blooms.remove(key);
        if (old != null) {
            memoryBytes.addAndGet(-old.sizeBytes());
        }
        return old;
    }

    /**
     * Bounds the blooms kept in memory: persisted blooms of past periods go at once, and while the
     * rest exceed the memory bound the least recently touched persisted ones go too (a later flush
     * of that series reloads its bloom from the store).
     */
    public void evict(long nowNanos) {
        long keepFrom = SeriesBloom.periodNumber(nowNanos) - 1;
        for (BloomKey k : List.copyOf(blooms.keySet())) {
            if (k.period < keepFrom && !unpersisted.contains(k)) {
                remove(k);
            }
        }
        long total = memoryBytes();
        if (total > maxMemoryBytes) {
            List<BloomKey> oldestFirst = new ArrayList<>(blooms.keySet());
            oldestFirst.sort(Comparator.comparingLong(k -> touchedAt.getOrDefault(k, Long.MIN_VALUE)));
            for (BloomKey k : oldestFirst) {
                if (total <= maxMemoryBytes) {
                    break;
                }
                if (!unpersisted.contains(k)) {
                    total -= remove(k).sizeBytes();
                }
            }
        }
        touchedAt.keySet().retainAll(blooms.keySet());
    }

    /** Bytes of bit storage of the blooms in memory. */
    long memoryBytes() {
        return memoryBytes.get();
    }

    /** Bloom totals as Valkey's INFO BF: memory bytes, series blooms, sub-filters, items, capacity. */
    double[] totals() {
        double[] totals = new double[5];
        for (SeriesBloom b : blooms.values()) {
            double[] t = b.totals();
            for (int i = 0; i < totals.length; i++) {
                totals[i] += i == 1 ? 0 : t[i];
            }
            totals[1] += 1;
        }
        return totals;
    }

    private static LineWords.Rule wordRule() {
        boolean[] wordBytes = new boolean[256];
        for (int b = 0; b < 256; b++) {
            wordBytes[b] = WordTokens.isTokenByte((byte) b);
        }
        return new LineWords.Rule(wordBytes, WordTokens.DIGIT_ONLY_WORDS_INDEXED);
    }
}
