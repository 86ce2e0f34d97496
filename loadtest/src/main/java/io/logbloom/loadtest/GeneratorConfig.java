package io.logbloom.loadtest;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the log generator produces.
 *
 * <p>Immutable and thread-safe.
 *
 * @param seed seed of every random choice; equal seeds give equal lines, labels and metadata
 * @param runId value of the {@code run} label, so separate runs never share a stream
 * @param streams number of distinct label sets (series) the run writes to
 * @param batchSize lines per push request
 * @param userIds whether entries also carry {@code user_id} and {@code session_id} metadata
 * @param medianLineLength median of the log-normal line length distribution, in characters
 */
public record GeneratorConfig(long seed, String runId, int streams, int batchSize, boolean userIds, int medianLineLength) {
    /** Median line length when none is given: typical of HTTP access logs with a few fields. */
    public static final int DEFAULT_MEDIAN_LINE_LENGTH = 160;
    /**
     * Shortest median accepted. The fixed fields of logfmt and JSON lines alone take about 140
     * characters, so below ~150 the median is not reached and only the mean keeps falling: 85 gives
     * the storage issue's data set (430 MB for 3 M lines, ~143 bytes a line); below 80 hardly any line shrinks.
     */
    public static final int MIN_MEDIAN_LINE_LENGTH = 80;
    /** Longest median: lines are clamped at four times the median, and Loki's default max_line_size is 256KB. */
    public static final int MAX_MEDIAN_LINE_LENGTH = 16_384;

    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    // A push above this size is refused by Loki's default grpc/http limits long before our checks.
    private static final int MAX_BATCH_SIZE = 100_000;
    // The stream label set is built in memory; a million series is far past any sane single run.
    private static final int MAX_STREAMS = 1_000_000;

    /** Validates the values and names the offending one. */
    public GeneratorConfig {
        Objects.requireNonNull(runId, "runId is null");
        if (!RUN_ID.matcher(runId).matches()) {
            throw new IllegalArgumentException(
                    "run id must be 1-64 characters of [A-Za-z0-9_.:-], got '" + runId + "'");
        }
        if (streams < 1 || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("streams must be in [1, " + MAX_STREAMS + "], got " + streams);
        }
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException(
                    "batch size must be in [1, " + MAX_BATCH_SIZE + "], got " + batchSize);
        }
        if (medianLineLength < MIN_MEDIAN_LINE_LENGTH || medianLineLength > MAX_MEDIAN_LINE_LENGTH) {
            throw new IllegalArgumentException("median line length must be in [" + MIN_MEDIAN_LINE_LENGTH + ", "
                    + MAX_MEDIAN_LINE_LENGTH + "], got " + medianLineLength);
        }
    }

    /** Creates a config with the default median line length. */
    public GeneratorConfig(long seed, String runId, int streams, int batchSize, boolean userIds) {
        this(seed, runId, streams, batchSize, userIds, DEFAULT_MEDIAN_LINE_LENGTH);
    }
}
