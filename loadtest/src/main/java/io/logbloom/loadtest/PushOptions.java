package io.logbloom.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options of what is pushed: shape of the generated data and the body format.
 *
 * <p>Not thread-safe: filled by picocli on the main thread, read-only afterwards.
 */
final class PushOptions {
    @Option(names = "--run-id", description = "Value of the run label (default: run-<UTC date-time>).")
    String runId;

    @Option(names = "--batch-size", defaultValue = "1000", description = "Lines per push request (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--streams", defaultValue = "100",
            description = "Distinct label sets (series cardinality) written (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--encoding", defaultValue = "protobuf", converter = EncodingConverter.class,
            description = "Body format: protobuf (snappy), json or json-gzip (default: ${DEFAULT-VALUE}).")
    PushEncoding encoding;

    @Option(names = "--line-length", defaultValue = "160",
            description = "Median line length in characters; lengths are log-normal around it (default: ${DEFAULT-VALUE}).")
    int medianLineLength;

    @Option(names = "--user-ids", description = "Also put user_id and session_id into structured metadata.")
    boolean userIds;

    @Option(names = "--lines", defaultValue = "0",
            description = "Stop after sending this many lines (a multiple of --batch-size sends exactly that many); "
                    + "0 = until --duration ends (default: ${DEFAULT-VALUE}).")
    long maxLines;

    @Option(names = "--pregenerate",
            description = "Generate and encode every body of --lines before the timed phase, so the timed phase measures "
                    + "the server, not the generator (the bodies are held in memory).")
    boolean pregenerate;

    @Option(names = "--retry-429",
            description = "Retry a push refused with 429 (the same body, so streams stay ordered), as Promtail and Alloy do: "
                    + "after the server's Retry-After, else an exponential backoff; retries are counted in the report.")
    boolean retry429;

    @Option(names = "--max-retries", defaultValue = "10",
            description = "With --retry-429: retries of one push before it counts as failed (default: ${DEFAULT-VALUE}).")
    int maxRetries;

    @Option(names = "--min-backoff", defaultValue = "500ms", converter = DurationConverter.class,
            description = "With --retry-429: first wait when the server sent no Retry-After; doubles per retry "
                    + "(default: ${DEFAULT-VALUE}).")
    java.time.Duration minBackoff;

    @Option(names = "--max-backoff", defaultValue = "30s", converter = DurationConverter.class,
            description = "With --retry-429: longest wait, also for a longer Retry-After (default: ${DEFAULT-VALUE}).")
    java.time.Duration maxBackoff;

    @Option(names = "--count-lines-containing", paramLabel = "TEXT",
            description = "Count the acknowledged lines containing TEXT (case-sensitive, as |= \"TEXT\"; repeatable); "
                    + "the manifest records each count under linesContaining, to check a count query against.")
    List<String> countedTexts = new ArrayList<>();

    @Option(names = "--producers", description = "Threads that generate and encode bodies (default: half the cores, at least 1).")
    Integer producers;

    int producerCount() {
        return producers != null ? producers : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    PushRetryPolicy retryPolicy() {
        return retry429 ? new PushRetryPolicy(maxRetries, minBackoff, maxBackoff) : PushRetryPolicy.NONE;
    }

    String runId(java.time.Clock clock) {
        return runId != null ? runId : "run-" + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(java.time.ZoneOffset.UTC).format(clock.instant());
    }

    void addTo(Map<String, Object> settings) {
        settings.put("batchSize", batchSize);
        settings.put("streams", streams);
        settings.put("encoding", encoding.cliName());
        settings.put("userIds", userIds);
        settings.put("medianLineLength", medianLineLength);
        settings.put("producers", producerCount());
        settings.put("maxLines", maxLines);
        settings.put("pregenerate", pregenerate);
        if (!countedTexts.isEmpty()) {
            settings.put("countLinesContaining", List.copyOf(countedTexts));
        }
        settings.put("retry429", retry429);
        if (retry429) {
            settings.put("maxRetries", maxRetries);
            settings.put("minBackoffSeconds", minBackoff.toMillis() / 1000.0);
            settings.put("maxBackoffSeconds", maxBackoff.toMillis() / 1000.0);
        }
    }

    /** Converts {@code --encoding} values. */
    static final class EncodingConverter implements picocli.CommandLine.ITypeConverter<PushEncoding> {
        @Override
        public PushEncoding convert(String value) {
            try {
                return PushEncoding.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
