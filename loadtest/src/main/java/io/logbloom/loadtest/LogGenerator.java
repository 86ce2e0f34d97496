package io.logbloom.loadtest;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Deterministic generator of realistic log traffic.
 *
 * <p>The run's series are fixed up front: stream {@code i} gets the labels {@code run}, {@code job},
 * {@code namespace}, {@code service}, {@code pod} and {@code level}, all derived from the seed, so
 * {@code --streams} sets the label cardinality. Lines mix logfmt (45 %), JSON (35 %) and plain text
 * (20 %) with HTTP methods, paths, status codes coherent with the level, durations and sizes drawn
 * from log-normal distributions, and a log-normal line length (median configurable, 160 by
 * default, clamped to [40, 4 x median]) reached by padding with words. Each entry carries a unique 128-bit {@code trace_id}
 * in structured metadata. One line in {@link #RARE_LINE_ODDS} carries one of {@link #RARE_PHRASES},
 * so a substring query has something rare to find.
 *
 * <p>Work is split into lanes: lane {@code c} of {@code n} owns the streams {@code i % n == c}. One
 * lane is produced by one thread and sent by one connection in order, so timestamps increase per
 * stream on the wire even with many connections. The content of batch {@code s} of a lane depends
 * only on (seed, lane, lane count, s); timestamps come from the injected clock, made strictly
 * increasing per stream.
 *
 * <p>Thread-safe: the generator itself is immutable; each {@link Lane} is confined to one thread.
 */
public final class LogGenerator {
    /** Structured-metadata key of the unique per-line id. */
    public static final String TRACE_ID = "trace_id";
    /** Structured-metadata key of the optional user id. */
    public static final String USER_ID = "user_id";
    /** Structured-metadata key of the optional session id. */
    public static final String SESSION_ID = "session_id";
    /** Phrases that appear in about one line in {@link #RARE_LINE_ODDS}. */
    public static final List<String> RARE_PHRASES =
            List.of("disk quota exceeded", "certificate has expired", "deadlock detected", "split brain suspected");
    /** One line in this many is a rare line. */
    public static final int RARE_LINE_ODDS = 2_000;

    private static final String[] NAMESPACES = {"prod", "staging", "payments", "edge"};
    private static final String[] SERVICES = {
        "api-gateway", "checkout", "cart", "catalog", "auth", "search", "inventory", "shipping",
        "billing", "notifications", "recommendations", "frontend"
    };
    private static final String[] LEVELS = {"debug", "info", "warn", "error"};
    // Share of streams per level: most services log at info, a few are noisy at debug or error.
    private static final int[] LEVEL_WEIGHTS = {10, 70, 12, 8};
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
    private static final int[] METHOD_WEIGHTS = {60, 25, 8, 5, 2};
    private static final String[] PATHS = {
        "/api/v1/users/%d", "/api/v1/orders/%d", "/api/v1/cart/%d/items", "/api/v1/products/%d",
        "/api/v1/search", "/api/v1/login", "/api/v1/payments/%d/capture", "/healthz", "/metrics",
        "/api/v2/inventory/%d", "/api/v1/shipments/%d/track", "/static/js/app.%d.js"
    };
    private static final int[] OK_STATUS = {200, 200, 200, 200, 200, 200, 201, 204, 301, 304};
    private static final int[] WARN_STATUS = {400, 401, 403, 404, 404, 409, 429};
    private static final int[] ERROR_STATUS = {500, 502, 503, 504};
    private static final String[] PLAIN_MESSAGES = {
        "cache refresh finished", "connection pool resized", "background compaction done",
        "scheduled job completed", "config reloaded", "upstream health check passed",
        "retrying request after backoff", "queue depth above threshold"
    };
    private static final String[] WORDS = {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
        "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
        "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "shard", "replica", "tenant",
        "region", "bucket", "segment", "offset", "partition", "leader", "follower", "token", "lease",
        "snapshot", "checkpoint", "window", "batch", "cursor", "commit", "rollback", "frame"
    };
    // Lines never go below the fixed fields' length nor above 4x the median (a long-tailed but bounded mix).
    private static final int MIN_LINE_LENGTH = 40;
    private static final int MAX_LINE_FACTOR = 4;
    // Spread of the log-normal length distribution: about 90 % of lines within 0.4x..2.7x the median.
    private static final double LINE_LENGTH_SIGMA = 0.6;

    private final GeneratorConfig config;
    private final List<Map<String, String>> streamLabels;

    /** Creates a generator and derives the run's stream label sets from the seed. */
    public LogGenerator(GeneratorConfig config) {
        this.config = java.util.Objects.requireNonNull(config, "config is null");
        SplittableRandom random = new SplittableRandom(config.seed());
        List<Map<String, String>> labels = new ArrayList<>(config.streams());
        for (int i = 0; i < config.streams(); i++) {
            Map<String, String> set = new TreeMap<>();
            String service = SERVICES[i % SERVICES.length];
            set.put("run", config.runId());
            set.put("job", "loadtest");
            set.put("namespace", NAMESPACES[(i / SERVICES.length) % NAMESPACES.length]);
            set.put("service", service);
            set.put("pod", service + "-" + Integer.toHexString(0x100000 + random.nextInt(0xefffff)) + "-" + i);
            set.put("level", LEVELS[weighted(random, LEVEL_WEIGHTS)]);
            labels.add(java.util.Collections.unmodifiableMap(set));
        }
        this.streamLabels = List.copyOf(labels);
    }

    /** Returns the generator's configuration. */
    public GeneratorConfig config() {
        return config;
    }

    /** Returns the label set of every stream of the run, indexed by stream number. */
    public List<Map<String, String>> streamLabels() {
        return streamLabels;
    }

    /** Returns lane {@code index} of {@code laneCount}; each lane owns a disjoint share of the streams. */
    public Lane lane(int index, int laneCount, InstantSource clock) {
        if (laneCount < 1 || laneCount > config.streams()) {
            throw new IllegalArgumentException("lane count must be in [1, streams=" + config.streams()
                    + "] so every lane owns a stream, got " + laneCount);
        }
        if (index < 0 || index >= laneCount) {
            throw new IllegalArgumentException("lane index must be in [0, " + laneCount + "), got " + index);
        }
        return new Lane(index, laneCount, java.util.Objects.requireNonNull(clock, "clock is null"));
    }

    /** The batch sequence of one lane. Not thread-safe: confine each lane to one thread. */
    public final class Lane {
        private final int index;
        private final int laneCount;
        private final InstantSource clock;
        private final int[] streams;
        private final long[] lastTimestampNanos;
        private long sequence;

        private Lane(int index, int laneCount, InstantSource clock) {
            this.index = index;
            this.laneCount = laneCount;
            this.clock = clock;
            this.streams = java.util.stream.IntStream.range(0, config.streams())
                    .filter(i -> i % laneCount == index).toArray();
            this.lastTimestampNanos = new long[streams.length];
        }

        /** Generates the lane's next batch of {@code batchSize} lines. */
        public PushBatch next() {
            SplittableRandom random = new SplittableRandom(mix(config.seed(), index, laneCount, sequence++));
            java.time.Instant now = clock.instant();
            long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            Map<Integer, List<LogEntry>> byStream = new LinkedHashMap<>();
            int needleIndex = random.nextInt(config.batchSize());
            Needle needle = null;
            for (int n = 0; n < config.batchSize(); n++) {
                int slot = random.nextInt(streams.length);
                int stream = streams[slot];
                long timestamp = Math.max(nowNanos, lastTimestampNanos[slot] + 1);
                lastTimestampNanos[slot] = timestamp;
                Map<String, String> labels = streamLabels.get(stream);
                LogEntry entry = entry(random, labels.get("level"), timestamp);
                byStream.computeIfAbsent(stream, k -> new ArrayList<>()).add(entry);
                if (n == needleIndex) {
                    needle = new Needle(labels, entry.traceId(), entry.line(), timestamp);
                }
            }
            List<LogStream> result = new ArrayList<>(byStream.size());
            byStream.forEach((stream, entries) -> result.add(new LogStream(streamLabels.get(stream), entries)));
            return new PushBatch(result, needle);
        }
    }

    private LogEntry entry(SplittableRandom random, String level, long timestampNanos) {
        Map<String, String> metadata = new TreeMap<>();
        metadata.put(TRACE_ID, hex(random.nextLong()) + hex(random.nextLong()));
        if (config.userIds()) {
            metadata.put(USER_ID, "u" + (int) Math.floor(Math.pow(random.nextDouble(), 3) * 100_000));
            metadata.put(SESSION_ID, hex(random.nextLong()));
        }
        return new LogEntry(timestampNanos, line(random, level, config.medianLineLength()), metadata);
    }

    private static String line(SplittableRandom random, String level, int medianLineLength) {
        int targetLength = (int) Math.max(MIN_LINE_LENGTH, Math.min(MAX_LINE_FACTOR * medianLineLength,
                medianLineLength * Math.exp(LINE_LENGTH_SIGMA * gaussian(random))));
        if (random.nextInt(RARE_LINE_ODDS) == 0) {
            String phrase = RARE_PHRASES.get(random.nextInt(RARE_PHRASES.size()));
            return pad(new StringBuilder(level.toUpperCase(java.util.Locale.ROOT)).append(" [worker-")
                    .append(random.nextInt(16)).append("] ").append(phrase).append(" on volume vol-")
                    .append(random.nextInt(1000)), targetLength, random, " ", "");
        }
        String method = METHODS[weighted(random, METHOD_WEIGHTS)];
        String path = String.format(java.util.Locale.ROOT, PATHS[random.nextInt(PATHS.length)], random.nextInt(100_000));
        int status = switch (level) {
            case "error" -> ERROR_STATUS[random.nextInt(ERROR_STATUS.length)];
            case "warn" -> WARN_STATUS[random.nextInt(WARN_STATUS.length)];
            default -> OK_STATUS[random.nextInt(OK_STATUS.length)];
        };
        long durationMillis = Math.max(1, Math.round(25 * Math.exp(1.1 * gaussian(random))));
        long bytes = Math.max(0, Math.round(4_000 * Math.exp(1.3 * gaussian(random))));
        int format = random.nextInt(100);
        if (format < 45) {
            StringBuilder line = new StringBuilder(targetLength + 32).append("level=").append(level)
                    .append(" msg=\"").append(method).append(' ').append(path).append(" completed\"")
                    .append(" method=").append(method).append(" path=").append(path)
                    .append(" status=").append(status).append(" duration_ms=").append(durationMillis)
                    .append(" bytes=").append(bytes).append(" caller=handler.go:").append(40 + random.nextInt(400));
            return pad(line, targetLength, random, " detail=\"", "\"");
        }
        if (format < 80) {
            StringBuilder line = new StringBuilder(targetLength + 32).append("{\"level\":\"").append(level)
                    .append("\",\"msg\":\"request completed\",\"method\":\"").append(method)
                    .append("\",\"path\":\"").append(path).append("\",\"status\":").append(status)
                    .append(",\"duration_ms\":").append(durationMillis).append(",\"bytes\":").append(bytes);
            return pad(line, targetLength - 1, random, ",\"detail\":\"", "\"") + "}";
        }
        StringBuilder line = new StringBuilder(targetLength + 32)
                .append(level.toUpperCase(java.util.Locale.ROOT)).append(" [worker-").append(random.nextInt(16))
                .append("] ").append(PLAIN_MESSAGES[random.nextInt(PLAIN_MESSAGES.length)]).append(" in ")
                .append(durationMillis).append("ms, ").append(bytes).append(" bytes");
        return pad(line, targetLength, random, " - ", "");
    }

    private static String pad(StringBuilder line, int targetLength, SplittableRandom random, String open, String close) {
        if (line.length() + open.length() + close.length() >= targetLength) {
            return line.toString();
        }
        line.append(open);
        boolean first = true;
        while (line.length() + close.length() < targetLength) {
            if (!first) {
                line.append(' ');
            }
            line.append(WORDS[random.nextInt(WORDS.length)]);
            first = false;
        }
        return line.append(close).toString();
    }

    private static int weighted(SplittableRandom random, int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int pick = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return i;
            }
        }
        throw new IllegalStateException("BUG: weighted pick past the last weight");
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller; SplittableRandom has no nextGaussian in Java 17.
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    private static String hex(long value) {
        String digits = Long.toHexString(value);
        return "0".repeat(16 - digits.length()) + digits;
    }

    private static long mix(long seed, int lane, int laneCount, long sequence) {
        long h = seed * 0x9E3779B97F4A7C15L + lane;
        h = (h ^ (h >>> 29)) * 0xBF58476D1CE4E5B9L + laneCount;
        h = (h ^ (h >>> 32)) * 0x94D049BB133111EBL + sequence;
        return h ^ (h >>> 31);
    }
}
