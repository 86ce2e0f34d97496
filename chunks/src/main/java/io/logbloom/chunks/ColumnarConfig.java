package io.logbloom.chunks;

/**
 * How the columnar object writer cuts and compresses blocks. A block holds rows of one stream and is
 * cut when it reaches {@code maxRowsPerBlock} rows or {@code maxRawBytesPerBlock} raw bytes (line
 * plus metadata names and values), whichever comes first. Immutable.
 *
 * @param maxRowsPerBlock rows after which a block is cut
 * @param maxRawBytesPerBlock raw bytes after which a block is cut (a single row larger than this gets a block of its own)
 * @param zstdLevel zstd level for compressed columns (1–22; 3 is zstd's default)
 * @param effort how many encodings the writer tries per column
 */
public record ColumnarConfig(int maxRowsPerBlock, int maxRawBytesPerBlock, int zstdLevel, Effort effort) {
    /** How hard the writer looks for the smallest encoding of each column. */
    public enum Effort {
        /**
         * Every applicable encoding (tokenized lines, dictionary and hex metadata), each plain and
         * zstd'd, the smallest kept: for objects written once and read for their whole life.
         */
        SMALLEST,
        /**
         * Lines and metadata stored plain or zstd'd only (constant metadata still collapses): no
         * tokenizing, dictionary or hex attempt, a fraction of the CPU. Ingest parts were written this way
         * before {@link #UNCOMPRESSED}; every reader reads all three, as the encodings are the same.
         */
        FAST,
        /**
         * As {@link #FAST}, and no column compressed: for ingest parts, whose lines the seal thread would
         * otherwise compress at the push rate only for the merger to decompress them seconds later (zstd
         * level 1 was about 70 % of the seal thread's CPU). Parts take about four times the disk space.
         */
        UNCOMPRESSED
    }

    /**
     * 1 MiB raw per block (stored objects; Loki's chunks cut blocks at 256 KiB). Measured on the 3 M-line
     * load-test set (430 MB, 100 streams, merged at zstd 9, server at -Xmx512m): against 256 KiB, objects and
     * blooms took 94.5 instead of 97.9 MB, a {@code |= "status=500"} count over everything ran in 274-294
     * instead of 452-469 ms (fewer blocks to set up), and a needle cost the same right after a restart and
     * about 3 % more warm (it decodes a larger block's metadata column). 2 and 4 MiB saved little more
     * space (94.4, 94.0 MB) and 4 MiB needles were 30 % slower warm.
     */
    public static final int DEFAULT_MAX_RAW_BYTES_PER_BLOCK = 1024 * 1024;
    /** Bounds the timestamp and metadata arrays one block decodes into; ~5,000 rows of 200 bytes fill 1 MiB first. */
    public static final int DEFAULT_MAX_ROWS_PER_BLOCK = 16 * 1024;
    /** zstd's own default level; the ingester writes parts uncompressed and merges at level 9. */
    public static final int DEFAULT_ZSTD_LEVEL = 3;
    /** A block is decoded whole into arrays; 64 MiB bounds what one block costs a reader. */
    public static final int MAX_RAW_BYTES_PER_BLOCK = 64 * 1024 * 1024;
    /** Row ids inside a block are 32-bit and presence bitmaps are byte arrays; 1 M rows keeps both small. */
    public static final int MAX_ROWS_PER_BLOCK = 1 << 20;

    /** Smallest-effort config (the default effort). */
    public ColumnarConfig(int maxRowsPerBlock, int maxRawBytesPerBlock, int zstdLevel) {
        this(maxRowsPerBlock, maxRawBytesPerBlock, zstdLevel, Effort.SMALLEST);
    }

    public ColumnarConfig {
        java.util.Objects.requireNonNull(effort, "effort is null");
        if (maxRowsPerBlock < 1 || maxRowsPerBlock > MAX_ROWS_PER_BLOCK) {
            throw new IllegalArgumentException(
                    "max rows per block " + maxRowsPerBlock + " is outside [1, " + MAX_ROWS_PER_BLOCK + "]");
        }
        if (maxRawBytesPerBlock < 1 || maxRawBytesPerBlock > MAX_RAW_BYTES_PER_BLOCK) {
            throw new IllegalArgumentException("max raw bytes per block " + maxRawBytesPerBlock + " is outside [1, "
                    + MAX_RAW_BYTES_PER_BLOCK + "]");
        }
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("zstd level " + zstdLevel + " is outside [1, 22]");
        }
    }

    /** The measured defaults: 16 Ki rows, 1 MiB raw, zstd level 3, smallest encodings. */
    public static ColumnarConfig defaults() {
        return new ColumnarConfig(DEFAULT_MAX_ROWS_PER_BLOCK, DEFAULT_MAX_RAW_BYTES_PER_BLOCK, DEFAULT_ZSTD_LEVEL);
    }

    /** A copy with another zstd level. */
    public ColumnarConfig withZstdLevel(int level) {
        return new ColumnarConfig(maxRowsPerBlock, maxRawBytesPerBlock, level, effort);
    }

    /** A copy with another encoding effort. */
    public ColumnarConfig withEffort(Effort newEffort) {
        return new ColumnarConfig(maxRowsPerBlock, maxRawBytesPerBlock, zstdLevel, newEffort);
    }

    /** A copy with another raw-byte bound per block. */
    public ColumnarConfig withMaxRawBytesPerBlock(int bytes) {
        return new ColumnarConfig(maxRowsPerBlock, bytes, zstdLevel, effort);
    }
}
