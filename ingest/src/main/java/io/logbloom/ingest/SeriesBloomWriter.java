package io.logbloom.ingest;

import io.logbloom.bloom.AddResult;
import io.logbloom.bloom.BloomConfig;
import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.BloomStats;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.tokens.BloomTokenizer;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Series-bloom maintenance for the flush cycle: feeds each flushed chunk's tokens into the bloom of
 * its series and period (loaded from the store, or new), marks the chunk covered only when no add
 * came back FULL, persists every touched bloom, and bounds the blooms kept in memory.
 *
 * <p>Thread-safety: {@link #addAndPersist} and {@link #evict} are called by the single flush cycle
 * only (its lock guards {@code unpersisted} and {@code touchedAt}); {@code blooms} is concurrent so
 * {@link #totals} and {@link #memoryBytes} may read it from any thread.
 */
final class SeriesBloomWriter {
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

    /** Receives a chunk whose bloom step failed. */
    @FunctionalInterface
    interface FailureSink {
        void failed(StreamStore.ClosedChunk chunk, IOException cause);
    }

    SeriesBloomWriter(BloomTokenizer tokenizer, BloomConfig bloomConfig, SeriesBloomStore bloomStore,
            long maxMemoryBytes) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer is null");
        this.bloomConfig = Objects.requireNonNull(bloomConfig, "bloomConfig is null");
        this.bloomStore = Objects.requireNonNull(bloomStore, "bloomStore is null");
        this.maxMemoryBytes = maxMemoryBytes;
    }

    /**
     * Adds the tokens of every stored, not yet bloomed chunk to its series bloom and persists the
     * touched blooms (and those a previous cycle failed to persist); a chunk is marked
     * {@code bloomed} once its bloom is persisted. Failures go to {@code failures}.
     */
    void addAndPersist(List<StreamStore.ClosedChunk> chunks, FailureSink failures) {
        Set<BloomKey> touched = new HashSet<>();
        Map<BloomKey, List<StreamStore.ClosedChunk>> waiting = new HashMap<>();
        for (StreamStore.ClosedChunk c : chunks) {
            if (!c.stored || c.bloomed) {
                continue;
            }
            if (!tokenizer.config().enabled()) {
                c.bloomed = true;
                continue;
            }
            BloomKey key = new BloomKey(c.ref.tenant(), c.ref.fingerprint(), SeriesBloom.periodNumber(c.ref.fromNanos()));
            long start = System.nanoTime();
            try {
                SeriesBloom bloom = bloomFor(key);
                if (addTokens(bloom.filter(), c)) {
                    Set<String> covered = new HashSet<>(bloom.coveredChunkKeys());
                    covered.add(c.ref.objectKey());
                    bloom = new SeriesBloom(bloom.filter(), covered, bloom.ngramEnabled(), bloom.ngramLength(),
                            bloom.ngramSkip(), bloom.wordTokens());
                    blooms.put(key, bloom);
                }
                touched.add(key);
                touchedAt.put(key, System.nanoTime());
                waiting.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
            } catch (IOException e) {
                failures.failed(c, e);
            }
            c.flushNanos += System.nanoTime() - start;
        }
        touched.addAll(unpersisted);
        for (BloomKey key : touched) {
            SeriesBloom bloom = blooms.get(key);
            if (bloom == null) {
                continue;
            }
            try {
                bloomStore.store(key.tenant, key.fingerprint, key.period, bloom);
                unpersisted.remove(key);
                for (StreamStore.ClosedChunk c : waiting.getOrDefault(key, List.of())) {
                    c.bloomed = true;
                }
            } catch (IOException e) {
                unpersisted.add(key);
                for (StreamStore.ClosedChunk c : waiting.getOrDefault(key, List.of())) {
                    failures.failed(c, e);
                }
            }
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

    /** Adds all tokens of the chunk; false when the filter refused one (the chunk is then not covered). */
    private boolean addTokens(ScalableBloomFilter filter, StreamStore.ClosedChunk c) {
        boolean[] complete = {true};
        BloomTokenizer.ChunkTokens tokens = tokenizer.chunk(c.ref.objectKey(), hash -> {
            if (complete[0] && filter.add(hash) == AddResult.FULL) {
                complete[0] = false;
            }
        });
        Iterator<LogEntry> entries = c.chunk.iterator(Long.MIN_VALUE, Long.MAX_VALUE, Direction.FORWARD);
        while (entries.hasNext() && complete[0]) {
            LogEntry entry = entries.next();
            for (Label field : entry.metadata()) {
                tokens.metadata(field.name(), field.value());
            }
            tokens.line(entry.line());
        }
        return complete[0];
    }

    /**
     * Bounds the blooms kept in memory: persisted blooms of past periods go at once, and while the
     * rest exceed the memory bound the least recently touched persisted ones go too (a later flush
     * of that series reloads its bloom from the store).
     */
    void evict(long nowNanos) {
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
