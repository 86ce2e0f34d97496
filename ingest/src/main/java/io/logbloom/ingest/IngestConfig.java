package io.logbloom.ingest;

import io.logbloom.bloom.BloomConfig;
import io.logbloom.chunks.ChunkConfig;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.index.IndexConfig;
import io.logbloom.tokens.BloomTokenizerConfig;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything the {@link Ingester} needs, one record per component. The api maps the YAML sections
 * {@code limits}, {@code wal}, {@code ingester} (flush + chunk) and {@code bloom} (tokenizer + bloom
 * sizing) onto it. Immutable.
 *
 * @param limits per-tenant validation and limits
 * @param wal write-ahead log
 * @param flush chunk closing and flush retries
 * @param chunk chunk block/target size and encoding
 * @param tokenizer what goes into series blooms
 * @param bloom sizing of each series bloom (error rate, expansion, tightening, max size per series)
 * @param index period and cache of the persisted index
 * @param budget memory budget (backpressure) and flush retry budget (fatal path)
 */
public record IngestConfig(LimitsConfig limits, WalConfig wal, FlushConfig flush, ChunkConfig chunk,
        BloomTokenizerConfig tokenizer, BloomConfig bloom, IndexConfig index, BudgetConfig budget) {
    public IngestConfig {
        Objects.requireNonNull(budget, "budget is null");
        Objects.requireNonNull(limits, "limits is null");
        Objects.requireNonNull(wal, "wal is null");
        Objects.requireNonNull(flush, "flush is null");
        Objects.requireNonNull(chunk, "chunk is null");
        Objects.requireNonNull(tokenizer, "tokenizer is null");
        Objects.requireNonNull(bloom, "bloom is null");
        Objects.requireNonNull(index, "index is null");
        if (index.periodNanos() != SeriesBloomStore.PERIOD_NANOS) {
            throw new IllegalArgumentException("index period must be 24h like the series bloom period: " + index.period());
        }
    }

    /** A config with the default budgets. */
    public IngestConfig(LimitsConfig limits, WalConfig wal, FlushConfig flush, ChunkConfig chunk,
            BloomTokenizerConfig tokenizer, BloomConfig bloom, IndexConfig index) {
        this(limits, wal, flush, chunk, tokenizer, bloom, index, BudgetConfig.defaults());
    }

    /**
     * The series blooms' default false-positive rate: 0.1 %, not the bloom library's 1 % (Valkey's default). A
     * needle probes every block of the selected series (~2,450 blocks for 3 M lines), so at 1 % it reads ~25 blocks
     * that do not hold it; at 0.1 % ~2-3. Measured on the 3 M-line bar data (server at -Xmx512m, 16 distinct
     * trace_id needles right after start): p50 23.4 → 12.7 ms for blooms 4.41 → 6.41 MB (6.7 % of stored bytes).
     */
    public static final double DEFAULT_BLOOM_ERROR_RATE = 0.001;

    /**
     * Loki's defaults everywhere but two: series blooms at {@link #DEFAULT_BLOOM_ERROR_RATE} and columnar blocks
     * cut at {@link ColumnarConfig#DEFAULT_MAX_RAW_BYTES_PER_BLOCK}; WAL in {@code walDir}.
     */
    public static IngestConfig defaults(Path walDir) {
        BloomConfig b = BloomConfig.defaults();
        return new IngestConfig(LimitsConfig.defaults(), WalConfig.defaults(walDir), FlushConfig.defaults(),
                ChunkConfig.defaults().withBlockSize(ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK),
                BloomTokenizerConfig.defaults(), new BloomConfig(b.initialCapacity(),
                        DEFAULT_BLOOM_ERROR_RATE, b.expansion(), b.tightening(), b.maxSizeBytes(), b.nonScaling()),
                IndexConfig.defaults());
    }

    /** A copy with other limits. */
    public IngestConfig withLimits(LimitsConfig newLimits) {
        return new IngestConfig(newLimits, wal, flush, chunk, tokenizer, bloom, index, budget);
    }

    /** A copy with another WAL config. */
    public IngestConfig withWal(WalConfig newWal) {
        return new IngestConfig(limits, newWal, flush, chunk, tokenizer, bloom, index, budget);
    }

    /** A copy with another flush config. */
    public IngestConfig withFlush(FlushConfig newFlush) {
        return new IngestConfig(limits, wal, newFlush, chunk, tokenizer, bloom, index, budget);
    }

    /** A copy with another chunk config. */
    public IngestConfig withChunk(ChunkConfig newChunk) {
        return new IngestConfig(limits, wal, flush, newChunk, tokenizer, bloom, index, budget);
    }

    /** A copy with another tokenizer config. */
    public IngestConfig withTokenizer(BloomTokenizerConfig newTokenizer) {
        return new IngestConfig(limits, wal, flush, chunk, newTokenizer, bloom, index, budget);
    }

    /** A copy with another bloom sizing. */
    public IngestConfig withBloom(BloomConfig newBloom) {
        return new IngestConfig(limits, wal, flush, chunk, tokenizer, newBloom, index, budget);
    }

    /** A copy with other budgets. */
    public IngestConfig withBudget(BudgetConfig newBudget) {
        return new IngestConfig(limits, wal, flush, chunk, tokenizer, bloom, index, newBudget);
    }
}
